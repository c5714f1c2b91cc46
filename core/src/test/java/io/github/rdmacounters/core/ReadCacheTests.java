package io.github.rdmacounters.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.testsupport.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.fail;

/**
 * Tests for {@link ReadCache}, on a clock the tests move.
 *
 * @author rdma-counters
 */
class ReadCacheTests {

	private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T12:00:00Z"));

	private final AtomicInteger reads = new AtomicInteger();

	private final ReadCache<Integer> cache = new ReadCache<>(Duration.ofSeconds(1), this.clock);

	private Integer read() {
		return this.reads.incrementAndGet();
	}

	@Test
	void withinTheTimeToLiveTheFirstValueIsReusedAndAtItsEndTheNextCallReads() {
		assertThat(this.cache.get(this::read)).isOne();
		this.clock.advance(Duration.ofMillis(999));
		assertThat(this.cache.get(this::read)).isOne();
		this.clock.advance(Duration.ofMillis(1));
		assertThat(this.cache.get(this::read)).isEqualTo(2);
		assertThat(this.reads).hasValue(2);
	}

	@Test
	void aClockGoingBackwardsMakesTheValueStale() {
		this.cache.get(this::read);
		this.clock.advance(Duration.ofNanos(-1));
		assertThat(this.cache.get(this::read)).isEqualTo(2);
	}

	@Test
	void aTimeToLiveBeyondTheNanosecondRangeKeepsTheValueUntilTheClockPassesIt() {
		ReadCache<Integer> forever = new ReadCache<>(Duration.ofDays(365L * 1000), this.clock);
		forever.get(this::read);
		this.clock.advance(Duration.ofDays(365L * 100));
		assertThat(forever.get(this::read)).isOne();
	}

	@Test
	void aFailureIsNotKeptAndTheNextCallReadsAgain() {
		IllegalStateException failure = new IllegalStateException("EAGAIN");
		assertThatIllegalStateException().isThrownBy(() -> this.cache.get(() -> {
			this.reads.incrementAndGet();
			throw failure;
		})).isSameAs(failure);
		assertThat(this.cache.last()).isNull();
		assertThat(this.cache.get(this::read)).isEqualTo(2);
	}

	@Test
	void lastIsTheValueReadWithoutReadingAndIsKeptWhenItIsStale() {
		assertThat(this.cache.last()).isNull();
		this.cache.get(this::read);
		this.clock.advance(Duration.ofHours(1));
		assertThat(this.cache.last()).isOne();
		assertThat(this.reads).hasValue(1);
	}

	@Test
	void invalidateMakesTheNextCallReadAndIsRecentForOneTimeToLiveUntilAReadEnds() {
		this.cache.get(this::read);
		assertThat(this.cache.invalidatedRecently()).isFalse();
		this.cache.invalidate();
		assertThat(this.cache.invalidatedRecently()).isTrue();
		this.clock.advance(Duration.ofMillis(999));
		assertThat(this.cache.invalidatedRecently()).isTrue();
		this.clock.advance(Duration.ofMillis(1));
		assertThat(this.cache.invalidatedRecently()).isFalse();
		this.cache.invalidate();
		assertThat(this.cache.get(this::read)).isEqualTo(2);
		assertThat(this.cache.invalidatedRecently()).isFalse();
	}

