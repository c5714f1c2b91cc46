package io.github.rdmacounters.core;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

/**
 * The waits of a {@link SupervisedDevice} between attempts to reopen it: from the initial
 * wait, doubled after each failed attempt, up to the maximum. The next failure starts
 * from the initial wait again once the device stayed up for at least the maximum wait. A
 * device that fails sooner (one that keeps failing right after it opens) starts its next
 * outage at twice the first wait of the last one, so its reopens slow down to one per
 * maximum wait; its waits within that outage start small, and it is back soon after the
 * fault clears. Thread-safe.
 *
 * @author rdma-counters
 */
final class ReopenBackoff {

	private final long initialMillis;

	private final long maxMillis;

	private final LongSupplier ticker;

	private final Sleeper sleeper;

	/** The first wait of the current outage. */
	private long firstMillis;

	private long nextMillis;

	/** When the device was last reopened, on the ticker; {@code null} before that. */
	private @Nullable Long reopenedAt;

	/**
	 * Create a backoff.
	 * @param initial the first wait
	 * @param max the longest wait
	 * @param ticker the time in nanoseconds, to measure how long a reopen held
	 * @param sleeper how to wait
	 */
	ReopenBackoff(Duration initial, Duration max, LongSupplier ticker, Sleeper sleeper) {
		this.initialMillis = Math.max(1, initial.toMillis());
		this.maxMillis = Math.max(1, max.toMillis());
		this.ticker = ticker;
		this.sleeper = sleeper;
		this.firstMillis = this.initialMillis;
		this.nextMillis = this.initialMillis;
	}

	/**
	 * The device failed: the next wait is the first of an outage.
	 */
	synchronized void failed() {
		// a reopen that held for the longest wait resets: reopening such a device from
		// the initial wait costs at most one reopen per maximum wait, the rate the cap
		// allows anyway
		@Nullable Long reopened = this.reopenedAt;
		boolean held = reopened == null
				|| this.ticker.getAsLong() - reopened >= TimeUnit.MILLISECONDS.toNanos(this.maxMillis);
		this.firstMillis = held ? this.initialMillis : doubled(this.firstMillis);
		this.nextMillis = this.firstMillis;
	}

	/**
	 * The device was reopened.
	 */
	synchronized void reopened() {
		this.reopenedAt = this.ticker.getAsLong();
	}

	/**
	 * Return the next wait and double the one after it.
	 * @return the wait in milliseconds
	 */
	synchronized long next() {
		long wait = this.nextMillis;
		this.nextMillis = doubled(wait);
		return wait;
	}

	/**
	 * Wait before the next attempt.
	 * @throws InterruptedException if interrupted (the device is closed)
	 */
	void sleep() throws InterruptedException {
		this.sleeper.sleep(next());
	}

	private long doubled(long millis) {
		return (millis > this.maxMillis / 2) ? this.maxMillis : millis * 2;
	}

	/**
	 * How the reopening thread waits: {@link Thread#sleep(long)}, or a test's hand.
	 */
	@FunctionalInterface
	interface Sleeper {

		void sleep(long millis) throws InterruptedException;

	}

}
