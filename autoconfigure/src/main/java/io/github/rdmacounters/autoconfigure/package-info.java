/**
 * Auto-configuration of RDMA devices, counter sets and their Actuator and Micrometer
 * views.
 */
@NullMarked
package io.github.rdmacounters.autoconfigure;

import org.jspecify.annotations.NullMarked;
