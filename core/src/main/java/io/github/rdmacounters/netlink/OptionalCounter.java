package io.github.rdmacounters.netlink;

import org.jspecify.annotations.Nullable;

/**
 * One optional counter of a port: whether it counts and, if it does, its value.
 *
 * @param name the kernel's name, e.g. {@code cc_rx_cnp_pkts}
 * @param enabled whether it is enabled
 * @param value its value, unsigned, or {@code null} while it is disabled (the kernel
 * leaves it out of {@code RDMA_NLDEV_CMD_STAT_GET})
 * @author rdma-counters
 * @since 0.1.0
 */
public record OptionalCounter(String name, boolean enabled, @Nullable Long value) {

}
