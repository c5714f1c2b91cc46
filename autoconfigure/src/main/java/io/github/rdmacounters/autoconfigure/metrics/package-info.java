/**
 * Auto-configuration of the Micrometer meters of the counter sets and port counters.
 */
@NullMarked
package io.github.rdmacounters.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
