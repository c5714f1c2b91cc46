package io.github.rdmacounters.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * The outcome of a device query (a value or the failure) reused for a time-to-live, with
 * single flight in the style of the sysfs snapshot cache: callers that ask while a query
 * is in flight wait for it and share its outcome. {@link #invalidate()} drops the outcome
 * at once, and a query that was in flight when it was called is not reused: its caller
 * gets its outcome, the next caller queries again. Invalidating never waits for a query
 * in flight. Thread-safe.
 *
 * @param <T> the value type
 * @author rdma-counters
 */
final class QueryMemo<T> {

	private final long ttlNanos;

	private final LongSupplier nanoTime;

	private final Object lock = new Object();

	private volatile @Nullable Outcome<T> outcome;

	/** Bumped by every invalidation; guarded by {@link #lock}. */
	private long generation;

	/** The query in flight, guarded by {@link #lock}. */
	private @Nullable Flight<T> inFlight;

	/** When the last invalidation was, {@link Long#MIN_VALUE} before the first. */
	private volatile long invalidatedAt = Long.MIN_VALUE;

	QueryMemo(Duration ttl, LongSupplier nanoTime) {
		if (ttl.isNegative()) {
			throw new IllegalArgumentException("Read cache time-to-live must not be negative, but was " + ttl);
		}
		this.ttlNanos = saturatedNanos(ttl);
		this.nanoTime = nanoTime;
	}

	static long saturatedNanos(Duration duration) {
		try {
			return duration.toNanos();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE;
		}
	}

	/**
	 * Return the outcome of the last query while it is fresh, else query.
	 * @param query the query
	 * @return the value
	 * @throws RuntimeException the failure of the query, reused like a value
	 */
	T get(Supplier<T> query) {
		while (true) {
			Outcome<T> current = this.outcome;
			if (current != null && isFresh(current)) {
				return current.result();
			}
			Flight<T> flight;
			boolean leader = false;
			synchronized (this.lock) {
				current = this.outcome;
				if (current != null && isFresh(current)) {
					return current.result();
				}
				flight = this.inFlight;
				if (flight == null) {
					flight = new Flight<>(this.generation, new CompletableFuture<>());
					this.inFlight = flight;
					leader = true;
				}
				else if (flight.generation() != this.generation) {
					// the query in flight started before an invalidation: wait for it
					// to end, then query again
					flight = new Flight<>(-1, flight.future());
				}
			}
			if (leader) {
				return lead(flight, query).result();
			}
			Outcome<T> shared = join(flight.future());
			if (flight.generation() >= 0) {
				return shared.result();
			}
		}
	}

	private Outcome<T> lead(Flight<T> flight, Supplier<T> query) {
		Outcome<T> result;
		try {
			result = new Outcome<>(query.get(), null, this.nanoTime.getAsLong(), flight.generation());
		}
		catch (RuntimeException ex) {
			result = new Outcome<>(null, ex, this.nanoTime.getAsLong(), flight.generation());
		}
		catch (Error error) {
			synchronized (this.lock) {
				this.inFlight = null;
			}
			flight.future().completeExceptionally(error);
			throw error;
		}
		synchronized (this.lock) {
			if (flight.generation() == this.generation) {
				this.outcome = result;
			}
			this.inFlight = null;
		}
		flight.future().complete(result);
		return result;
	}

	private static <T> Outcome<T> join(CompletableFuture<Outcome<T>> future) {
		try {
			return future.join();
		}
		catch (CompletionException ex) {
			if (ex.getCause() instanceof Error error) {
				throw error;
			}
			throw ex;
		}
	}

	/**
	 * Drop the outcome: the next caller queries, and a query in flight is not reused.
	 */
	void invalidate() {
		synchronized (this.lock) {
			this.generation++;
			this.outcome = null;
			this.invalidatedAt = this.nanoTime.getAsLong();
		}
	}

	/**
	 * Let the next caller query whatever the time-to-live, as if the last query had just
	 * expired (a seam for tests, as {@link CounterSet} has).
	 */
	void expire() {
		synchronized (this.lock) {
			Outcome<T> current = this.outcome;
			if (current != null) {
				this.outcome = new Outcome<>(current.value(), current.failure(),
						current.queriedAt() - Math.max(this.ttlNanos, 1), current.generation());
			}
		}
	}

	/**
	 * Return whether the last invalidation is younger than the time-to-live and no query
	 * ended since.
	 * @return {@code true} while nothing newer than the invalidation is known
	 */
	boolean invalidatedRecently() {
		long at = this.invalidatedAt;
		if (at == Long.MIN_VALUE || this.ttlNanos == 0) {
			return false;
		}
		if (this.outcome != null) {
			return false;
		}
		long age = this.nanoTime.getAsLong() - at;
		return age >= 0 && age < this.ttlNanos;
	}

	private boolean isFresh(Outcome<T> current) {
		if (this.ttlNanos == 0) {
			return false;
		}
		long age = this.nanoTime.getAsLong() - current.queriedAt();
		return age >= 0 && age < this.ttlNanos;
	}

	/**
	 * A query in flight and the generation it started in ({@code -1} for one that started
	 * before an invalidation and that a caller only waits for).
	 */
	private record Flight<T>(long generation, CompletableFuture<Outcome<T>> future) {
	}

	/**
	 * The value or failure of a query, when it ended and the generation it started in.
	 */
	private record Outcome<T>(@Nullable T value, @Nullable RuntimeException failure, long queriedAt, long generation) {

		T result() {
			if (this.failure != null) {
				throw this.failure;
			}
			return java.util.Objects.requireNonNull(this.value);
		}

	}

}
