/**
 * JMH benchmarks of rdma-counters; not part of the test run.
 */
@NullMarked
package io.github.rdmacounters.benchmarks;

import org.jspecify.annotations.NullMarked;
