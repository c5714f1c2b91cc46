package io.github.rdmacounters.core;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * A named set of counters that one flow feeds, read at most once per {@code readCacheTtl}
 * however many meters, endpoint calls and health checks ask. The set owns its
 * {@link Counters} and {@link Flow}; a read after close returns the last reading marked
 * {@linkplain CounterSetReading#isClosed() closed}, not a failure.
 *
 * @since 0.1.0
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

	/** What a stalled read is said to be in. */
	private final String reading;

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
	 */
	public CounterSet(String name, String deviceName, int port, FlowSpec spec, Map<CounterType, Integer> indexes,
			ReadMode readMode, Counters counters, Duration readCacheTtl, Clock clock) {
		this(name, deviceName, port, spec, indexes, readMode, counters, readCacheTtl, clock, ReadCache.NO_DEADLINE);
	}

	/**
	 * Create a set whose reads run in a reader thread that no caller waits for longer
	 * than the deadline ({@link ReadCache}).
	 * @param name the set name, e.g. {@code roce}
	 * @param deviceName the device name
	 * @param port the port the flow is attached to
	 * @param spec what the flow matches
	 * @param indexes the counter index of each counter type in the set
	 * @param readMode how the counters are read
	 * @param counters the counters, owned by this set from now on
	 * @param readCacheTtl how long a read is reused
	 * @param clock the clock that stamps reads and measures their age
	 * @param readDeadline how long a caller waits for a read;
	 * {@link ReadCache#NO_DEADLINE} reads on the caller's thread
	 */
	public CounterSet(String name, String deviceName, int port, FlowSpec spec, Map<CounterType, Integer> indexes,
			ReadMode readMode, Counters counters, Duration readCacheTtl, Clock clock, Duration readDeadline) {
		this.name = name;
		this.deviceName = deviceName;
		this.port = port;
		this.spec = spec;
		this.indexes = Map.copyOf(indexes);
		this.readMode = readMode;
		this.counters = counters;
		this.clock = clock;
		this.cache = new ReadCache<>(readCacheTtl, clock, readDeadline);
		this.reading = "ibv_read_counters of set " + name + " on " + deviceName;
		this.size = this.indexes.values().stream().mapToInt((i) -> i + 1).max().orElse(0);
	}

	public String name() {
		return this.name;
	}

	public String deviceName() {
		return this.deviceName;
	}

	public int port() {
		return this.port;
	}

	public FlowSpec spec() {
		return this.spec;
	}

	/**
	 * Return the priority the flow was created at: the configured one, or the next free
	 * one when an earlier set on the port overlaps it.
	 * @return the flow priority
	 */
	public int priority() {
		return this.spec.priority();
	}

	public Map<CounterType, Integer> indexes() {
		return this.indexes;
	}

	public ReadMode readMode() {
		return this.readMode;
	}

	public Counters counters() {
		return this.counters;
	}

	public long failedReads() {
		return this.failedReads.get();
	}

	/**
	 * Return the latest reading, reading the device if it is older than the time-to-live.
	 * A failed read does not throw: the reading carries the failure and the last good
	 * values, so counters stay monotonic.
	 * @return the reading
	 */
	public CounterSetReading read() {
		try {
			return this.cache.get(this::readNow);
		}
		catch (ReadStalledException ex) {
			return stalled(ex);
		}
	}

	/**
	 * Return a reading made after this call began, whatever the time-to-live, for a
	 * difference between two reads (a cached value would make it wrong). Costs a read of
	 * the device (on mlx5 a firmware command) unless another caller's fresh read is
	 * shared; waits no longer than the read deadline. A failed, stalled or closed reading
	 * is returned as by {@link #read()} and its values must not be subtracted.
	 * @return the reading
	 */
	public CounterSetReading readFresh() {
		try {
			return this.cache.getFresh(this::readNow);
		}
		catch (ReadStalledException ex) {
			return stalled(ex);
		}
	}

	private CounterSetReading stalled(ReadStalledException ex) {
		return new CounterSetReading(this.name, this.indexes, new long[this.size], this.clock.instant(), ex,
				this.failedReads.get(), false, ex.stall());
	}

	/**
	 * Return the read cache's record of the reads of this set, for the self-metrics.
	 * @return the cache
	 */
	public ReadCache<CounterSetReading> reads() {
		return this.cache;
	}

	private CounterSetReading readNow() {
		ReadCache.reading(this.reading);
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

	@Nullable CounterSetReading lastReading() {
		return this.cache.last();
	}

	/** Destroy the flow and the counters. Idempotent. */
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
