package io.github.rdmacounters.netlink;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What the optional counters and queue pairs of this library ask of RDMA netlink's device
 * interface: {@link RdmaNetlink} asks the kernel, the simulator answers from its own
 * model. Implementations are thread-safe.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public interface NldevClient extends AutoCloseable {

	/**
	 * List the devices ({@code RDMA_NLDEV_CMD_GET} dump).
	 * @return the devices of this network namespace, by index
	 */
	List<NldevDevice> devices();

	/**
	 * List the hardware counters of a port and which optional ones are enabled
	 * ({@code RDMA_NLDEV_CMD_STAT_GET_STATUS}).
	 * @param device the device
	 * @param port the port, from 1
	 * @return the counters, by index
	 */
	List<HwCounterStatus> counterStatus(NldevDevice device, int port);

	/**
	 * Read the hardware counters of a port ({@code RDMA_NLDEV_CMD_STAT_GET}); disabled
	 * optional counters are left out.
	 * @param device the device
	 * @param port the port, from 1
	 * @return the values by counter name; read them as unsigned
	 */
	Map<String, Long> portCounters(NldevDevice device, int port);

	/**
	 * Enable optional counters of a port and keep those already enabled.
	 * @param device the device
	 * @param port the port, from 1
	 * @param names the optional counters that must be enabled
	 * @return the counters this call enabled; empty if nothing was sent
	 * @throws IllegalArgumentException if a name is not an optional counter of the port
	 * @throws io.github.rdmacounters.core.RdmaOperationException if the kernel refuses,
	 * e.g. {@code EPERM} without {@code CAP_NET_ADMIN}
	 */
	List<String> enableOptionalCounters(NldevDevice device, int port, Collection<String> names);

	/**
	 * List the queue pairs of a device ({@code RDMA_NLDEV_CMD_RES_QP_GET} dump).
	 * @param device the device
	 * @param budget the most the dump may send
	 * @return the queue pairs the reader may see
	 */
	List<NldevQueuePair> queuePairs(NldevDevice device, NetlinkBudget budget);

	/**
	 * Release what the client holds; later requests fail.
	 */
	@Override
	void close();

}
