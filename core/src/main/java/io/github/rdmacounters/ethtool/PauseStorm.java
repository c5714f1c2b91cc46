package io.github.rdmacounters.ethtool;

import java.time.Instant;

/**
 * A pause storm on a netdev, as {@link PauseStormDetector} found it.
 *
 * @param reason what moved, e.g. {@code priority 3 paused 43% of 60 s
 * (rx_prio3_pause_duration)}
 * @param since the start of the first window it was seen in
 * @author rdma-counters
 * @since 0.1.0
 */
public record PauseStorm(String reason, Instant since) {

}
