/*
 * Prints every size, offset and constant of <linux/ethtool.h>, <linux/sockios.h> and
 * <net/if.h> that the ethtool statistics reader of rdma-counters relies on, one
 * "name value" pair a line. EthtoolAbiTests compiles it against the installed headers and
 * compares the output with the Java constants.
 */
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/socket.h>

#include <stddef.h>
#include <stdio.h>

#define SIZE(s) printf("sizeof(%s) %ld\n", #s, (long)sizeof(struct s))
#define OFF(s, f) printf("%s.%s %ld\n", #s, #f, (long)offsetof(struct s, f))
#define CONST(c) printf("%s %ld\n", #c, (long)(c))

int main(void)
{
	CONST(AF_INET);
	CONST(SOCK_DGRAM);
	CONST(SOCK_CLOEXEC);
	CONST(SIOCETHTOOL);
	CONST(IFNAMSIZ);
	SIZE(ifreq);
	OFF(ifreq, ifr_name);
	OFF(ifreq, ifr_data);
	CONST(ETHTOOL_GSSET_INFO);
	CONST(ETHTOOL_GSTRINGS);
	CONST(ETHTOOL_GSTATS);
	CONST(ETH_SS_STATS);
	CONST(ETH_GSTRING_LEN);
	OFF(ethtool_sset_info, cmd);
	OFF(ethtool_sset_info, sset_mask);
	OFF(ethtool_sset_info, data);
	printf("sizeof(ethtool_sset_info.data[0]) %ld\n", (long)sizeof(((struct ethtool_sset_info *)0)->data[0]));
	OFF(ethtool_gstrings, cmd);
	OFF(ethtool_gstrings, string_set);
	OFF(ethtool_gstrings, len);
	OFF(ethtool_gstrings, data);
	OFF(ethtool_stats, cmd);
	OFF(ethtool_stats, n_stats);
	OFF(ethtool_stats, data);
	printf("sizeof(ethtool_stats.data[0]) %ld\n", (long)sizeof(((struct ethtool_stats *)0)->data[0]));
	return 0;
}
