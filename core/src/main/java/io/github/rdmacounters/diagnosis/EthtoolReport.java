package io.github.rdmacounters.diagnosis;

import org.jspecify.annotations.Nullable;

/**
 * Whether the ethtool statistics of a network interface can be read
 * ({@code ETHTOOL_GSTATS}).
 *
 * @param netdev the interface
 * @param reachable whether they were read
 * @param statistics how many statistics the driver has
 * @param error why they could not be read, or {@code null}
 * @since 0.1.0
 */
public record EthtoolReport(String netdev, boolean reachable, int statistics, @Nullable String error) {

}
