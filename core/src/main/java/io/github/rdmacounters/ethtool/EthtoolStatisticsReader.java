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
import io.github.rdmacounters.core.ReadCache;
import io.github.rdmacounters.libc.FileDescriptor;
import io.github.rdmacounters.libc.LibC;

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
 * Thread-safe: reads are serialised (each is three system calls). The socket has one
 * owner, a {@link FileDescriptor}: {@link #close()} never waits for a read in flight (an
 * {@code ioctl} that reaches firmware can take as long as its command timeout), and the
 * socket and the buffers are released when that read returns.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public final class EthtoolStatisticsReader implements StatisticsReader, AutoCloseable {

	/** Entries of room past the count, against kernels that write a newer count. */
	static final int HEADROOM = 4096;

	private final LibC libc;

	private final Map<String, StatisticNames> names = new ConcurrentHashMap<>();

	private final Memory ifreq = new Memory(Ethtool.SIZEOF_IFREQ);

	private final Memory ssetInfo = new Memory(Ethtool.SSET_INFO_DATA + 4L * Long.SIZE);

	private final FileDescriptor fd;

	// Guarded by this object while the descriptor is held
	private Memory stats = new Memory(Ethtool.STATS_DATA + 8L * HEADROOM);

	private EthtoolStatisticsReader(LibC libc, int fd) {
		this.libc = libc;
		this.fd = FileDescriptor.adopt(fd, "ethtool statistics reader", () -> {
		}, this::released);
	}

	/**
	 * Open a reader: a socket in the calling thread's network namespace.
	 * @return the reader
	 * @throws RdmaOperationException if the socket cannot be created
	 * @throws UnsatisfiedLinkError if the C library cannot be loaded
	 */
	public static EthtoolStatisticsReader open() {
		LibC libc = LibC.get();
		int fd = libc.socket(LibC.AF_INET, LibC.SOCK_DGRAM | LibC.SOCK_CLOEXEC, 0);
		if (fd < 0) {
			throw new RdmaOperationException("socket(AF_INET, SOCK_DGRAM)", Native.getLastError(),
					"the ethtool statistics need a socket to send SIOCETHTOOL on");
		}
		return new EthtoolStatisticsReader(libc, fd);
	}

	@Override
	public synchronized NetdevStatistics read(String netdev) {
		int socket = this.fd.acquire();
		try {
			return read(socket, netdev);
		}
		finally {
			this.fd.release();
		}
	}

	private NetdevStatistics read(int socket, String netdev) {
		setName(netdev);
		for (int attempt = 0;; attempt++) {
			int count = count(socket, netdev);
			StatisticNames known = this.names.get(netdev);
			if (known == null || known.size() != count) {
				known = strings(socket, netdev, count);
			}
			if (known != null) {
				this.names.put(netdev, known);
				long[] values = values(socket, netdev, count);
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
		if (name.length == 0 || name.length >= Ethtool.IFNAMSIZ || netdev.indexOf('/') >= 0
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
	private int count(int socket, String netdev) {
		this.ssetInfo.clear();
		this.ssetInfo.setInt(0, Ethtool.ETHTOOL_GSSET_INFO);
		this.ssetInfo.setLong(Ethtool.SSET_INFO_SSET_MASK, 1L << Ethtool.ETH_SS_STATS);
		ioctl(socket, "ETHTOOL_GSSET_INFO", netdev, this.ssetInfo);
		long mask = this.ssetInfo.getLong(Ethtool.SSET_INFO_SSET_MASK);
		if ((mask & (1L << Ethtool.ETH_SS_STATS)) == 0) {
			return 0;
		}
		int count = this.ssetInfo.getInt(Ethtool.SSET_INFO_DATA);
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
	private @Nullable StatisticNames strings(int socket, String netdev, int count) {
		if (count == 0) {
			return StatisticNames.of(List.of());
		}
		long capacity = (long) count + HEADROOM;
		try (Memory buffer = new Memory(Ethtool.GSTRINGS_DATA + capacity * Ethtool.ETH_GSTRING_LEN)) {
			buffer.clear();
			buffer.setInt(0, Ethtool.ETHTOOL_GSTRINGS);
			buffer.setInt(Ethtool.GSTRINGS_STRING_SET, Ethtool.ETH_SS_STATS);
			buffer.setInt(Ethtool.GSTRINGS_LEN, count);
			ioctl(socket, "ETHTOOL_GSTRINGS", netdev, buffer);
			int len = buffer.getInt(Ethtool.GSTRINGS_LEN);
			if (len != count) {
				// the count changed since ETHTOOL_GSSET_INFO: the caller reads it again
				return null;
			}
			List<String> names = new ArrayList<>(count);
			byte[] bytes = buffer.getByteArray(Ethtool.GSTRINGS_DATA, count * Ethtool.ETH_GSTRING_LEN);
			for (int i = 0; i < count; i++) {
				int start = i * Ethtool.ETH_GSTRING_LEN;
				int end = start;
				while (end < start + Ethtool.ETH_GSTRING_LEN && bytes[end] != 0) {
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
	private long @Nullable [] values(int socket, String netdev, int count) {
		if (count == 0) {
			return new long[0];
		}
		long needed = Ethtool.STATS_DATA + 8L * ((long) count + HEADROOM);
		if (this.stats.size() < needed) {
			this.stats.close();
			this.stats = new Memory(needed);
		}
		this.stats.setInt(0, Ethtool.ETHTOOL_GSTATS);
		this.stats.setInt(Ethtool.STATS_N_STATS, count);
		ioctl(socket, "ETHTOOL_GSTATS", netdev, this.stats);
		if (this.stats.getInt(Ethtool.STATS_N_STATS) != count) {
			return null;
		}
		return this.stats.getLongArray(Ethtool.STATS_DATA, count);
	}

	private void ioctl(int socket, String command, String netdev, Memory data) {
		this.ifreq.setPointer(Ethtool.IFREQ_DATA, data);
		// a stall names the command: ETHTOOL_GSTATS of mlx5 reaches the firmware (PPCNT)
		ReadCache.reading(command(command, netdev));
		int result = this.libc.ioctl(socket, new NativeLong(Ethtool.SIOCETHTOOL), this.ifreq);
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
	 * Close the socket, now or when the read in flight returns; never waits. Reads after
	 * this fail with {@link RdmaClosedException}.
	 */
	@Override
	public void close() {
		this.fd.close();
		this.names.clear();
	}

	// Once, after the socket was closed and no read runs any more
	private void released() {
		this.stats.close();
		this.ifreq.close();
		this.ssetInfo.close();
	}

	@Override
	public String toString() {
		return "EthtoolStatisticsReader " + (this.fd.isClosed() ? "closed" : "open");
	}

}
