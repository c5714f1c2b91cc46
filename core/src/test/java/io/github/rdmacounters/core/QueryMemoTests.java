package io.github.rdmacounters.core;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.fail;

/**
 * Tests for {@link QueryMemo}, on a clock the tests move.
 *
 * @author rdma-counters
 */
class QueryMemoTests {

	private final AtomicLong now = new AtomicLong(1_000_000_000L);

	private final AtomicInteger queries = new AtomicInteger();

	private final QueryMemo<Integer> memo = new QueryMemo<>(Duration.ofSeconds(1), this.now::get);

	private Integer query() {
		return this.queries.incrementAndGet();
	}

	@Test
	void withinTheTimeToLiveTheFirstOutcomeIsReusedAndAtItsEndTheNextCallQueries() {
		assertThat(this.memo.get(this::query)).isOne();
		this.now.addAndGet(Duration.ofMillis(999).toNanos());
		assertThat(this.memo.get(this::query)).isOne();
		this.now.addAndGet(Duration.ofMillis(1).toNanos());
		assertThat(this.memo.get(this::query)).isEqualTo(2);
		assertThat(this.queries).hasValue(2);
	}

	@Test
	void aClockGoingBackwardsMakesTheOutcomeStale() {
		this.memo.get(this::query);
		this.now.addAndGet(-1);
		assertThat(this.memo.get(this::query)).isEqualTo(2);
	}

	@Test
	void aFailureIsReusedForTheTimeToLive() {
		IllegalStateException failure = new IllegalStateException("EAGAIN");
		assertThatIllegalStateException().isThrownBy(() -> this.memo.get(() -> {
			this.queries.incrementAndGet();
			throw failure;
		}));
		assertThatIllegalStateException().isThrownBy(() -> this.memo.get(this::query)).isSameAs(failure);
		assertThat(this.queries).hasValue(1);
	}

	@Test
	void invalidateMakesTheNextCallQueryAndIsRecentForOneTimeToLiveUntilAQueryEnds() {
		this.memo.get(this::query);
		assertThat(this.memo.invalidatedRecently()).isFalse();
		this.memo.invalidate();
		assertThat(this.memo.invalidatedRecently()).isTrue();
		this.now.addAndGet(Duration.ofMillis(999).toNanos());
		assertThat(this.memo.invalidatedRecently()).isTrue();
		this.now.addAndGet(Duration.ofMillis(1).toNanos());
		assertThat(this.memo.invalidatedRecently()).isFalse();
		this.memo.invalidate();
		assertThat(this.memo.get(this::query)).isEqualTo(2);
		assertThat(this.memo.invalidatedRecently()).isFalse();
	}

	@Test
	void aQueryInFlightDuringAnInvalidationIsNotReused() throws Exception {
		CountDownLatch inQuery = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> this.memo.get(() -> {
			inQuery.countDown();
			await(release);
			return query();
		}));
		assertThat(inQuery.await(10, TimeUnit.SECONDS)).isTrue();
		this.memo.invalidate();
		release.countDown();
		assertThat(first.get(10, TimeUnit.SECONDS)).isOne();
		assertThat(this.memo.get(this::query)).isEqualTo(2);
	}

	@Test
	void callersDuringAQueryShareIt() throws Exception {
		CountDownLatch inQuery = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		CompletableFuture<Integer> leader = CompletableFuture.supplyAsync(() -> this.memo.get(() -> {
			inQuery.countDown();
			await(release);
			return query();
		}));
		assertThat(inQuery.await(10, TimeUnit.SECONDS)).isTrue();
		FutureTask<Integer> follower = new FutureTask<>(() -> this.memo.get(this::query));
		Thread followerThread = new Thread(follower, "follower");
		followerThread.start();
		// the follower joined the query in flight, not the outcome after it
		awaitWaitingInMemo(followerThread);
		release.countDown();
		assertThat(leader.get(10, TimeUnit.SECONDS)).isOne();
		assertThat(follower.get(10, TimeUnit.SECONDS)).isOne();
		assertThat(this.queries).hasValue(1);
	}

	@Test
	void aTimeToLiveOfZeroQueriesEveryTimeAndNeverCountsAnInvalidationAsRecent() {
		QueryMemo<Integer> always = new QueryMemo<>(Duration.ZERO, this.now::get);
		always.get(this::query);
		always.get(this::query);
		always.invalidate();
		assertThat(always.invalidatedRecently()).isFalse();
		assertThat(this.queries).hasValue(2);
	}

	@Test
	void aNegativeTimeToLiveIsRefusedNamingIt() {
		assertThatIllegalArgumentException().isThrownBy(() -> new QueryMemo<>(Duration.ofMillis(-1), this.now::get))
			.withMessageContaining("time-to-live")
			.withMessageContaining("PT-0.001S");
	}

	/**
	 * Wait until a thread waits in the memo: a caller that came while a query is in
	 * flight waits for it.
	 */
	private static void awaitWaitingInMemo(Thread thread) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!isWaitingInMemo(thread)) {
			if (System.nanoTime() > deadline) {
				fail("Timed out waiting until " + thread.getName() + " waits for the query in flight; it is "
						+ thread.getState());
			}
			Thread.sleep(1);
		}
	}

	private static boolean isWaitingInMemo(Thread thread) {
		Thread.State state = thread.getState();
		return (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING)
				&& Arrays.stream(thread.getStackTrace())
					.anyMatch((frame) -> frame.getClassName().equals(QueryMemo.class.getName()));
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
