package io.github.rdmacounters.netlink;

import org.jspecify.annotations.Nullable;

/**
 * An RDMA device as {@code RDMA_NLDEV_CMD_GET} describes it ({@code fill_dev_info} in
 * {@code drivers/infiniband/core/nldev.c}).
 *
 * @param index the kernel's device index, which requests name the device by
 * @param name the device name, e.g. {@code mlx5_0}
 * @param ports the number of ports ({@code rdma_end_port}); they are numbered from 1
 * @param nodeGuid the node GUID in host order, or 0 if not given
 * @param firmware the firmware version, or {@code null} for a device without one
 * @param protocol the protocol of its first port ({@code ib}, {@code roce}, {@code iw},
 * {@code opa}, {@code usnic}), or {@code null} on kernels that do not say
 * @author rdma-counters
 */
public record NldevDevice(long index, String name, int ports, long nodeGuid, @Nullable String firmware,
		@Nullable String protocol) {

}
