/*
 * Prints every netlink number the netlink client of rdma-counters relies on, one "name value"
 * pair a line, from the installed <linux/netlink.h>, <linux/rtnetlink.h> and
 * <rdma/rdma_netlink.h> (Debian's linux-libc-dev). NetlinkAbiTests compares the output with
 * the Java constants.
 */
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <rdma/rdma_netlink.h>

#include <stddef.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/time.h>

#define CONST(c) printf("%s %ld\n", #c, (long)(c))
#define SIZE(s) printf("sizeof(%s) %ld\n", #s, (long)sizeof(struct s))
#define OFF(s, f) printf("%s.%s %ld\n", #s, #f, (long)offsetof(struct s, f))

int main(void)
{
	CONST(AF_NETLINK);
	CONST(SOCK_RAW);
	CONST(SOCK_CLOEXEC);
	CONST(SOL_SOCKET);
	CONST(SO_RCVTIMEO);
	CONST(MSG_PEEK);
	CONST(MSG_TRUNC);
	SIZE(timeval);
	CONST(NETLINK_ROUTE);
	CONST(NETLINK_RDMA);
	SIZE(sockaddr_nl);
	OFF(sockaddr_nl, nl_pid);
	SIZE(nlmsghdr);
	OFF(nlmsghdr, nlmsg_len);
	OFF(nlmsghdr, nlmsg_type);
	OFF(nlmsghdr, nlmsg_flags);
	OFF(nlmsghdr, nlmsg_seq);
	OFF(nlmsghdr, nlmsg_pid);
	SIZE(nlmsgerr);
	SIZE(nlattr);
	CONST(NLMSG_ALIGNTO);
	CONST(NLMSG_HDRLEN);
	CONST(NLA_ALIGNTO);
	CONST(NLA_HDRLEN);
	CONST(NLA_F_NESTED);
	CONST(NLA_TYPE_MASK);
	CONST(NLM_F_REQUEST);
	CONST(NLM_F_MULTI);
	CONST(NLM_F_ACK);
	CONST(NLM_F_DUMP_INTR);
	CONST(NLM_F_DUMP);
	CONST(NLMSG_NOOP);
	CONST(NLMSG_ERROR);
	CONST(NLMSG_DONE);
	CONST(NLMSG_OVERRUN);
	CONST(NLMSG_MIN_TYPE);
	/* NLMSG_ALIGN of a few lengths, to compare with Netlink.nlmsgAlign */
	CONST(NLMSG_ALIGN(0));
	CONST(NLMSG_ALIGN(1));
	CONST(NLMSG_ALIGN(5));
	CONST(NLMSG_ALIGN(16));
	CONST(NLMSG_ALIGN(17));
	CONST(NLA_ALIGN(3));
	CONST(NLA_ALIGN(8));
	CONST(NLA_ALIGN(9));

	CONST(RTM_NEWLINK);
	CONST(RTM_GETLINK);
	SIZE(ifinfomsg);
	OFF(ifinfomsg, ifi_index);
	CONST(IFLA_ADDRESS);
	CONST(IFLA_IFNAME);
	CONST(IFLA_MTU);
	CONST(IFLA_OPERSTATE);

	CONST(RDMA_NL_NLDEV);
	CONST(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET));
	CONST(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_GET));
	CONST(RDMA_NLDEV_CMD_GET);
	CONST(RDMA_NLDEV_CMD_RES_QP_GET);
	CONST(RDMA_NLDEV_CMD_STAT_SET);
	CONST(RDMA_NLDEV_CMD_STAT_GET);
	CONST(RDMA_NLDEV_CMD_STAT_GET_STATUS);
	CONST(RDMA_NLDEV_ATTR_PAD);
	CONST(RDMA_NLDEV_ATTR_DEV_INDEX);
	CONST(RDMA_NLDEV_ATTR_DEV_NAME);
	CONST(RDMA_NLDEV_ATTR_PORT_INDEX);
	CONST(RDMA_NLDEV_ATTR_FW_VERSION);
	CONST(RDMA_NLDEV_ATTR_NODE_GUID);
	CONST(RDMA_NLDEV_ATTR_RES_QP);
	CONST(RDMA_NLDEV_ATTR_RES_QP_ENTRY);
	CONST(RDMA_NLDEV_ATTR_RES_LQPN);
	CONST(RDMA_NLDEV_ATTR_RES_TYPE);
	CONST(RDMA_NLDEV_ATTR_RES_STATE);
	CONST(RDMA_NLDEV_ATTR_RES_PID);
	CONST(RDMA_NLDEV_ATTR_RES_KERN_NAME);
	CONST(RDMA_NLDEV_ATTR_DEV_PROTOCOL);
	CONST(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	CONST(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
	CONST(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME);
	CONST(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE);
	CONST(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX);
	CONST(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC);
	return 0;
}
