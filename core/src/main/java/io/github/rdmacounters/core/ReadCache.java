package io.github.rdmacounters.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * A value read at most once per time-to-live, with single flight: callers that ask while
 * a read is in flight share its value or failure. A failure is not kept. Reads never
 * overlap, so a reader may keep state between them without locking. Age is measured with
 * {@link System#nanoTime()} for the system clock, so a wall clock change keeps nothing
 * alive. Internal; not part of the API. Thread-safe.
 *
 * @param <T> the value type
 */
public final class ReadCache<T> {

	private final long ttlNanos;

	private final LongSupplier ticker;

	private final Object lock = new Object();

	private volatile @Nullable Entry<T> entry;

	/** Bumped by every invalidation; guarded by {@link #lock}. */
	private long generation;

	/** The read in flight; guarded by {@link #lock}. */
	private @Nullable Flight<T> inFlight;

	/** When the last invalidation was; {@code null} before the first. */
	private volatile @Nullable Long invalidatedAt;

	/**
	 * Create a cache.
	 * @param ttl how long a value is reused; {@link Duration#ZERO} reads every time
	 * @param clock the clock that measures the age of a value
	 */
	public ReadCache(Duration ttl, Clock clock) {
		if (ttl.isNegative()) {
			throw new IllegalArgumentException("Read cache time-to-live must not be negative, but was " + ttl);
		}
		this.ttlNanos = saturatedNanos(ttl);
		this.ticker = ticker(clock);
	}

	private static long saturatedNanos(Duration duration) {
		try {
			return duration.toNanos();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE;
		}
	}

	static LongSupplier ticker(Clock clock) {
		if (clock.getClass() == Clock.systemUTC().getClass()) {
			return System::nanoTime;
		}
		return () -> {
			Instant now = clock.instant();
			return now.getEpochSecond() * 1_000_000_000L + now.getNano();
		};
	}

	/**
	 * Return the value while it is fresh, else read it or wait for the read in flight.
	 * @param reader reads the value
	 * @return the value
	 */
	public T get(Supplier<T> reader) {
		while (true) {
			Entry<T> current = this.entry;
			if (current != null && isFresh(current.readAt())) {
				return current.value();
			}
			Flight<T> flight;
			boolean leader = false;
			boolean stale = false;
			synchronized (this.lock) {
				current = this.entry;
				if (current != null && isFresh(current.readAt())) {
					return current.value();
				}
				flight = this.inFlight;
				if (flight == null) {
					flight = new Flight<>(this.generation, new CompletableFuture<>());
					this.inFlight = flight;
					leader = true;
				}
				else {
					// started before an invalidation: wait for it, then read again
					stale = flight.generation() != this.generation;
				}
			}
			if (leader) {
				return lead(flight, reader);
			}
			if (!stale) {
				return join(flight.future());
			}
			flight.future().exceptionally((ex) -> null).join();
		}
	}

	private T lead(Flight<T> flight, Supplier<T> reader) {
		T value;
		try {
			value = reader.get();
		}
		catch (RuntimeException | Error ex) {
			synchronized (this.lock) {
				this.inFlight = null;
			}
			flight.future().completeExceptionally(ex);
			throw ex;
		}
		synchronized (this.lock) {
			if (flight.generation() == this.generation) {
				this.entry = new Entry<>(value, this.ticker.getAsLong());
			}
			this.inFlight = null;
		}
		flight.future().complete(value);
		return value;
	}

	private static <T> T join(CompletableFuture<T> future) {
		try {
			return future.join();
		}
		catch (CompletionException ex) {
			if (ex.getCause() instanceof RuntimeException failure) {
				throw failure;
			}
			if (ex.getCause() instanceof Error error) {
				throw error;
			}
			throw ex;
		}
	}

	/**
	 * Return the last value read, fresh or not, without reading.
	 * @return the value, or {@code null} before the first read and after an invalidation
	 */
	public @Nullable T last() {
		Entry<T> current = this.entry;
		return (current != null) ? current.value() : null;
	}

	/**
	 * Drop the value: the next caller reads again, even if a read is in flight. Never
	 * waits.
	 */
	public void invalidate() {
		synchronized (this.lock) {
			this.generation++;
			this.entry = null;
			this.invalidatedAt = this.ticker.getAsLong();
		}
	}

	/**
	 * Return whether the last invalidation is younger than the time-to-live and no read
	 * ended since.
	 * @return {@code true} while nothing newer than the invalidation is known
	 */
	boolean invalidatedRecently() {
		Long at = this.invalidatedAt;
		return at != null && this.entry == null && isFresh(at);
	}

	private boolean isFresh(long since) {
		if (this.ttlNanos == 0) {
			return false;
		}
		long age = this.ticker.getAsLong() - since;
		return age >= 0 && age < this.ttlNanos;
	}

	private record Flight<T>(long generation, CompletableFuture<T> future) {
	}

	private record Entry<T>(T value, long readAt) {
	}

}
