package io.github.rdmacounters.core;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One read of a {@link CounterSet}: the values, when they were read, and the failure if
 * the read failed (then the values are the last good ones).
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public final class CounterSetReading {

	private final String setName;

	private final Map<CounterType, Integer> indexes;

	private final long[] values;

	private final Instant readAt;

	private final @Nullable RuntimeException failure;

	private final long failedReads;

	private final boolean closed;

	CounterSetReading(String setName, Map<CounterType, Integer> indexes, long[] values, Instant readAt,
			@Nullable RuntimeException failure, long failedReads, boolean closed) {
		this.setName = setName;
		this.indexes = indexes;
		this.values = values;
		this.readAt = readAt;
		this.failure = failure;
		this.failedReads = failedReads;
		this.closed = closed;
	}

	/**
	 * Return this reading marked closed: same values, time and outcome.
	 * @return the closed reading
	 */
	CounterSetReading asClosed() {
		return new CounterSetReading(this.setName, this.indexes, this.values, this.readAt, this.failure,
				this.failedReads, true);
	}

	/**
	 * Return the name of the set.
	 * @return the set name
	 */
	public String setName() {
		return this.setName;
	}

	/**
	 * Return the value of a counter type, or {@code -1} if the set does not count it.
	 * @param type the counter type
	 * @return the value
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

	/**
	 * Return when this reading was taken.
	 * @return the time
	 */
	public Instant readAt() {
		return this.readAt;
	}

	/**
	 * Return whether the read succeeded.
	 * @return {@code true} if the values are fresh
	 */
	public boolean isSuccess() {
		return this.failure == null;
	}

	/**
	 * Return why the read failed.
	 * @return the failure, or {@code null} if it succeeded
	 */
	public @Nullable RuntimeException failure() {
		return this.failure;
	}

	/**
	 * Return whether the set's counters were closed when this reading was asked for,
	 * usually because the application is shutting down. A closed reading repeats the last
	 * reading (or, before any, zeroes with the {@link RdmaClosedException} as failure)
	 * and is not counted as a failed read.
	 * @return {@code true} if the counters are closed
	 */
	public boolean isClosed() {
		return this.closed;
	}

	/**
	 * Return the number of failed reads of the set up to this reading.
	 * @return the failed reads
	 */
	public long failedReads() {
		return this.failedReads;
	}

}
