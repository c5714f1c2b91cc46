/**
 * Auto-configuration of the simulated backend: its devices and their synthetic traffic.
 */
@NullMarked
package io.github.rdmacounters.autoconfigure.simulated;

import org.jspecify.annotations.NullMarked;
