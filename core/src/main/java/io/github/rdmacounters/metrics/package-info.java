/**
 * Micrometer meters for RDMA flow counters and port counters.
 */
@NullMarked
package io.github.rdmacounters.metrics;

import org.jspecify.annotations.NullMarked;
