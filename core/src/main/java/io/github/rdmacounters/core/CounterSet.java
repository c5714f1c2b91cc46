package io.github.rdmacounters.core;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * A named set of counters that one flow feeds, as configured by the user, with a memoised
 * reader: however many meters, endpoint calls and health checks ask within
 * {@code readCacheTtl}, the device is read once. Concurrent callers wait for the one read
 * in flight and share its result.
 * <p>
 * The set owns its {@link Counters} and its {@link Flow}; {@link #close()} destroys the
 * flow, then the counters. A read that finds the counters closed (the context is shutting
 * down) is not a failed read: it returns the last reading, marked
 * {@linkplain CounterSetReading#isClosed() closed}, and leaves {@link #failedReads()}
 * alone.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public final class CounterSet implements AutoCloseable {

	private final String name;

	private final String deviceName;

	private final int port;

	private final FlowSpec spec;

	private final Map<CounterType, Integer> indexes;

	private final ReadMode readMode;

	private final Counters counters;

	private final Clock clock;

	private final ReadCache<CounterSetReading> cache;

	private final AtomicLong failedReads = new AtomicLong();

	private final int size;

	/**
	 * Create a set over counters that a flow already feeds.
	 * @param name the set name, e.g. {@code roce}
	 * @param deviceName the device name
	 * @param port the port the flow is attached to
	 * @param spec what the flow matches
	 * @param indexes the counter index of each counter type in the set
	 * @param readMode how the counters are read
	 * @param counters the counters, owned by this set from now on
	 * @param readCacheTtl how long a read is reused; {@link Duration#ZERO} reads every
	 * time
	 * @param clock the clock that stamps reads and measures their age
	 * @throws IllegalArgumentException if the time-to-live is negative
	 */
	public CounterSet(String name, String deviceName, int port, FlowSpec spec, Map<CounterType, Integer> indexes,
			ReadMode readMode, Counters counters, Duration readCacheTtl, Clock clock) {
		this.name = name;
		this.deviceName = deviceName;
		this.port = port;
		this.spec = spec;
		this.indexes = Map.copyOf(indexes);
		this.readMode = readMode;
		this.counters = counters;
		this.clock = clock;
		this.cache = new ReadCache<>(readCacheTtl, clock);
		this.size = this.indexes.values().stream().mapToInt((i) -> i + 1).max().orElse(0);
	}

	/**
	 * Return the set name.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Return the name of the device the set counts on.
	 * @return the device name
	 */
	public String deviceName() {
		return this.deviceName;
	}

	/**
	 * Return the port the flow is attached to.
	 * @return the port number
	 */
	public int port() {
		return this.port;
	}

	/**
	 * Return what the flow matches.
	 * @return the spec
	 */
	public FlowSpec spec() {
		return this.spec;
	}

	/**
	 * Return the priority the set's flow was created at: the configured one, or the next
	 * free one when an earlier set on the port overlaps it (see
	 * {@link ManagedDeviceFactory}).
	 * @return the flow priority
	 */
	public int priority() {
		return this.spec.priority();
	}

	/**
	 * Return the counter index of each counter type in the set.
	 * @return the indexes
	 */
	public Map<CounterType, Integer> indexes() {
		return this.indexes;
	}

	/**
	 * Return how the counters are read.
	 * @return the read mode
	 */
	public ReadMode readMode() {
		return this.readMode;
	}

	/**
	 * Return the counters handle.
	 * @return the counters
	 */
	public Counters counters() {
		return this.counters;
	}

	/**
	 * Return the number of reads that failed so far.
	 * @return the failed reads
	 */
	public long failedReads() {
		return this.failedReads.get();
	}

	/**
	 * Return the latest reading, reading the device if the last read is older than the
	 * cache time-to-live. Never throws for a failed read: the reading then carries the
	 * failure and the last values read successfully (counters stay monotonic). Once the
	 * counters are closed, returns the last reading marked closed without counting a
	 * failure.
	 * @return the reading
	 */
	public CounterSetReading read() {
		return this.cache.get(this::readNow);
	}

	private CounterSetReading readNow() {
		CounterSetReading previous = this.cache.last();
		// A new array per read: a published reading never changes
		long[] values = new long[this.size];
		try {
			this.counters.read(values, this.readMode);
			return new CounterSetReading(this.name, this.indexes, values, this.clock.instant(), null,
					this.failedReads.get(), false);
		}
		catch (RdmaClosedException ex) {
			if (previous != null) {
				return previous.asClosed();
			}
			return new CounterSetReading(this.name, this.indexes, new long[this.size], this.clock.instant(), ex,
					this.failedReads.get(), true);
		}
		catch (RuntimeException ex) {
			long failures = this.failedReads.incrementAndGet();
			long[] last = (previous != null) ? previous.rawValues() : new long[this.size];
			return new CounterSetReading(this.name, this.indexes, last, this.clock.instant(), ex, failures, false);
		}
	}

	/**
	 * Return the latest reading without reading the device.
	 * @return the reading, or {@code null} before the first read
	 */
	public @Nullable CounterSetReading lastReading() {
		return this.cache.last();
	}

	/**
	 * Destroy the flow and the counters. Idempotent.
	 */
	@Override
	public void close() {
		this.counters.close();
	}

	@Override
	public String toString() {
		return "CounterSet '" + this.name + "' on " + this.deviceName + " port " + this.port + " ("
				+ this.spec.describe() + ")";
	}

}
