package io.github.rdmacounters.sysfs;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * A value read at most once per time-to-live, with single flight: callers that ask while
 * a read is in flight wait for it and share its value, whatever the time-to-live. Reads
 * never overlap, so the reader may keep state between reads without locking.
 *
 * @param <T> the value type
 * @author rdma-counters
 */
final class SnapshotCache<T> {

	private final long ttlNanos;

	private final LongSupplier nanoTime;

	private final Object lock = new Object();

	private volatile @Nullable Cached<T> cached;

	/** The read in flight, guarded by {@link #lock}. */
	private @Nullable CompletableFuture<T> inFlight;

	SnapshotCache(Duration ttl, LongSupplier nanoTime) {
		if (ttl.isNegative()) {
			throw new IllegalArgumentException("Read cache time-to-live must not be negative, but was " + ttl);
		}
		this.ttlNanos = toNanos(ttl);
		this.nanoTime = nanoTime;
	}

	private static long toNanos(Duration duration) {
		try {
			return duration.toNanos();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE;
		}
	}

	T get(Supplier<T> reader) {
		Cached<T> current = this.cached;
		if (current != null && isFresh(current)) {
			return current.value();
		}
		CompletableFuture<T> flight;
		boolean leader = false;
		synchronized (this.lock) {
			current = this.cached;
			if (current != null && isFresh(current)) {
				return current.value();
			}
			flight = this.inFlight;
			if (flight == null) {
				flight = new CompletableFuture<>();
				this.inFlight = flight;
				leader = true;
			}
		}
		return leader ? lead(flight, reader) : follow(flight);
	}

	private T lead(CompletableFuture<T> flight, Supplier<T> reader) {
		T read;
		try {
			read = reader.get();
		}
		catch (RuntimeException | Error ex) {
			finish(null);
			flight.completeExceptionally(ex);
			throw ex;
		}
		finish(new Cached<>(read, this.nanoTime.getAsLong()));
		flight.complete(read);
		return read;
	}

	private void finish(@Nullable Cached<T> read) {
		synchronized (this.lock) {
			if (read != null) {
				this.cached = read;
			}
			this.inFlight = null;
		}
	}

	private static <T> T follow(CompletableFuture<T> flight) {
		try {
			return flight.join();
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

	private boolean isFresh(Cached<T> current) {
		if (this.ttlNanos == 0) {
			return false;
		}
		long age = this.nanoTime.getAsLong() - current.readAtNanos();
		return age >= 0 && age < this.ttlNanos;
	}

	/**
	 * A value and the {@code nanoTime} it was read at, published together.
	 *
	 * @param <T> the value type
	 * @param value the value
	 * @param readAtNanos when it was read
	 */
	private record Cached<T>(T value, long readAtNanos) {
	}

}
