/**
 * Actuator endpoint that shows the RDMA devices, their ports and counter sets.
 */
@NullMarked
package io.github.rdmacounters.actuate.endpoint;

import org.jspecify.annotations.NullMarked;
