/**
 * JMH benchmarks of rdma-counters; not part of the test run.
 */
package io.github.rdmacounters.benchmarks;
