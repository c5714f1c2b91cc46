/**
 * What an operation cost the NIC: counter deltas on Micrometer observations.
 */
@NullMarked
package io.github.rdmacounters.observation;

import org.jspecify.annotations.NullMarked;
