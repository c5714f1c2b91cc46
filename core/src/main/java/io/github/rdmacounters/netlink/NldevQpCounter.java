package io.github.rdmacounters.netlink;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A counter queue pairs are bound to, as the {@code RDMA_NLDEV_CMD_STAT_GET} dump of
 * queue pair counters lists it ({@code fill_res_counter_entry} in
 * {@code drivers/infiniband/core/nldev.c}): the hardware counters of the queue pairs
 * bound to it since each was bound.
 *
 * @param port its port
 * @param id its id ({@code RDMA_NLDEV_ATTR_STAT_COUNTER_ID}), unique on its device
 * @param mode {@link RdmaNldev#COUNTER_MODE_AUTO} or
 * {@link RdmaNldev#COUNTER_MODE_MANUAL}
 * @param pid in auto mode with the pid mask, the process whose queue pairs it counts;
 * otherwise {@code null}
 * @param lqpns the queue pairs bound to it now
 * @param values the values of its hardware counters by name, in the kernel's order; read
 * them as unsigned
 * @author rdma-counters
 * @since 0.1.0
 */
public record NldevQpCounter(int port, long id, int mode, @Nullable Long pid, List<Long> lqpns,
		Map<String, Long> values) {

	/**
	 * Create a counter.
	 * @param port its port
	 * @param id its id
	 * @param mode its mode
	 * @param pid its process, or {@code null}
	 * @param lqpns its queue pairs
	 * @param values its values
	 */
	public NldevQpCounter {
		lqpns = List.copyOf(lqpns);
		values = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(values));
	}

}
