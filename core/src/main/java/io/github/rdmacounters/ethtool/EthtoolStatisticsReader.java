package io.github.rdmacounters.ethtool;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.core.RdmaOperationException;

/**
 * Reads driver statistics with {@code ioctl(fd, SIOCETHTOOL, &ifreq)} on an
 * {@code AF_INET}/{@code SOCK_DGRAM} socket, as {@code ethtool -S} does: the count of
 * {@code ETH_SS_STATS} ({@code ETHTOOL_GSSET_INFO}), the names ({@code ETHTOOL_GSTRINGS})
 * and the values ({@code ETHTOOL_GSTATS}). The kernel's {@code __dev_ethtool}
 * (net/ethtool/ioctl.c) lets anyone run these three commands; it finds the interface by
 * name in the network namespace of the socket, which is the one of the thread that
 * creates this reader.
 * <p>
 * The count is read on every read and the names once per netdev and again when the count
 * changes (channels added, PFC enabled on another priority). The values are checked
 * against the count they were read with: {@code ethtool_get_stats} writes back the count
 * it used, and since the fix of December 2025 ("ethtool: Avoid overflowing userspace
 * buffer on stats query") returns none when the caller's count is stale; a mismatch makes
 * this reader read the names again and retry once. Kernels before that fix write as many
 * values as the driver has at that instant, so the buffers have room for
 * {@value #HEADROOM} more entries than the count, against a count that grows between two
 * calls.
 * <p>
 * Thread-safe: reads are serialised (each is three system calls); the socket is closed by
 * {@link #close()}, once.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public final class EthtoolStatisticsReader implements StatisticsReader, AutoCloseable {

	/** Entries of room past the count, against kernels that write a newer count. */
	static final int HEADROOM = 4096;

	private final EthtoolLibC libc;

	private final Map<String, StatisticNames> names = new ConcurrentHashMap<>();

	private final Memory ifreq = new Memory(EthtoolLibC.SIZEOF_IFREQ);

	private final Memory ssetInfo = new Memory(EthtoolLibC.SSET_INFO_DATA + 4L * Long.SIZE);

	private Memory stats = new Memory(EthtoolLibC.STATS_DATA + 8L * HEADROOM);

	private int fd;

	private EthtoolStatisticsReader(EthtoolLibC libc, int fd) {
		this.libc = libc;
		this.fd = fd;
	}

	/**
	 * Open a reader: a socket in the calling thread's network namespace.
	 * @return the reader
	 * @throws RdmaOperationException if the socket cannot be created
	 * @throws UnsatisfiedLinkError if the C library cannot be loaded
	 */
	public static EthtoolStatisticsReader open() {
		EthtoolLibC libc = EthtoolLibC.Holder.get();
		int fd = libc.socket(EthtoolLibC.AF_INET, EthtoolLibC.SOCK_DGRAM | EthtoolLibC.SOCK_CLOEXEC, 0);
		if (fd < 0) {
			throw new RdmaOperationException("socket(AF_INET, SOCK_DGRAM)", Native.getLastError(),
					"the ethtool statistics need a socket to send SIOCETHTOOL on");
		}
		return new EthtoolStatisticsReader(libc, fd);
	}

	@Override
	public synchronized NetdevStatistics read(String netdev) {
		if (this.fd < 0) {
			throw new RdmaClosedException("ethtool statistics reader");
		}
		setName(netdev);
		for (int attempt = 0;; attempt++) {
			int count = count(netdev);
			StatisticNames known = this.names.get(netdev);
			if (known == null || known.size() != count) {
				known = strings(netdev, count);
			}
			if (known != null) {
				this.names.put(netdev, known);
				long[] values = values(netdev, count);
				if (values != null) {
					return new NetdevStatistics(netdev, known, values, true);
				}
			}
			// the count changed between two calls: read it and the names again
			this.names.remove(netdev);
			if (attempt > 0) {
				throw new RdmaOperationException(command("ETHTOOL_GSTATS", netdev), Errno.EAGAIN,
						"the driver's count of statistics changed during two reads in a row");
			}
		}
	}

	/**
	 * Forget the names read for a netdev, e.g. once it is gone: a netdev of that name
	 * that comes back has its names read again whatever its count.
	 * @param netdev the interface name
	 */
	public void forget(String netdev) {
		this.names.remove(netdev);
	}

	private void setName(String netdev) {
		byte[] name = netdev.getBytes(StandardCharsets.UTF_8);
		if (name.length == 0 || name.length >= EthtoolLibC.IFNAMSIZ || netdev.indexOf('/') >= 0
				|| netdev.indexOf('\0') >= 0) {
			throw new IllegalArgumentException("Not a network interface name: '" + netdev
					+ "' (1 to 15 bytes, no '/'); use a name that /sys/class/net lists");
		}
		this.ifreq.clear();
		this.ifreq.write(0, name, 0, name.length);
	}

	/**
	 * {@code ETHTOOL_GSSET_INFO} for {@code ETH_SS_STATS}: {@code ethtool_get_sset_info}
	 * clears the bit of a set the driver has no count for, so a missing bit is a netdev
	 * without driver statistics (count 0), not an error.
	 */
	private int count(String netdev) {
		this.ssetInfo.clear();
		this.ssetInfo.setInt(0, EthtoolLibC.ETHTOOL_GSSET_INFO);
		this.ssetInfo.setLong(EthtoolLibC.SSET_INFO_SSET_MASK, 1L << EthtoolLibC.ETH_SS_STATS);
		ioctl("ETHTOOL_GSSET_INFO", netdev, this.ssetInfo);
		long mask = this.ssetInfo.getLong(EthtoolLibC.SSET_INFO_SSET_MASK);
		if ((mask & (1L << EthtoolLibC.ETH_SS_STATS)) == 0) {
			return 0;
		}
		int count = this.ssetInfo.getInt(EthtoolLibC.SSET_INFO_DATA);
		if (count < 0) {
			throw new RdmaOperationException(command("ETHTOOL_GSSET_INFO", netdev), Errno.EINVAL,
					"the driver reported " + Integer.toUnsignedString(count) + " statistics");
		}
		return count;
	}

	/**
	 * {@code ETHTOOL_GSTRINGS}: {@code ethtool_get_strings} writes {@code len} names of
	 * {@code ETH_GSTRING_LEN} bytes, each NUL-padded (a name of 32 bytes has no NUL).
	 */
	private @Nullable StatisticNames strings(String netdev, int count) {
		if (count == 0) {
			return StatisticNames.of(List.of());
		}
		long capacity = (long) count + HEADROOM;
		try (Memory buffer = new Memory(EthtoolLibC.GSTRINGS_DATA + capacity * EthtoolLibC.ETH_GSTRING_LEN)) {
			buffer.clear();
			buffer.setInt(0, EthtoolLibC.ETHTOOL_GSTRINGS);
			buffer.setInt(EthtoolLibC.GSTRINGS_STRING_SET, EthtoolLibC.ETH_SS_STATS);
			buffer.setInt(EthtoolLibC.GSTRINGS_LEN, count);
			ioctl("ETHTOOL_GSTRINGS", netdev, buffer);
			int len = buffer.getInt(EthtoolLibC.GSTRINGS_LEN);
			if (len != count) {
				// the count changed since ETHTOOL_GSSET_INFO: the caller reads it again
				return null;
			}
			List<String> names = new ArrayList<>(count);
			byte[] bytes = buffer.getByteArray(EthtoolLibC.GSTRINGS_DATA, count * EthtoolLibC.ETH_GSTRING_LEN);
			for (int i = 0; i < count; i++) {
				int start = i * EthtoolLibC.ETH_GSTRING_LEN;
				int end = start;
				while (end < start + EthtoolLibC.ETH_GSTRING_LEN && bytes[end] != 0) {
					end++;
				}
				names.add(new String(bytes, start, end - start, StandardCharsets.UTF_8));
			}
			return StatisticNames.of(names);
		}
	}

	/**
	 * {@code ETHTOOL_GSTATS}: the values, or {@code null} if the kernel used another
	 * count than the one asked for.
	 */
	private long @Nullable [] values(String netdev, int count) {
		if (count == 0) {
			return new long[0];
		}
		long needed = EthtoolLibC.STATS_DATA + 8L * ((long) count + HEADROOM);
		if (this.stats.size() < needed) {
			this.stats.close();
			this.stats = new Memory(needed);
		}
		this.stats.setInt(0, EthtoolLibC.ETHTOOL_GSTATS);
		this.stats.setInt(EthtoolLibC.STATS_N_STATS, count);
		ioctl("ETHTOOL_GSTATS", netdev, this.stats);
		if (this.stats.getInt(EthtoolLibC.STATS_N_STATS) != count) {
			return null;
		}
		return this.stats.getLongArray(EthtoolLibC.STATS_DATA, count);
	}

	private void ioctl(String command, String netdev, Memory data) {
		this.ifreq.setPointer(EthtoolLibC.IFREQ_DATA, data);
		int result = this.libc.ioctl(this.fd, new NativeLong(EthtoolLibC.SIOCETHTOOL), this.ifreq);
		if (result < 0) {
			int errno = Native.getLastError();
			throw new RdmaOperationException(command(command, netdev), errno, explain(errno));
		}
	}

	private static String command(String command, String netdev) {
		return "ioctl(SIOCETHTOOL, " + command + ") on " + netdev;
	}

	private static @Nullable String explain(int errno) {
		return switch (errno) {
			// __dev_ethtool: __dev_get_by_name in the socket's namespace, or
			// !netif_device_present
			case Errno.ENODEV -> "no such network interface in this network namespace, or it is not present";
			case Errno.EOPNOTSUPP -> "the driver has no ethtool statistics";
			case Errno.EPERM -> "the kernel refused a command that needs no privilege elsewhere (a security module?)";
			default -> null;
		};
	}

	/**
	 * Close the socket. Reads after this fail with {@link RdmaClosedException}.
	 */
	@Override
	public synchronized void close() {
		if (this.fd >= 0) {
			this.libc.close(this.fd);
			this.fd = -1;
			this.names.clear();
			this.stats.close();
			this.ifreq.close();
			this.ssetInfo.close();
		}
	}

	@Override
	public String toString() {
		return "EthtoolStatisticsReader " + ((this.fd >= 0) ? "open" : "closed");
	}

}
