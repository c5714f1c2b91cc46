/*
 * Attaches an XDP program that passes every packet (two instructions: r0 = XDP_PASS;
 * exit) to a network interface of the current network namespace, in driver mode, and
 * exits; the attachment stays until the interface goes. On a veth this turns on the
 * NAPI receive path, whose per-queue counters (rx_queue_<n>_xdp_packets and _bytes)
 * then move with every packet received: the ethtool tests use it to make statistics
 * move without writing BPF in C.
 *
 * Usage: xdp_pass <ifname>
 */
#include <linux/bpf.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int load_program(void)
{
	struct bpf_insn insns[2];
	union bpf_attr attr;
	char log[4096];

	memset(insns, 0, sizeof(insns));
	insns[0].code = BPF_ALU64 | BPF_MOV | BPF_K;
	insns[0].dst_reg = BPF_REG_0;
	insns[0].imm = XDP_PASS;
	insns[1].code = BPF_JMP | BPF_EXIT;
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_XDP;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = 2;
	attr.license = (unsigned long)"GPL";
	attr.log_buf = (unsigned long)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	log[0] = 0;
	int fd = (int)syscall(SYS_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
	if (fd < 0) {
		fprintf(stderr, "BPF_PROG_LOAD failed: %s\n%s\n", strerror(errno), log);
	}
	return fd;
}

static int attach(int ifindex, int prog)
{
	struct {
		struct nlmsghdr header;
		struct ifinfomsg info;
		char attributes[64];
	} request;
	char reply[4096];

	memset(&request, 0, sizeof(request));
	request.header.nlmsg_type = RTM_SETLINK;
	request.header.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	request.header.nlmsg_seq = 1;
	request.info.ifi_family = AF_UNSPEC;
	request.info.ifi_index = ifindex;
	struct rtattr *xdp = (struct rtattr *)request.attributes;
	xdp->rta_type = IFLA_XDP | NLA_F_NESTED;
	struct rtattr *fd = (struct rtattr *)((char *)xdp + RTA_LENGTH(0));
	fd->rta_type = IFLA_XDP_FD;
	fd->rta_len = RTA_LENGTH(sizeof(int));
	memcpy(RTA_DATA(fd), &prog, sizeof(int));
	struct rtattr *flags = (struct rtattr *)((char *)fd + RTA_ALIGN(fd->rta_len));
	flags->rta_type = IFLA_XDP_FLAGS;
	flags->rta_len = RTA_LENGTH(sizeof(unsigned int));
	unsigned int mode = XDP_FLAGS_DRV_MODE;
	memcpy(RTA_DATA(flags), &mode, sizeof(mode));
	xdp->rta_len = RTA_LENGTH(0) + RTA_ALIGN(fd->rta_len) + RTA_ALIGN(flags->rta_len);
	request.header.nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg)) + RTA_ALIGN(xdp->rta_len);

	int sock = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (sock < 0) {
		fprintf(stderr, "socket(NETLINK_ROUTE) failed: %s\n", strerror(errno));
		return -1;
	}
	if (send(sock, &request, request.header.nlmsg_len, 0) < 0) {
		fprintf(stderr, "send(RTM_SETLINK) failed: %s\n", strerror(errno));
		close(sock);
		return -1;
	}
	ssize_t length = recv(sock, reply, sizeof(reply), 0);
	close(sock);
	struct nlmsghdr *answer = (struct nlmsghdr *)reply;
	if (length < (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr)) || answer->nlmsg_type != NLMSG_ERROR) {
		fprintf(stderr, "unexpected answer to RTM_SETLINK\n");
		return -1;
	}
	int error = ((struct nlmsgerr *)NLMSG_DATA(answer))->error;
	if (error != 0) {
		fprintf(stderr, "RTM_SETLINK IFLA_XDP failed: %s\n", strerror(-error));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: xdp_pass <ifname>\n");
		return 2;
	}
	unsigned int ifindex = if_nametoindex(argv[1]);
	if (ifindex == 0) {
		fprintf(stderr, "no interface %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	int prog = load_program();
	if (prog < 0) {
		return 1;
	}
	int rc = attach((int)ifindex, prog);
	close(prog);
	return rc == 0 ? 0 : 1;
}
