/**
 * Auto-configuration of synthetic traffic on the simulated backend's devices.
 */
@NullMarked
package io.github.rdmacounters.autoconfigure.simulated;

import org.jspecify.annotations.NullMarked;
