package io.github.rdmacounters.libc;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.RdmaClosedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link FileDescriptor}, with a counting stand-in for {@code close(2)}: closed
 * once under racing closes, never while a call holds it, never used after close.
 *
 * @author rdma-counters
 */
class FileDescriptorTests {

	private static final int ROUNDS = 500;

	private final ExecutorService threads = Executors.newFixedThreadPool(4);

	private final AtomicInteger closes = new AtomicInteger();

	private final AtomicInteger interrupts = new AtomicInteger();

	private final AtomicInteger releases = new AtomicInteger();

	private final AtomicInteger inCall = new AtomicInteger();

	private final AtomicInteger closedUnderACall = new AtomicInteger();

	@AfterEach
	void stopThreads() throws InterruptedException {
		this.threads.shutdownNow();
		assertThat(this.threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
	}

	private FileDescriptor descriptor() {
		return new FileDescriptor(42, "The test socket", (fd) -> {
			assertThat(fd).isEqualTo(42);
			if (this.inCall.get() != 0) {
				this.closedUnderACall.incrementAndGet();
			}
			this.closes.incrementAndGet();
			return 0;
		}, this.interrupts::incrementAndGet, this.releases::incrementAndGet);
	}

	@Test
	void closeTwiceClosesOnce() {
		FileDescriptor fd = descriptor();
		fd.close();
		fd.close();
		assertThat(this.closes).hasValue(1);
		assertThat(this.releases).hasValue(1);
		assertThat(this.interrupts).hasValue(0);
		assertThat(fd.isClosed()).isTrue();
		assertThat(fd.isReleased()).isTrue();
	}

	@Test
	void racingClosesCloseOnce() throws Exception {
		for (int round = 0; round < ROUNDS; round++) {
			this.closes.set(0);
			FileDescriptor fd = descriptor();
			CountDownLatch start = new CountDownLatch(1);
			List<Future<?>> closers = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				closers.add(this.threads.submit(() -> {
					start.await();
					fd.close();
					return null;
				}));
			}
			start.countDown();
			for (Future<?> closer : closers) {
				closer.get(10, TimeUnit.SECONDS);
			}
			assertThat(this.closes).as("closes in round %d", round).hasValue(1);
		}
	}

	@Test
	void useAfterCloseThrowsAndNeverReachesTheKernel() {
		FileDescriptor fd = descriptor();
		fd.close();
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(fd::acquire)
			.withMessage("The test socket is closed");
		assertThat(fd.tryAcquire()).isEqualTo(-1);
		assertThat(this.closes).hasValue(1);
	}

	@Test
	void closeDuringACallClosesWhenTheCallLeaves() {
		FileDescriptor fd = descriptor();
		assertThat(fd.acquire()).isEqualTo(42);
		fd.close();
		assertThat(fd.isClosed()).isTrue();
		assertThat(fd.isReleased()).isFalse();
		assertThat(this.closes).hasValue(0);
		assertThat(this.interrupts).as("the blocking call was woken").hasValue(1);
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(fd::acquire);
		fd.release();
		assertThat(this.closes).hasValue(1);
		assertThat(this.releases).hasValue(1);
		assertThat(fd.isReleased()).isTrue();
	}

	@Test
	void closeDuringTwoCallsClosesWhenTheLastLeaves() {
		FileDescriptor fd = descriptor();
		fd.acquire();
		fd.acquire();
		fd.close();
		fd.release();
		assertThat(this.closes).hasValue(0);
		fd.release();
		assertThat(this.closes).hasValue(1);
	}

	@Test
	void closeRacingCallsNeverClosesUnderACall() throws Exception {
		for (int round = 0; round < ROUNDS; round++) {
			this.closes.set(0);
			FileDescriptor fd = descriptor();
			CountDownLatch running = new CountDownLatch(3);
			List<Future<Integer>> callers = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				callers.add(this.threads.submit(() -> {
					int calls = 0;
					running.countDown();
					while (fd.tryAcquire() >= 0) {
						this.inCall.incrementAndGet();
						calls++;
						this.inCall.decrementAndGet();
						fd.release();
					}
					return calls;
				}));
			}
			assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
			fd.close();
			for (Future<Integer> caller : callers) {
				caller.get(10, TimeUnit.SECONDS);
			}
			assertThat(this.closes).as("closes in round %d", round).hasValue(1);
		}
		assertThat(this.closedUnderACall).hasValue(0);
	}

	@Test
	void releaseWithoutAcquireIsRefused() {
		FileDescriptor fd = descriptor();
		assertThatIllegalStateException().isThrownBy(fd::release).withMessageContaining("The test socket");
	}

	@Test
	void negativeNumberIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> FileDescriptor.adopt(-1, "A failed socket"))
			.withMessageContaining("-1");
	}

}
