/*
 * An LD_PRELOAD shim that connects a program's NETLINK_RDMA sockets to the fake kernel of the
 * tests (fake_nldev.c), so that iproute2's rdma tool talks to it unchanged: socket(AF_NETLINK,
 * ..., NETLINK_RDMA) connects a SOCK_SEQPACKET socket to the path in FAKE_NLDEV_SOCKET, and the
 * calls libmnl makes on it (bind, getsockname, setsockopt, sendto, recvmsg, close) behave as on
 * a netlink socket: the port id is the pid (netlink_autobind's first choice), replies come from
 * port 0, the kernel.
 */
#define _GNU_SOURCE
#include <linux/netlink.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define SHIM_EXPORT __attribute__((visibility("default")))
#define SHIM_MAX_FD 4096

static unsigned char fake[SHIM_MAX_FD];

static int is_fake(int fd)
{
	return fd >= 0 && fd < SHIM_MAX_FD && fake[fd];
}

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

SHIM_EXPORT int socket(int domain, int type, int protocol)
{
	if (domain != AF_NETLINK || protocol != NETLINK_RDMA)
		return REAL(socket)(domain, type, protocol);
	const char *path = getenv("FAKE_NLDEV_SOCKET");
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	if (!path || strlen(path) >= sizeof(addr.sun_path)) {
		errno = EPROTONOSUPPORT;
		return -1;
	}
	strcpy(addr.sun_path, path);
	int fd = REAL(socket)(AF_UNIX, SOCK_SEQPACKET | (type & SOCK_CLOEXEC), 0);
	if (fd < 0)
		return -1;
	if (fd >= SHIM_MAX_FD || connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		int err = errno;
		REAL(close)(fd);
		errno = err;
		return -1;
	}
	fake[fd] = 1;
	return fd;
}

SHIM_EXPORT int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	return is_fake(fd) ? 0 : REAL(bind)(fd, addr, len);
}

SHIM_EXPORT int getsockname(int fd, struct sockaddr *addr, socklen_t *len)
{
	if (!is_fake(fd))
		return REAL(getsockname)(fd, addr, len);
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK, .nl_pid = (__u32)getpid() };
	memcpy(addr, &nl, *len < sizeof(nl) ? *len : sizeof(nl));
	*len = sizeof(nl);
	return 0;
}

SHIM_EXPORT int setsockopt(int fd, int level, int name, const void *value, socklen_t len)
{
	/* NETLINK_CAP_ACK, NETLINK_EXT_ACK: the fake echoes requests in errors and has no TLVs */
	return (is_fake(fd) && level == SOL_NETLINK) ? 0 : REAL(setsockopt)(fd, level, name, value, len);
}

SHIM_EXPORT ssize_t sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *dest,
			   socklen_t destlen)
{
	return is_fake(fd) ? send(fd, buf, len, flags) : REAL(sendto)(fd, buf, len, flags, dest, destlen);
}

SHIM_EXPORT ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	if (!is_fake(fd))
		return REAL(recvmsg)(fd, msg, flags);
	void *name = msg->msg_name;
	socklen_t namelen = msg->msg_namelen;
	msg->msg_name = NULL;
	msg->msg_namelen = 0;
	ssize_t n = REAL(recvmsg)(fd, msg, flags);
	msg->msg_name = name;
	msg->msg_namelen = namelen;
	if (n >= 0 && name) {
		struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
		memcpy(name, &nl, namelen < sizeof(nl) ? namelen : sizeof(nl));
		msg->msg_namelen = sizeof(nl);
	}
	return n;
}

SHIM_EXPORT int close(int fd)
{
	if (is_fake(fd))
		fake[fd] = 0;
	return REAL(close)(fd);
}
