/**
 * Auto-configuration of the host diagnosis: its endpoint and the startup line of devices
 * whose sets cannot count.
 */
@NullMarked
package io.github.rdmacounters.autoconfigure.diagnosis;

import org.jspecify.annotations.NullMarked;
