/**
 * Auto-configuration of what the starter reads over RDMA netlink: the ports' optional
 * counters and this process's queue pairs.
 */
@NullMarked
package io.github.rdmacounters.autoconfigure.netlink;

import org.jspecify.annotations.NullMarked;
