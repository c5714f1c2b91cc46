package io.github.rdmacounters.core;

import java.time.Duration;
import java.time.Instant;
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
import static org.assertj.core.api.Assertions.fail;

/**
 * Tests for {@link ReadCache#getFresh(Supplier)}: a value read after the call began,
 * whatever the time-to-live, for the deltas of observations.
 *
 * @author rdma-counters
 */
class ReadCacheFreshTests {

	private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T12:00:00Z"));

	private final AtomicInteger reads = new AtomicInteger();

	private final ReadCache<Integer> cache = new ReadCache<>(Duration.ofHours(1), this.clock);

	private Integer read() {
		return this.reads.incrementAndGet();
	}

	@Test
	void withinTheTimeToLiveAFreshCallReadsAgainAndItsValueIsKeptForOtherCallers() {
		assertThat(this.cache.get(this::read)).isOne();
		assertThat(this.cache.getFresh(this::read)).isEqualTo(2);
		assertThat(this.cache.get(this::read)).isEqualTo(2);
		assertThat(this.cache.getFresh(this::read)).isEqualTo(3);
		assertThat(this.reads).hasValue(3);
	}

	@Test
	void aFreshCallDuringAReadThatStartedBeforeItWaitsForItAndThenReadsAgain() throws Exception {
		CountDownLatch inRead = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		CompletableFuture<Integer> earlier = CompletableFuture.supplyAsync(() -> this.cache.get(() -> {
			inRead.countDown();
			await(release);
			return read();
		}));
		assertThat(inRead.await(10, TimeUnit.SECONDS)).isTrue();
		FutureTask<Integer> fresh = new FutureTask<>(() -> this.cache.getFresh(this::read));
		Thread freshThread = new Thread(fresh, "fresh");
		freshThread.start();
		awaitWaitingInCache(freshThread);
		release.countDown();
		assertThat(earlier.get(10, TimeUnit.SECONDS)).isOne();
		assertThat(fresh.get(10, TimeUnit.SECONDS)).isEqualTo(2);
		assertThat(this.reads).hasValue(2);
	}

	@Test
	void freshCallersDuringAReadThatStartedAfterThemShareIt() throws Exception {
		CountDownLatch inRead = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		CompletableFuture<Integer> leader = CompletableFuture.supplyAsync(() -> this.cache.getFresh(() -> {
			inRead.countDown();
			await(release);
			return read();
		}));
		assertThat(inRead.await(10, TimeUnit.SECONDS)).isTrue();
		// a plain caller shares the fresh read in flight
		FutureTask<Integer> plain = new FutureTask<>(() -> this.cache.get(this::read));
		Thread plainThread = new Thread(plain, "plain");
		plainThread.start();
		awaitWaitingInCache(plainThread);
		release.countDown();
		assertThat(leader.get(10, TimeUnit.SECONDS)).isOne();
		assertThat(plain.get(10, TimeUnit.SECONDS)).isOne();
		assertThat(this.reads).hasValue(1);
	}

	@Test
	void withADeadlineAFreshCallBehindAStuckReadStallsAndStartsNoSecondRead() throws Exception {
		ReadCache<Integer> timed = new ReadCache<>(Duration.ofHours(1), this.clock, Duration.ofMillis(50));
		CountDownLatch release = new CountDownLatch(1);
		CountDownLatch entered = new CountDownLatch(1);
		Supplier<Integer> stuck = () -> {
			ReadCache.reading("ibv_read_counters");
			entered.countDown();
			awaitUninterruptibly(release);
			return read();
		};
		assertThatExceptionOfType(ReadStalledException.class).isThrownBy(() -> timed.getFresh(stuck));
		assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
		assertThatExceptionOfType(ReadStalledException.class).isThrownBy(() -> timed.getFresh(this::read))
			.satisfies((ex) -> assertThat(ex.stall().what()).isEqualTo("ibv_read_counters"));
		assertThat(this.reads).hasValue(0);
		release.countDown();
		Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(5))
			.until(() -> timed.stall() == null && timed.reads() > 0);
		assertThat(timed.getFresh(this::read)).isEqualTo(2);
	}

	private static void awaitWaitingInCache(Thread thread) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!ReadCacheTests.isWaitingInCache(thread)) {
			if (System.nanoTime() > deadline) {
				fail("Timed out waiting until " + thread.getName() + " waits for the read in flight; it is "
						+ thread.getState());
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
		}
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
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
