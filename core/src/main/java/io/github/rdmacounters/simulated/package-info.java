/**
 * A pure-Java simulated RDMA device with mlx5 flow counter semantics, simulated ports and
 * a traffic and fault-injection API for tests and demos.
 */
@NullMarked
package io.github.rdmacounters.simulated;

import org.jspecify.annotations.NullMarked;