	@Test
	void aReadInFlightDuringAnInvalidationIsNotReused() throws Exception {
		CountDownLatch inRead = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> this.cache.get(() -> {
			inRead.countDown();
			await(release);
			return read();
		}));
		assertThat(inRead.await(10, TimeUnit.SECONDS)).isTrue();
		this.cache.invalidate();
		release.countDown();
		assertThat(first.get(10, TimeUnit.SECONDS)).isOne();
		assertThat(this.cache.get(this::read)).isEqualTo(2);
	}

	@Test
	void callersDuringAReadWaitForItAndShareItsValue() throws Exception {
		CountDownLatch inRead = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		CompletableFuture<Integer> leader = CompletableFuture.supplyAsync(() -> this.cache.get(() -> {
			inRead.countDown();
			await(release);
			return read();
		}));
		assertThat(inRead.await(10, TimeUnit.SECONDS)).isTrue();
		FutureTask<Integer> follower = new FutureTask<>(() -> this.cache.get(this::read));
		Thread followerThread = new Thread(follower, "follower");
		followerThread.start();
		// the follower joined the read in flight, not the value after it
		awaitWaitingInCache(followerThread);
		release.countDown();
		assertThat(leader.get(10, TimeUnit.SECONDS)).isOne();
		assertThat(follower.get(10, TimeUnit.SECONDS)).isOne();
		assertThat(this.reads).hasValue(1);
	}

	@Test
	void callersDuringAFailingReadShareItsFailure() throws Exception {
		IllegalStateException failure = new IllegalStateException("EAGAIN");
		CountDownLatch inRead = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		CompletableFuture<Integer> leader = CompletableFuture.supplyAsync(() -> this.cache.get(() -> {
			inRead.countDown();
			await(release);
			this.reads.incrementAndGet();
			throw failure;
		}));
		assertThat(inRead.await(10, TimeUnit.SECONDS)).isTrue();
		CompletableFuture<Throwable> follower = new CompletableFuture<>();
		Thread followerThread = new Thread(() -> {
			try {
				this.cache.get(this::read);
				follower.complete(null);
			}
			catch (RuntimeException ex) {
				follower.complete(ex);
			}
		}, "follower");
		followerThread.start();
		awaitWaitingInCache(followerThread);
		release.countDown();
		assertThat(follower.get(10, TimeUnit.SECONDS)).isSameAs(failure);
		assertThat(this.reads).hasValue(1);
	}

	@Test
	void aTimeToLiveOfZeroReadsEveryTimeAndNeverCountsAnInvalidationAsRecent() {
		ReadCache<Integer> always = new ReadCache<>(Duration.ZERO, this.clock);
		always.get(this::read);
		always.get(this::read);
		always.invalidate();
		assertThat(always.invalidatedRecently()).isFalse();
		assertThat(this.reads).hasValue(2);
	}

	@Test
	void theSystemClockAgesValuesByNanoTimeSoAFixedClockIsNotMistakenForIt() {
		ReadCache<Integer> fixed = new ReadCache<>(Duration.ofNanos(1),
				Clock.fixed(Instant.parse("2026-11-29T12:00:00Z"), java.time.ZoneOffset.UTC));
		fixed.get(this::read);
		assertThat(fixed.get(this::read)).as("a fixed clock never ages the value").isOne();
		ReadCache<Integer> system = new ReadCache<>(Duration.ofNanos(1), Clock.systemUTC());
		system.get(this::read);
		long start = System.nanoTime();
		while (System.nanoTime() - start < 2) {
			Thread.onSpinWait();
		}
		assertThat(system.get(this::read)).as("System.nanoTime() moved on").isEqualTo(3);
	}

	@Test
	void aNegativeTimeToLiveIsRefusedNamingIt() {
		assertThatIllegalArgumentException().isThrownBy(() -> new ReadCache<>(Duration.ofMillis(-1), this.clock))
			.withMessageContaining("time-to-live")
			.withMessageContaining("PT-0.001S");
	}

	/**
	 * Wait until a thread waits in the cache: a caller that came while a read is in
	 * flight waits for it.
	 */
	private static void awaitWaitingInCache(Thread thread) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!isWaitingInCache(thread)) {
			if (System.nanoTime() > deadline) {
				fail("Timed out waiting until " + thread.getName() + " waits for the read in flight; it is "
						+ thread.getState());
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
		}
	}

	static boolean isWaitingInCache(Thread thread) {
		Thread.State state = thread.getState();
		return (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING)
				&& Arrays.stream(thread.getStackTrace())
					.anyMatch((frame) -> frame.getClassName().equals(ReadCache.class.getName()));
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void withADeadlineACallerWaitsNoLongerAndTheStallNamesWhatTheReadIsIn() throws InterruptedException {
		ReadCache<Integer> timed = new ReadCache<>(Duration.ZERO, this.clock, Duration.ofMillis(50));
		CountDownLatch release = new CountDownLatch(1);
		CountDownLatch entered = new CountDownLatch(1);
		Supplier<Integer> stuck = () -> {
			ReadCache.reading("counters/port_rcv_data");
			entered.countDown();
			awaitUninterruptibly(release);
			return read();
		};
		assertThatExceptionOfType(ReadStalledException.class).isThrownBy(() -> timed.get(stuck));
		assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
		assertThatExceptionOfType(ReadStalledException.class).isThrownBy(() -> timed.get(this::read))
			.satisfies((ex) -> assertThat(ex.stall().what()).isEqualTo("counters/port_rcv_data"));
		assertThat(timed.stalls()).isOne();
		assertThat(timed.stall()).isNotNull();
		assertThat(timed.lastReadSucceeded()).isFalse();
		assertThat(this.reads).hasValue(0);
		release.countDown();
		Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> timed.stall() == null && timed.reads() > 0);
		assertThat(timed.get(this::read)).isEqualTo(2);
		assertThat(timed.lastReadSucceeded()).isTrue();
		assertThat(timed.stalls()).isOne();
	}

	@Test
	void withADeadlineAFailureOfTheReadReachesTheCaller() {
		ReadCache<Integer> timed = new ReadCache<>(Duration.ZERO, this.clock, Duration.ofSeconds(5));
		assertThatIllegalStateException().isThrownBy(() -> timed.get(() -> {
			throw new IllegalStateException("EIO");
		})).withMessage("EIO");
		assertThat(timed.lastReadSucceeded()).isFalse();
		assertThat(timed.get(this::read)).isOne();
	}

	private static void awaitUninterruptibly(CountDownLatch latch) {
		boolean interrupted = false;
		while (true) {
			try {
				latch.await();
				break;
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

}
