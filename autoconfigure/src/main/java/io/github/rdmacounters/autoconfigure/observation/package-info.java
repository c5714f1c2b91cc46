/**
 * Auto-configuration of the counter deltas recorded on Micrometer observations.
 */
@NullMarked
package io.github.rdmacounters.autoconfigure.observation;

import org.jspecify.annotations.NullMarked;
