package io.github.rdmacounters.core;

import java.time.Instant;
import java.util.Arrays;

/**
 * Values read from a counters handle at one time.
 *
 * @since 0.1.0
 */
public final class CountersSnapshot {

	private final long[] values;

	private final Instant readAt;

	/**
	 * Create a snapshot.
	 * @param values the values by index (copied)
	 * @param readAt when they were read
	 */
	public CountersSnapshot(long[] values, Instant readAt) {
		this.values = values.clone();
		this.readAt = readAt;
	}

	/**
	 * Return the value at a counter index.
	 * @param index the counter index
	 * @return the value
	 */
	public long get(int index) {
		return this.values[index];
	}

	public int size() {
		return this.values.length;
	}

	public long[] values() {
		return this.values.clone();
	}

	public Instant readAt() {
		return this.readAt;
	}

	@Override
	public String toString() {
		return "CountersSnapshot" + Arrays.toString(this.values) + " at " + this.readAt;
	}

}
