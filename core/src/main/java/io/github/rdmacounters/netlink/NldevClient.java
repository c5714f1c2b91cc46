package io.github.rdmacounters.netlink;

import java.util.Collection;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

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
	 * Return how a port binds queue pairs to counters ({@code RDMA_NLDEV_CMD_STAT_GET} of
	 * the queue pair resource).
	 * @param device the device
	 * @param port the port, from 1
	 * @return the port's mode
	 */
	NldevCounterMode queuePairCounterMode(NldevDevice device, int port);

	/**
	 * Switch a port to auto mode ({@code RDMA_NLDEV_CMD_STAT_SET} with
	 * {@code RDMA_COUNTER_MODE_AUTO}): the kernel binds every queue pair that reaches the
	 * port from then on, of every process, to a counter by the mask. Needs
	 * {@code CAP_NET_ADMIN}.
	 * @param device the device
	 * @param port the port, from 1
	 * @param mask {@link RdmaNldev#COUNTER_MASK_QP_TYPE} and/or
	 * {@link RdmaNldev#COUNTER_MASK_PID}
	 * @throws io.github.rdmacounters.core.RdmaOperationException if the kernel refuses:
	 * {@code EPERM}, or {@code EBUSY} while queue pairs are bound manually
	 */
	void setQueuePairAutoMode(NldevDevice device, int port, int mask);

	/**
	 * Bind a queue pair to a counter ({@code RDMA_NLDEV_CMD_STAT_SET} in manual mode with
	 * {@code RDMA_NLDEV_ATTR_RES_LQPN}). Needs {@code CAP_NET_ADMIN}.
	 * @param device the device
	 * @param port the queue pair's port
	 * @param lqpn the queue pair
	 * @param counterId the counter to bind it to, or {@code null} for a new one
	 * @return the counter's id
	 * @throws io.github.rdmacounters.core.RdmaOperationException if the kernel refuses:
	 * {@code EPERM}; {@code ENOENT} if the queue pair or counter is gone; {@code EINVAL}
	 * if the queue pair is bound already or the port is in auto mode
	 */
	long bindQueuePair(NldevDevice device, int port, long lqpn, @Nullable Long counterId);

	/**
	 * Unbind a queue pair from a counter ({@code RDMA_NLDEV_CMD_STAT_DEL}); the kernel
	 * frees the counter with its last queue pair. Needs {@code CAP_NET_ADMIN}.
	 * @param device the device
	 * @param port the queue pair's port
	 * @param lqpn the queue pair
	 * @param counterId the counter it is bound to
	 * @throws io.github.rdmacounters.core.RdmaOperationException if the kernel refuses:
	 * {@code ENOENT} if the queue pair is gone, {@code EINVAL} if it is not bound to that
	 * counter
	 */
	void unbindQueuePair(NldevDevice device, int port, long lqpn, long counterId);

	/**
	 * List the queue pair counters of a device and their values (the
	 * {@code RDMA_NLDEV_CMD_STAT_GET} dump of the queue pair resource).
	 * @param device the device
	 * @param budget the most the dump may send
	 * @return the counters the reader may see
	 */
	List<NldevQpCounter> queuePairCounters(NldevDevice device, NetlinkBudget budget);

	/**
	 * Release what the client holds; later requests fail.
	 */
	@Override
	void close();

}
