/**
 * Backend-neutral model of an RDMA device, its flows and counters, shared by the native
 * binding, the simulated device and the Spring integration.
 */
@NullMarked
package io.github.rdmacounters.core;

import org.jspecify.annotations.NullMarked;
