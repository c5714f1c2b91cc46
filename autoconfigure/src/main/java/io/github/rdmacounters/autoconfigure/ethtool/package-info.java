/**
 * Auto-configuration of the driver statistics (ethtool -S) of the RDMA devices' netdevs.
 */
@NullMarked
package io.github.rdmacounters.autoconfigure.ethtool;

import org.jspecify.annotations.NullMarked;
