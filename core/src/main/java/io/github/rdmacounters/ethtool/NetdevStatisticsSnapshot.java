package io.github.rdmacounters.ethtool;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

/**
 * The driver statistics of the netdevs of one RDMA device, read together.
 *
 * @param deviceName the RDMA device, e.g. {@code mlx5_0}
 * @param netdevs the statistics of each netdev that could be read, by interface name
 * @param failures why each netdev that could not be read failed, by interface name, e.g.
 * {@code ioctl(SIOCETHTOOL, ETHTOOL_GSSET_INFO) on eth0 failed: ENODEV (19) ...}
 * @param readAt when the read started
 * @param ports the RDMA port of each netdev read, where known (see
 * {@link NetdevStatisticsSource#of})
 * @author rdma-counters
 * @since 0.1.0
 */
public record NetdevStatisticsSnapshot(String deviceName, Map<String, NetdevStatistics> netdevs,
		Map<String, String> failures, Instant readAt, Map<String, Integer> ports) {

	/**
	 * Create a snapshot without ports.
	 * @param deviceName the RDMA device
	 * @param netdevs the statistics by interface name
	 * @param failures the failures by interface name
	 * @param readAt when the read started
	 */
	public NetdevStatisticsSnapshot(String deviceName, Map<String, NetdevStatistics> netdevs,
			Map<String, String> failures, Instant readAt) {
		this(deviceName, netdevs, failures, readAt, Map.of());
	}

	/**
	 * Create a snapshot.
	 * @param deviceName the RDMA device
	 * @param netdevs the statistics by interface name
	 * @param failures the failures by interface name
	 * @param readAt when the read started
	 * @param ports the RDMA port of each netdev, where known
	 */
	public NetdevStatisticsSnapshot {
		netdevs = Map.copyOf(netdevs);
		failures = Map.copyOf(failures);
		ports = Map.copyOf(ports);
	}

	/**
	 * Return the RDMA port of a netdev.
	 * @param netdev the interface name
	 * @return the port number, or {@code null} if it is not known
	 */
	public @Nullable Integer port(String netdev) {
		return this.ports.get(netdev);
	}

	/**
	 * Return the statistics of one netdev.
	 * @param netdev the interface name
	 * @return the statistics, or {@code null} if the device has no such netdev or it
	 * could not be read
	 */
	public @Nullable NetdevStatistics netdev(String netdev) {
		return this.netdevs.get(netdev);
	}

	/**
	 * Return the names of the netdevs read or tried, sorted.
	 * @return the interface names
	 */
	public List<String> netdevNames() {
		Set<String> names = new TreeSet<>(this.netdevs.keySet());
		names.addAll(this.failures.keySet());
		return List.copyOf(names);
	}

}
