package io.github.rdmacounters.core;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One read of a {@link CounterSet}: the values, when they were read, and the failure if
 * the read failed (then the values are the last good ones).
 *
 * @since 0.1.0
 */
public final class CounterSetReading {

	private final String setName;

	private final Map<CounterType, Integer> indexes;

	private final long[] values;

	private final Instant readAt;

	private final @Nullable RuntimeException failure;

	private final long failedReads;

	private final boolean closed;

	private final @Nullable ReadStall stall;

	CounterSetReading(String setName, Map<CounterType, Integer> indexes, long[] values, Instant readAt,
			@Nullable RuntimeException failure, long failedReads, boolean closed) {
		this(setName, indexes, values, readAt, failure, failedReads, closed, null);
	}

	CounterSetReading(String setName, Map<CounterType, Integer> indexes, long[] values, Instant readAt,
			@Nullable RuntimeException failure, long failedReads, boolean closed, @Nullable ReadStall stall) {
		this.stall = stall;
		this.setName = setName;
		this.indexes = indexes;
		this.values = values;
		this.readAt = readAt;
		this.failure = failure;
		this.failedReads = failedReads;
		this.closed = closed;
	}

	CounterSetReading asClosed() {
		return new CounterSetReading(this.setName, this.indexes, this.values, this.readAt, this.failure,
				this.failedReads, true);
	}

	public String setName() {
		return this.setName;
	}

	/**
	 * Return the value of a counter type.
	 * @param type the counter type
	 * @return the value, or {@code -1} if the set does not count it
	 */
	public long value(CounterType type) {
		Integer index = this.indexes.get(type);
		return (index != null) ? this.values[index] : -1;
	}

	/**
	 * Return whether the set counts a counter type.
	 * @param type the counter type
	 * @return {@code true} if a point of that type is attached
	 */
	public boolean has(CounterType type) {
		return this.indexes.containsKey(type);
	}

	long[] rawValues() {
		return this.values;
	}

	public Instant readAt() {
		return this.readAt;
	}

	public boolean isSuccess() {
		return this.failure == null;
	}

	/** Return why the read failed. */
	public @Nullable RuntimeException failure() {
		return this.failure;
	}

	/**
	 * Return whether the counters were closed (the application is shutting down). A
	 * closed reading repeats the last one and is not a failed read.
	 * @return {@code true} if the counters are closed
	 */
	public boolean isClosed() {
		return this.closed;
	}

	public long failedReads() {
		return this.failedReads;
	}

	/**
	 * Return the read that has not returned within its deadline: its values are not
	 * known, and meters show NaN rather than the last values.
	 * @return the stall, or {@code null} for a reading that was read
	 */
	public @Nullable ReadStall stall() {
		return this.stall;
	}

}
