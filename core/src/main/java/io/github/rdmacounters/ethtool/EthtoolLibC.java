package io.github.rdmacounters.ethtool;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;
import org.jspecify.annotations.Nullable;

/**
 * The C library calls and the {@code <linux/ethtool.h>}, {@code <linux/sockios.h>} and
 * {@code <net/if.h>} layouts the statistics reader uses, with their C names. Functions
 * return -1 and set {@code errno} on failure. The test build compiles a probe against the
 * installed headers and compares every constant here with it.
 *
 * @author rdma-counters
 */
interface EthtoolLibC extends Library {

	/** {@code AF_INET}. */
	int AF_INET = 2;

	/** {@code SOCK_DGRAM}. */
	int SOCK_DGRAM = 2;

	/** {@code SOCK_CLOEXEC}. */
	int SOCK_CLOEXEC = 0x80000;

	/** {@code SIOCETHTOOL}. */
	long SIOCETHTOOL = 0x8946;

	/** {@code IFNAMSIZ}: the size of {@code ifr_name}, with its terminating NUL. */
	int IFNAMSIZ = 16;

	/** {@code sizeof(struct ifreq)}. */
	int SIZEOF_IFREQ = 40;

	/** {@code offsetof(struct ifreq, ifr_data)}. */
	int IFREQ_DATA = 16;

	/** {@code ETHTOOL_GSSET_INFO}: the sizes of string sets. */
	int ETHTOOL_GSSET_INFO = 0x37;

	/** {@code ETHTOOL_GSTRINGS}: the strings of a string set. */
	int ETHTOOL_GSTRINGS = 0x1b;

	/** {@code ETHTOOL_GSTATS}: the values of the driver statistics. */
	int ETHTOOL_GSTATS = 0x1d;

	/** {@code ETH_SS_STATS}: the string set of the driver statistics. */
	int ETH_SS_STATS = 1;

	/** {@code ETH_GSTRING_LEN}: the size of one string, NUL-padded. */
	int ETH_GSTRING_LEN = 32;

	/** {@code offsetof(struct ethtool_sset_info, sset_mask)}. */
	int SSET_INFO_SSET_MASK = 8;

	/** {@code offsetof(struct ethtool_sset_info, data)}. */
	int SSET_INFO_DATA = 16;

	/** {@code offsetof(struct ethtool_gstrings, string_set)}. */
	int GSTRINGS_STRING_SET = 4;

	/** {@code offsetof(struct ethtool_gstrings, len)}. */
	int GSTRINGS_LEN = 8;

	/** {@code offsetof(struct ethtool_gstrings, data)}. */
	int GSTRINGS_DATA = 12;

	/** {@code offsetof(struct ethtool_stats, n_stats)}. */
	int STATS_N_STATS = 4;

	/** {@code offsetof(struct ethtool_stats, data)}. */
	int STATS_DATA = 8;

	/**
	 * {@code int socket(int domain, int type, int protocol)}.
	 * @param domain the address family
	 * @param type the socket type and flags
	 * @param protocol the protocol, 0 for the default
	 * @return the file descriptor, or -1 with errno set
	 */
	int socket(int domain, int type, int protocol);

	/**
	 * {@code int ioctl(int fd, unsigned long request, void *argp)}.
	 * @param fd the file descriptor
	 * @param request the request
	 * @param argp the argument
	 * @return 0 or a positive value, or -1 with errno set
	 */
	int ioctl(int fd, NativeLong request, Pointer argp);

	/**
	 * {@code int close(int fd)}.
	 * @param fd the file descriptor
	 * @return 0, or -1 with errno set
	 */
	int close(int fd);

	/**
	 * The C library, loaded on first use.
	 */
	final class Holder {

		private static volatile @Nullable EthtoolLibC instance;

		private Holder() {
		}

		static EthtoolLibC get() {
			EthtoolLibC current = instance;
			if (current == null) {
				current = Native.load("c", EthtoolLibC.class);
				instance = current;
			}
			return current;
		}

	}

}
