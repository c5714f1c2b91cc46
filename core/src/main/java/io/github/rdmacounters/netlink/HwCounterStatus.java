package io.github.rdmacounters.netlink;

/**
 * One hardware counter of a port as {@code RDMA_NLDEV_CMD_STAT_GET_STATUS} lists it
 * ({@code nldev_stat_get_counter_status_doit} in
 * {@code drivers/infiniband/core/nldev.c}).
 *
 * @param name the counter's name, e.g. {@code cc_rx_ce_pkts}
 * @param index its index, which {@code RDMA_NLDEV_CMD_STAT_SET} names it by
 * @param optional whether it is an optional counter ({@code IB_STAT_FLAG_OPTIONAL}),
 * which must be enabled before it counts
 * @param enabled whether it counts: always for a counter that is not optional
 * @author rdma-counters
 */
public record HwCounterStatus(String name, long index, boolean optional, boolean enabled) {

}
