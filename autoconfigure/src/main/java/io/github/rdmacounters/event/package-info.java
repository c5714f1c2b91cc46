/**
 * Spring application events of RDMA devices, published from the devices' asynchronous
 * events, and the readiness integration.
 */
@NullMarked
package io.github.rdmacounters.event;

import org.jspecify.annotations.NullMarked;
