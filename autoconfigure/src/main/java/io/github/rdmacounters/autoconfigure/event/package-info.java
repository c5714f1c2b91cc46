/**
 * Auto-configuration of the devices' asynchronous events and RDMA netlink's device
 * monitor.
 */
@NullMarked
package io.github.rdmacounters.autoconfigure.event;

import org.jspecify.annotations.NullMarked;
