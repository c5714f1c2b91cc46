package io.github.rdmacounters.ethtool;

/**
 * Reads the driver statistics of a netdev: {@link EthtoolStatisticsReader} from the
 * kernel, the simulator from its devices' traffic.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
@FunctionalInterface
public interface StatisticsReader {

	/**
	 * Read the statistics of a netdev.
	 * @param netdev the interface name
	 * @return the names and values
	 * @throws io.github.rdmacounters.core.RdmaOperationException if the read fails (e.g.
	 * {@code ENODEV}: no such interface in the reader's network namespace)
	 */
	NetdevStatistics read(String netdev);

}
