package io.github.rdmacounters.ethtool;

/**
 * The {@code <linux/ethtool.h>}, {@code <linux/sockios.h>} and {@code <net/if.h>} layouts
 * the statistics reader uses, with their C names; the calls are
 * {@link io.github.rdmacounters.libc.LibC}'s. The test build compiles a probe against the
 * installed headers and compares every constant here with it.
 *
 * @author rdma-counters
 */
final class Ethtool {

	/** {@code SIOCETHTOOL}. */
	static final long SIOCETHTOOL = 0x8946;

	/** {@code IFNAMSIZ}: the size of {@code ifr_name}, with its terminating NUL. */
	static final int IFNAMSIZ = 16;

	/** {@code sizeof(struct ifreq)}. */
	static final int SIZEOF_IFREQ = 40;

	/** {@code offsetof(struct ifreq, ifr_data)}. */
	static final int IFREQ_DATA = 16;

	/** {@code ETHTOOL_GSSET_INFO}: the sizes of string sets. */
	static final int ETHTOOL_GSSET_INFO = 0x37;

	/** {@code ETHTOOL_GSTRINGS}: the strings of a string set. */
	static final int ETHTOOL_GSTRINGS = 0x1b;

	/** {@code ETHTOOL_GSTATS}: the values of the driver statistics. */
	static final int ETHTOOL_GSTATS = 0x1d;

	/** {@code ETH_SS_STATS}: the string set of the driver statistics. */
	static final int ETH_SS_STATS = 1;

	/** {@code ETH_GSTRING_LEN}: the size of one string, NUL-padded. */
	static final int ETH_GSTRING_LEN = 32;

	/** {@code offsetof(struct ethtool_sset_info, sset_mask)}. */
	static final int SSET_INFO_SSET_MASK = 8;

	/** {@code offsetof(struct ethtool_sset_info, data)}. */
	static final int SSET_INFO_DATA = 16;

	/** {@code offsetof(struct ethtool_gstrings, string_set)}. */
	static final int GSTRINGS_STRING_SET = 4;

	/** {@code offsetof(struct ethtool_gstrings, len)}. */
	static final int GSTRINGS_LEN = 8;

	/** {@code offsetof(struct ethtool_gstrings, data)}. */
	static final int GSTRINGS_DATA = 12;

	/** {@code offsetof(struct ethtool_stats, n_stats)}. */
	static final int STATS_N_STATS = 4;

	/** {@code offsetof(struct ethtool_stats, data)}. */
	static final int STATS_DATA = 8;

	private Ethtool() {
	}

}
