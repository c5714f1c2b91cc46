package io.github.rdmacounters.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ReopenBackoff}: the waits double from the initial one up to the
 * maximum, a failure after a reopen that held for the maximum wait starts from the
 * initial wait again, and one sooner starts at twice the first wait of the last outage.
 *
 * @author rdma-counters
 */
class ReopenBackoffTests {

	private static final long SECOND = 1_000_000_000L;

	private final AtomicLong nanos = new AtomicLong(42 * SECOND);

	private final List<Long> slept = new ArrayList<>();

	private final ReopenBackoff backoff = new ReopenBackoff(Duration.ofMillis(100), Duration.ofSeconds(1),
			this.nanos::get, this.slept::add);

	@Test
	void theWaitsDoubleFromTheInitialOneUpToTheMaximum() {
		this.backoff.failed();
		assertThat(waits(7)).containsExactly(100L, 200L, 400L, 800L, 1000L, 1000L, 1000L);
	}

	@Test
	void theWaitIsCappedWhenDoublingWouldPassTheMaximum() {
		ReopenBackoff uneven = new ReopenBackoff(Duration.ofMillis(300), Duration.ofMillis(1000), this.nanos::get,
				this.slept::add);
		uneven.failed();
		assertThat(List.of(uneven.next(), uneven.next(), uneven.next())).containsExactly(300L, 600L, 1000L);
	}

	@Test
	void sleepWaitsTheNextWait() throws InterruptedException {
		this.backoff.failed();
		this.backoff.sleep();
		this.backoff.sleep();
		assertThat(this.slept).containsExactly(100L, 200L);
	}

	@Test
	void aFailureAfterAReopenThatHeldForTheMaximumStartsFromTheInitialWait() {
		this.backoff.failed();
		waits(6);
		this.backoff.reopened();
		this.nanos.addAndGet(SECOND);
		this.backoff.failed();
		assertThat(waits(3)).containsExactly(100L, 200L, 400L);
	}

	@Test
	void aFailureSoonerAfterAReopenStartsAtTwiceTheFirstWaitOfTheLastOutage() {
		this.backoff.failed();
		waits(6);
		this.backoff.reopened();
		this.nanos.addAndGet(SECOND - 1);
		this.backoff.failed();
		assertThat(waits(3)).as("not from the 1 s it had reached").containsExactly(200L, 400L, 800L);
	}

	@Test
	void aDeviceThatKeepsFailingRightAfterItsReopensSlowsDownToTheMaximum() {
		List<Long> firstWaits = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			this.backoff.failed();
			firstWaits.add(this.backoff.next());
			this.backoff.reopened();
			this.nanos.addAndGet(SECOND / 10);
		}
		assertThat(firstWaits).containsExactly(100L, 200L, 400L, 800L, 1000L, 1000L);
		this.backoff.reopened();
		this.nanos.addAndGet(SECOND);
		this.backoff.failed();
		assertThat(this.backoff.next()).as("once a reopen held").isEqualTo(100L);
	}

	@Test
	void theFirstFailureStartsFromTheInitialWaitHoweverTheTickerStands() {
		this.nanos.set(Long.MIN_VALUE + 5);
		this.backoff.failed();
		assertThat(this.backoff.next()).isEqualTo(100L);
	}

	@Test
	void waitsShorterThanAMillisecondAreOneMillisecond() {
		ReopenBackoff tiny = new ReopenBackoff(Duration.ZERO, Duration.ofNanos(10), this.nanos::get, this.slept::add);
		tiny.failed();
		assertThat(List.of(tiny.next(), tiny.next())).containsExactly(1L, 1L);
	}

	@Test
	void aHugeMaximumDoesNotOverflow() {
		ReopenBackoff huge = new ReopenBackoff(Duration.ofMillis(Long.MAX_VALUE / 2 + 1),
				Duration.ofMillis(Long.MAX_VALUE), this.nanos::get, this.slept::add);
		huge.failed();
		huge.next();
		assertThat(huge.next()).isEqualTo(Long.MAX_VALUE);
		huge.reopened();
		this.nanos.addAndGet(SECOND);
		huge.failed();
		assertThat(huge.next()).as("a reopen that held a second is soon against this maximum")
			.isEqualTo(Long.MAX_VALUE);
	}

	private List<Long> waits(int count) {
		List<Long> waits = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			waits.add(this.backoff.next());
		}
		return waits;
	}

}
