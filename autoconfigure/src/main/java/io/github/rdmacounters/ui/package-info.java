/**
 * Live counters page: static HTML, CSS and JavaScript that poll the {@code rdma} Actuator
 * endpoint.
 */
@NullMarked
package io.github.rdmacounters.ui;

import org.jspecify.annotations.NullMarked;
