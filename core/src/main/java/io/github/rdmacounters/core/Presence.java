package io.github.rdmacounters.core;

/**
 * Whether a device or port was found when last read. One that vanished stays in the
 * snapshots as {@link #GONE}, without counters, so its series are reported gone rather
 * than frozen.
 *
 * @since 0.1.0
 */
public enum Presence {

	PRESENT,

	/** Vanished after an earlier snapshot, or never found. */
	GONE

}
