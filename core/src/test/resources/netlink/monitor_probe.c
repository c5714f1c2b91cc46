/*
 * Prints the numbers of RDMA netlink's monitor that the installed <rdma/rdma_netlink.h> has, one
 * "name value" pair a line, for NldevMonitorAbiTests. The monitor's own numbers came with Linux
 * 6.12 (commit 9cbed5aab5ae) and its rename events with 6.13; the test defines FK_HAS_MONITOR
 * and FK_HAS_RENAME from the header's text (a header tree such as rdma-core's can be newer than
 * the kernel's <linux/version.h>). An older header (Debian 12's is 6.1) prints where its enums
 * end instead, which must come before them.
 */
#include <rdma/rdma_netlink.h>

#include <stdio.h>

#define CONST(c) printf("%s %ld\n", #c, (long)(c))

int main(void)
{
	CONST(RDMA_NLDEV_CMD_SYS_GET);
	CONST(RDMA_NLDEV_SYS_ATTR_NETNS_MODE);
	CONST(RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK);
	CONST(RDMA_NLDEV_ATTR_NDEV_INDEX);
	CONST(RDMA_NLDEV_ATTR_NDEV_NAME);
#ifdef FK_HAS_MONITOR
	CONST(RDMA_NL_GROUP_NOTIFY);
	CONST(RDMA_NLDEV_CMD_MONITOR);
	CONST(RDMA_NLDEV_ATTR_EVENT_TYPE);
	CONST(RDMA_NLDEV_SYS_ATTR_MONITOR_MODE);
	CONST(RDMA_REGISTER_EVENT);
	CONST(RDMA_UNREGISTER_EVENT);
	CONST(RDMA_NETDEV_ATTACH_EVENT);
	CONST(RDMA_NETDEV_DETACH_EVENT);
#ifdef FK_HAS_RENAME
	CONST(RDMA_RENAME_EVENT);
	CONST(RDMA_NETDEV_RENAME_EVENT);
#endif
#endif
	CONST(RDMA_NL_NUM_GROUPS);
	CONST(RDMA_NLDEV_NUM_OPS);
	CONST(RDMA_NLDEV_ATTR_MAX);
	return 0;
}
