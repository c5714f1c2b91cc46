package io.github.rdmacounters.core;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@link ReopenBackoff.Sleeper} a test steps by hand: each wait the reopening thread
 * asks for is handed to the test, and the thread goes on only when the test lets it, so a
 * test sees every wait and no time passes.
 *
 * @author rdma-counters
 */
final class SteppedSleeper implements ReopenBackoff.Sleeper {

	private static final long TIMEOUT_SECONDS = 10;

	private final BlockingQueue<Long> waits = new LinkedBlockingQueue<>();

	private final Semaphore permits = new Semaphore(0);

	@Override
	public void sleep(long millis) throws InterruptedException {
		this.waits.add(millis);
		this.permits.acquire();
	}

	/**
	 * Return the wait the reopening thread asked for next, once it asked.
	 * @return the wait in milliseconds
	 */
	long nextWait() throws InterruptedException {
		Long wait = this.waits.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
		assertThat(wait).as("a wait within " + TIMEOUT_SECONDS + " s").isNotNull();
		return wait;
	}

	/**
	 * Let the reopening thread end the wait it is in.
	 */
	void proceed() {
		this.permits.release();
	}

	/**
	 * Return the next wait once the reopening thread asked for it, and let it end.
	 * @return the wait in milliseconds
	 */
	long endNextWait() throws InterruptedException {
		long wait = nextWait();
		proceed();
		return wait;
	}

	/**
	 * Return whether no wait was asked for that the test did not see.
	 * @return {@code true} if none is pending
	 */
	boolean noWaitPending() {
		return this.waits.isEmpty();
	}

}
