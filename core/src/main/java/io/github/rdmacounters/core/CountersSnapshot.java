package io.github.rdmacounters.core;

import java.time.Instant;
import java.util.Arrays;

/**
 * Values read from a counters handle at one time.
 *
 * @since 0.1.0
 * @author rdma-counters
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
	 * Return the value at an index.
	 * @param index the counter index
	 * @return the value
	 */
	public long get(int index) {
		return this.values[index];
	}

	/**
	 * Return the number of values.
	 * @return the size
	 */
	public int size() {
		return this.values.length;
	}

	/**
	 * Return a copy of the values.
	 * @return the values by index
	 */
	public long[] values() {
		return this.values.clone();
	}

	/**
	 * Return when the values were read.
	 * @return the read time
	 */
	public Instant readAt() {
		return this.readAt;
	}

	@Override
	public String toString() {
		return "CountersSnapshot" + Arrays.toString(this.values) + " at " + this.readAt;
	}

}
