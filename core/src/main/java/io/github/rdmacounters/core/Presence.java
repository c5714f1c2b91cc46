package io.github.rdmacounters.core;

/**
 * Whether a device or port was found when it was last read. A device or port that was
 * seen once and then vanished (hot unplug, driver unload, a port directory removed) stays
 * in the snapshots as {@link #GONE}, with no counters, until it reappears, so that its
 * series are reported as gone instead of frozen at their last values.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public enum Presence {

	/** Found and read in this snapshot. */
	PRESENT,

	/** Not found in this snapshot: vanished after an earlier one, or never found. */
	GONE

}
