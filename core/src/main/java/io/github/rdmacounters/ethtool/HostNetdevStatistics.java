package io.github.rdmacounters.ethtool;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.ReadCache;

/**
 * The driver statistics of the netdevs of every RDMA device the host's port counters
 * serve (their device filter applies): one {@link NetdevStatisticsSource} per device,
 * made when the device is first asked for, so a device that appears later is read too. No
 * other interface of the host is read. Thread-safe.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public final class HostNetdevStatistics {

	private final HostPortCountersSource host;

	private final StatisticsReader reader;

	private final Duration readCacheTtl;

	private final Clock clock;

	private final Duration readDeadline;

	private final PauseStormDetector pauseStorms;

	private final Map<String, NetdevStatisticsSource> devices = new ConcurrentHashMap<>();

	/**
	 * Create the statistics of a host.
	 * @param host the host's port counters, which find each device's netdevs
	 * @param reader reads one netdev
	 * @param readCacheTtl how long a device's snapshot is reused
	 * @param clock the clock
	 * @param pauseStorms the pause storm detector of {@link #port(String, int)}
	 */
	public HostNetdevStatistics(HostPortCountersSource host, StatisticsReader reader, Duration readCacheTtl,
			Clock clock, PauseStormDetector pauseStorms) {
		this(host, reader, readCacheTtl, clock, pauseStorms, ReadCache.NO_DEADLINE);
	}

	/**
	 * Create the statistics of a host whose callers wait at most a deadline for a read of
	 * a device's netdevs ({@link NetdevStatisticsSource}).
	 * @param host the host's port counters, which find each device's netdevs
	 * @param reader reads one netdev
	 * @param readCacheTtl how long a device's snapshot is reused
	 * @param clock the clock
	 * @param pauseStorms the pause storm detector of {@link #port(String, int)}
	 * @param readDeadline how long a caller waits for a read;
	 * {@link ReadCache#NO_DEADLINE} reads on the caller's thread
	 */
	public HostNetdevStatistics(HostPortCountersSource host, StatisticsReader reader, Duration readCacheTtl,
			Clock clock, PauseStormDetector pauseStorms, Duration readDeadline) {
		this.readDeadline = Objects.requireNonNull(readDeadline, "readDeadline");
		this.host = Objects.requireNonNull(host, "host");
		this.reader = Objects.requireNonNull(reader, "reader");
		this.readCacheTtl = Objects.requireNonNull(readCacheTtl, "readCacheTtl");
		this.clock = Objects.requireNonNull(clock, "clock");
		this.pauseStorms = Objects.requireNonNull(pauseStorms, "pauseStorms");
	}

	/**
	 * Return the devices of the host's current port counters snapshot that have netdevs.
	 * @return the device names
	 */
	public List<String> deviceNames() {
		List<String> names = new ArrayList<>();
		for (PortCountersSnapshot device : this.host.snapshot().devices()) {
			if (!device.identity().netdevs().isEmpty()) {
				names.add(device.deviceName());
			}
		}
		return names;
	}

	/**
	 * Return the statistics source of a device.
	 * @param deviceName the RDMA device
	 * @return the source, the same for every call
	 */
	public NetdevStatisticsSource device(String deviceName) {
		return this.devices.computeIfAbsent(deviceName, (name) -> NetdevStatisticsSource.of(this.host.device(name),
				this.reader, this.readCacheTtl, this.clock, this.readDeadline));
	}

	/**
	 * Return the RoCE-relevant statistics of the netdevs of a port, read through the
	 * device's source, and whether each is in a pause storm.
	 * @param deviceName the RDMA device
	 * @param port the port number
	 * @return the statistics by netdev, empty if the port has no netdev
	 */
	public Map<String, NetdevPortStatistics> port(String deviceName, int port) {
		NetdevStatisticsSnapshot snapshot = device(deviceName).snapshot();
		Map<String, NetdevPortStatistics> netdevs = new TreeMap<>();
		for (String netdev : snapshot.netdevNames()) {
			if (!Integer.valueOf(port).equals(snapshot.port(netdev))) {
				continue;
			}
			NetdevStatistics statistics = snapshot.netdev(netdev);
			if (statistics != null) {
				netdevs.put(netdev, NetdevPortStatistics.of(statistics,
						this.pauseStorms.update(deviceName, statistics, snapshot.readAt())));
			}
			else {
				netdevs.put(netdev, new NetdevPortStatistics(netdev, Map.of(), snapshot.failures().get(netdev), null));
			}
		}
		return netdevs;
	}

	/**
	 * Return the read caches of the devices asked for so far, for the self-metrics.
	 * @return the caches
	 */
	public List<ReadCache<NetdevStatisticsSnapshot>> reads() {
		return this.devices.values().stream().map(NetdevStatisticsSource::reads).toList();
	}

	@Override
	public String toString() {
		return "HostNetdevStatistics " + this.devices.keySet();
	}

}
