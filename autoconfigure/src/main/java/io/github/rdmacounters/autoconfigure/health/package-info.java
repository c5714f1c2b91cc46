/**
 * Auto-configuration of the {@code rdma} health contributor.
 */
@NullMarked
package io.github.rdmacounters.autoconfigure.health;

import org.jspecify.annotations.NullMarked;
