/**
 * Health indicator that reports whether the RDMA devices and their counter sets work.
 */
@NullMarked
package io.github.rdmacounters.actuate.health;

import org.jspecify.annotations.NullMarked;
