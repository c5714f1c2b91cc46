package io.github.rdmacounters.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * A value read at most once per time-to-live, with single flight: callers that ask while
 * a read is in flight share its value or failure. A failure is not kept. Reads never
 * overlap, so a reader may keep state between them without locking. Age is measured with
 * {@link System#nanoTime()} for the system clock, so a wall clock change keeps nothing
 * alive.
 * <p>
 * With a deadline, the read runs in a daemon reader thread ({@link ReadThreads}) and no
 * caller waits for it longer than the deadline, counted from the start of the read: a
 * caller that comes while a read is past its deadline gets a {@link ReadStalledException}
 * at once, naming what the read was in ({@link #reading(String)}). The stuck read is not
 * interrupted (a read of sysfs or an ioctl cannot be) and no second read starts beside
 * it, so a stall of a minute under a scrape a second holds one thread; when it returns,
 * its value is kept as any other, aged from the start of the read (a read that returns a
 * minute late is not fresh), and the next read is a normal one. Internal; not part of the
 * API. Thread-safe.
 *
 * @param <T> the value type
 */
public final class ReadCache<T> {

	/** No deadline: the caller's thread reads, as long as the read takes. */
	public static final Duration NO_DEADLINE = Duration.ZERO;

	private static final ThreadLocal<@Nullable Flight<?>> CURRENT = new ThreadLocal<>();

	private final long ttlNanos;

	private final long deadlineNanos;

	private final LongSupplier ticker;

	private final Object lock = new Object();

	private volatile @Nullable Entry<T> entry;

	/** Bumped by every invalidation; guarded by {@link #lock}. */
	private long generation;

	/** How many reads were started; guarded by {@link #lock}. */
	private long flights;

	/** The read in flight; written under {@link #lock}. */
	private volatile @Nullable Flight<T> inFlight;

	/** When the last invalidation was; {@code null} before the first. */
	private volatile @Nullable Long invalidatedAt;

	private final AtomicLong stalls = new AtomicLong();

	private final AtomicLong reads = new AtomicLong();

	private volatile long lastReadNanos = -1;

	private volatile boolean lastReadSucceeded = true;

	/**
	 * Create a cache whose reads run on the caller's thread.
	 * @param ttl how long a value is reused; {@link Duration#ZERO} reads every time
	 * @param clock the clock that measures the age of a value
	 */
	public ReadCache(Duration ttl, Clock clock) {
		this(ttl, clock, NO_DEADLINE);
	}

	/**
	 * Create a cache.
	 * @param ttl how long a value is reused; {@link Duration#ZERO} reads every time
	 * @param clock the clock that measures the age of a value
	 * @param deadline how long a caller waits for a read, measured with
	 * {@link System#nanoTime()} whatever the clock; {@link #NO_DEADLINE} reads on the
	 * caller's thread
	 */
	public ReadCache(Duration ttl, Clock clock, Duration deadline) {
		if (ttl.isNegative()) {
			throw new IllegalArgumentException("Read cache time-to-live must not be negative, but was " + ttl);
		}
		if (deadline.isNegative()) {
			throw new IllegalArgumentException("Read deadline must not be negative, but was " + deadline);
		}
		this.ttlNanos = saturatedNanos(ttl);
		this.deadlineNanos = saturatedNanos(deadline);
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
	 * Say what the read running on this thread is doing now, so that a stall names it. A
	 * no-op outside a read of a cache with a deadline.
	 * @param what the file or call, e.g. {@code ibv_read_counters}
	 */
	public static void reading(String what) {
		Flight<?> flight = CURRENT.get();
		if (flight != null) {
			flight.what = what;
		}
	}

	/**
	 * Return the value while it is fresh, else read it or wait for the read in flight, at
	 * most until the deadline of that read.
	 * @param reader reads the value
	 * @return the value
	 * @throws ReadStalledException if the read has not returned by its deadline
	 */
	public T get(Supplier<T> reader) {
		return get(reader, -1);
	}

	/**
	 * Return a value read after this call began, whatever the time-to-live: a read in
	 * flight that started before is waited for (at most until its deadline; no second
	 * read runs beside it) and then a new one is made; one that started after is shared.
	 * The value is kept for other callers as any other. For a difference between two
	 * reads, where a reused value would be wrong.
	 * @param reader reads the value
	 * @return the value
	 * @throws ReadStalledException if a read has not returned by its deadline
	 */
	public T getFresh(Supplier<T> reader) {
		long started;
		synchronized (this.lock) {
			started = this.flights;
		}
		return get(reader, started);
	}

	/**
	 * Read or reuse the value; with {@code after >= 0} only a read numbered above it is
	 * good enough.
	 */
	private T get(Supplier<T> reader, long after) {
		boolean fresh = after >= 0;
		while (true) {
			Entry<T> current = this.entry;
			if (!fresh && current != null && isFresh(current.readAt())) {
				return current.value();
			}
			Flight<T> flight;
			boolean leader = false;
			boolean stale = false;
			synchronized (this.lock) {
				current = this.entry;
				if (!fresh && current != null && isFresh(current.readAt())) {
					return current.value();
				}
				flight = this.inFlight;
				if (flight == null) {
					flight = new Flight<>(this.generation, ++this.flights, new CompletableFuture<>(), System.nanoTime(),
							this.ticker.getAsLong());
					this.inFlight = flight;
					leader = true;
				}
				else {
					// started before an invalidation, or before a fresh read was asked
					// for:
					// wait for it, then read again
					stale = flight.generation != this.generation || (fresh && flight.number <= after);
				}
			}
			if (leader) {
				if (this.deadlineNanos == 0) {
					return lead(flight, reader);
				}
				start(flight, reader);
			}
			if (this.deadlineNanos == 0) {
				if (!stale) {
					return join(flight.future);
				}
				flight.future.exceptionally((ex) -> null).join();
				continue;
			}
			T value = await(flight);
			if (!stale) {
				return value;
			}
		}
	}

	private void start(Flight<T> flight, Supplier<T> reader) {
		ReadThreads.execute(() -> {
			CURRENT.set(flight);
			try {
				lead(flight, reader);
			}
			catch (RuntimeException | Error ex) {
				// handed to the callers through the flight
			}
			finally {
				CURRENT.remove();
			}
		});
	}

	/**
	 * Wait for a flight until its deadline; a stale flight's failure is not the caller's.
	 */
	private T await(Flight<T> flight) {
		long remaining = this.deadlineNanos - (System.nanoTime() - flight.startedAt);
		try {
			if (remaining > 0) {
				return flight.future.get(remaining, TimeUnit.NANOSECONDS);
			}
		}
		catch (TimeoutException ex) {
			// stalled, below
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof RuntimeException failure) {
				throw failure;
			}
			if (ex.getCause() instanceof Error error) {
				throw error;
			}
			throw new IllegalStateException(ex.getCause());
		}
		if (flight.future.isDone()) {
			return join(flight.future);
		}
		if (flight.stalled.compareAndSet(false, true)) {
			this.stalls.incrementAndGet();
		}
		throw new ReadStalledException(
				new ReadStall(flight.what, Duration.ofNanos(System.nanoTime() - flight.startedAt), this.stalls.get()));
	}

	private T lead(Flight<T> flight, Supplier<T> reader) {
		T value;
		try {
			value = reader.get();
		}
		catch (RuntimeException | Error ex) {
			ended(flight, false);
			synchronized (this.lock) {
				this.inFlight = null;
			}
			flight.future.completeExceptionally(ex);
			throw ex;
		}
		ended(flight, true);
		synchronized (this.lock) {
			if (flight.generation == this.generation) {
				// aged from the start of the read: a read that returns a minute late is
				// not fresh for a time-to-live after it
				this.entry = new Entry<>(value, flight.readAt);
			}
			this.inFlight = null;
		}
		flight.future.complete(value);
		return value;
	}

	private void ended(Flight<T> flight, boolean succeeded) {
		this.reads.incrementAndGet();
		this.lastReadNanos = System.nanoTime() - flight.startedAt;
		this.lastReadSucceeded = succeeded;
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

	/**
	 * Return the stall of the read in flight, if it is past its deadline.
	 * @return the stall, or {@code null} when no read is stuck
	 */
	public @Nullable ReadStall stall() {
		Flight<T> flight = this.inFlight;
		if (flight == null || this.deadlineNanos == 0) {
			return null;
		}
		long running = System.nanoTime() - flight.startedAt;
		if (running < this.deadlineNanos) {
			return null;
		}
		return new ReadStall(flight.what, Duration.ofNanos(running), this.stalls.get());
	}

	/**
	 * Return how many reads missed their deadline so far (each counted once, however many
	 * callers it failed).
	 * @return the number of stalls
	 */
	public long stalls() {
		return this.stalls.get();
	}

	/**
	 * Return how many reads ended so far, with a value or a failure.
	 * @return the number of reads
	 */
	public long reads() {
		return this.reads.get();
	}

	/**
	 * Return how long the last read took: the running time of a read past its deadline,
	 * else of the last one that ended.
	 * @return the duration, or {@code null} before the first read ended or stalled
	 */
	public @Nullable Duration lastReadDuration() {
		ReadStall stall = stall();
		if (stall != null) {
			return stall.running();
		}
		long nanos = this.lastReadNanos;
		return (nanos >= 0) ? Duration.ofNanos(nanos) : null;
	}

	/**
	 * Return whether the last read returned a value: {@code false} while a read is past
	 * its deadline and after a read that failed.
	 * @return whether the last read succeeded
	 */
	public boolean lastReadSucceeded() {
		return this.lastReadSucceeded && stall() == null;
	}

	private boolean isFresh(long since) {
		if (this.ttlNanos == 0) {
			return false;
		}
		long age = this.ticker.getAsLong() - since;
		return age >= 0 && age < this.ttlNanos;
	}

	private static final class Flight<T> {

		final long generation;

		final long number;

		final CompletableFuture<T> future;

		final long startedAt;

		/** When the read started, by the cache's ticker. */
		final long readAt;

		final AtomicBoolean stalled = new AtomicBoolean();

		volatile String what = "read";

		Flight(long generation, long number, CompletableFuture<T> future, long startedAt, long readAt) {
			this.generation = generation;
			this.number = number;
			this.future = future;
			this.startedAt = startedAt;
			this.readAt = readAt;
		}

	}

	private record Entry<T>(T value, long readAt) {
	}

}
