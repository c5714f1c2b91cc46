package io.github.rdmacounters.ethtool;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.DeviceIdentity;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.PortCountersSource;
import io.github.rdmacounters.core.RdmaException;
import io.github.rdmacounters.core.ReadCache;
import io.github.rdmacounters.core.ReadStall;
import io.github.rdmacounters.core.ReadStalledException;

/**
 * The driver statistics of the netdevs of one RDMA device, read through a
 * {@link ReadCache} like the port counters: a scrape within the time-to-live reuses the
 * last snapshot, and concurrent callers share one read. Only the netdevs of the RDMA
 * device are read (its PCI function's {@code device/net}, as the sysfs reader finds
 * them); another interface of the host never is. A netdev that fails is reported in
 * {@link NetdevStatisticsSnapshot#failures()} and does not hide the others. With a read
 * deadline, a read ({@code ioctl(SIOCETHTOOL)}, which reaches the firmware for mlx5's
 * PPCNT groups) runs in a reader thread; while it is past its deadline every netdev of
 * the last read is a failure naming the stalled command, without values. Thread-safe.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public final class NetdevStatisticsSource {

	private final String deviceName;

	private final Supplier<List<String>> netdevs;

	private final Function<String, @Nullable Integer> ports;

	private final StatisticsReader reader;

	private final Clock clock;

	private final ReadCache<NetdevStatisticsSnapshot> cache;

	/** Netdevs read before; guarded by the cache's single flight. */
	private final Set<String> seen = new HashSet<>();

	private volatile @Nullable NetdevStatisticsSnapshot lastRead;

	/**
	 * Create a source.
	 * @param deviceName the RDMA device, e.g. {@code mlx5_0}
	 * @param netdevs the device's netdevs, asked on every read
	 * @param reader reads one netdev
	 * @param readCacheTtl how long a snapshot is reused; {@link Duration#ZERO} reads
	 * every time
	 * @param clock the clock of the read cache and of the snapshots
	 */
	public NetdevStatisticsSource(String deviceName, Supplier<List<String>> netdevs, StatisticsReader reader,
			Duration readCacheTtl, Clock clock) {
		this(deviceName, netdevs, reader, readCacheTtl, clock, ReadCache.NO_DEADLINE);
	}

	/**
	 * Create a source whose callers wait at most a deadline for a read.
	 * @param deviceName the RDMA device, e.g. {@code mlx5_0}
	 * @param netdevs the device's netdevs, asked on every read
	 * @param reader reads one netdev
	 * @param readCacheTtl how long a snapshot is reused; {@link Duration#ZERO} reads
	 * every time
	 * @param clock the clock of the read cache and of the snapshots
	 * @param readDeadline how long a caller waits for a read;
	 * {@link ReadCache#NO_DEADLINE} reads on the caller's thread
	 */
	public NetdevStatisticsSource(String deviceName, Supplier<List<String>> netdevs, StatisticsReader reader,
			Duration readCacheTtl, Clock clock, Duration readDeadline) {
		this(deviceName, netdevs, (netdev) -> null, reader, readCacheTtl, clock, readDeadline);
	}

	private NetdevStatisticsSource(String deviceName, Supplier<List<String>> netdevs,
			Function<String, @Nullable Integer> ports, StatisticsReader reader, Duration readCacheTtl, Clock clock,
			Duration readDeadline) {
		this.deviceName = Objects.requireNonNull(deviceName, "deviceName");
		this.netdevs = Objects.requireNonNull(netdevs, "netdevs");
		this.ports = ports;
		this.reader = Objects.requireNonNull(reader, "reader");
		this.clock = Objects.requireNonNull(clock, "clock");
		this.cache = new ReadCache<>(readCacheTtl, clock, readDeadline);
	}

	/**
	 * Create a source for the netdevs a port counters source finds for its device
	 * ({@link DeviceIdentity#netdevs()}), each on the port the device names for it
	 * ({@link DeviceIdentity#netdevPorts()}); every netdev of a device with one port is
	 * that port's.
	 * @param device the device's port counters
	 * @param reader reads one netdev
	 * @param readCacheTtl how long a snapshot is reused
	 * @param clock the clock
	 * @return the source
	 */
	public static NetdevStatisticsSource of(PortCountersSource device, StatisticsReader reader, Duration readCacheTtl,
			Clock clock) {
		return of(device, reader, readCacheTtl, clock, ReadCache.NO_DEADLINE);
	}

	/**
	 * Create a source for the netdevs a port counters source finds for its device, whose
	 * callers wait at most a deadline for a read.
	 * @param device the device's port counters
	 * @param reader reads one netdev
	 * @param readCacheTtl how long a snapshot is reused
	 * @param clock the clock
	 * @param readDeadline how long a caller waits for a read;
	 * {@link ReadCache#NO_DEADLINE} reads on the caller's thread
	 * @return the source
	 */
	public static NetdevStatisticsSource of(PortCountersSource device, StatisticsReader reader, Duration readCacheTtl,
			Clock clock, Duration readDeadline) {
		return new NetdevStatisticsSource(device.deviceName(), () -> device.snapshot().identity().netdevs(),
				(netdev) -> portOf(device.snapshot(), netdev), reader, readCacheTtl, clock, readDeadline);
	}

	private static @Nullable Integer portOf(PortCountersSnapshot snapshot, String netdev) {
		Integer port = snapshot.identity().netdevPorts().get(netdev);
		if (port == null && snapshot.ports().size() == 1) {
			port = snapshot.ports().get(0).port();
		}
		return port;
	}

	/**
	 * Return the RDMA device name.
	 * @return the name
	 */
	public String deviceName() {
		return this.deviceName;
	}

	/**
	 * Return the statistics, read at most once per time-to-live.
	 * @return the snapshot
	 */
	public NetdevStatisticsSnapshot snapshot() {
		try {
			return this.cache.get(this::read);
		}
		catch (ReadStalledException ex) {
			return stalled(ex.stall());
		}
	}

	/**
	 * The netdevs of the last read, each failing with the stall, without values.
	 */
	private NetdevStatisticsSnapshot stalled(ReadStall stall) {
		NetdevStatisticsSnapshot last = this.lastRead;
		Map<String, String> failures = new TreeMap<>();
		Map<String, Integer> ports = new HashMap<>();
		if (last != null) {
			for (String netdev : last.netdevNames()) {
				failures.put(netdev, "stalled: " + stall.describe());
				Integer port = last.port(netdev);
				if (port != null) {
					ports.put(netdev, port);
				}
			}
		}
		return new NetdevStatisticsSnapshot(this.deviceName, Map.of(), failures, this.clock.instant(), ports);
	}

	/**
	 * Return the read cache's record of the reads of this source, for the self-metrics.
	 * @return the cache
	 */
	public ReadCache<NetdevStatisticsSnapshot> reads() {
		return this.cache;
	}

	private NetdevStatisticsSnapshot read() {
		var readAt = this.clock.instant();
		Map<String, NetdevStatistics> statistics = new LinkedHashMap<>();
		Map<String, String> failures = new TreeMap<>();
		List<String> names;
		try {
			names = this.netdevs.get();
		}
		catch (RuntimeException ex) {
			names = List.of();
		}
		for (String netdev : names) {
			try {
				statistics.put(netdev, this.reader.read(netdev));
			}
			catch (RdmaException | IllegalArgumentException ex) {
				failures.put(netdev, ex.getMessage());
			}
		}
		if (this.reader instanceof EthtoolStatisticsReader ethtool) {
			// a netdev that left the device: a namesake later has its names read again
			this.seen.stream().filter((n) -> !statistics.containsKey(n)).forEach(ethtool::forget);
		}
		this.seen.clear();
		this.seen.addAll(statistics.keySet());
		Map<String, Integer> ports = new HashMap<>();
		for (String netdev : names) {
			Integer port = portOrNull(netdev);
			if (port != null) {
				ports.put(netdev, port);
			}
		}
		NetdevStatisticsSnapshot snapshot = new NetdevStatisticsSnapshot(this.deviceName, statistics, failures, readAt,
				ports);
		this.lastRead = snapshot;
		return snapshot;
	}

	private @Nullable Integer portOrNull(String netdev) {
		try {
			return this.ports.apply(netdev);
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	@Override
	public String toString() {
		return "NetdevStatisticsSource " + this.deviceName;
	}

}
