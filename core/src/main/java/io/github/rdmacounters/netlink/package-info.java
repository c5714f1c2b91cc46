/**
 * A small netlink client: framing, attributes, request/ack and dumps with a budget
 * ({@link io.github.rdmacounters.netlink.NetlinkSocket}), and RDMA netlink's device
 * interface on top of it ({@link io.github.rdmacounters.netlink.RdmaNetlink}).
 * <p>
 * A netlink socket sees the RDMA devices of the network namespace it was opened in: in
 * Kubernetes with the RDMA subsystem in exclusive network namespace mode
 * ({@code rdma system
 * set netns exclusive}), a pod sees only the devices moved into its namespace; in the
 * default shared mode every namespace sees every device.
 */
@NullMarked
package io.github.rdmacounters.netlink;

import org.jspecify.annotations.NullMarked;
