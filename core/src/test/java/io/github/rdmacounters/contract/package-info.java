/**
 * The contract every RDMA backend obeys, stated once and run against each backend.
 */
@NullMarked
package io.github.rdmacounters.contract;

import org.jspecify.annotations.NullMarked;
