package io.github.rdmacounters.libc;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.sun.jna.Memory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.libc.Wakeup.Ready;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Wakeup} on real eventfds: a signal from another thread ends a wait on
 * an idle descriptor, and stays signalled.
 *
 * @author rdma-counters
 */
class WakeupTests {

	private final LibC libc = LibC.get();

	private Wakeup wakeup;

	private FileDescriptor idle;

	@BeforeEach
	void open() {
		this.wakeup = Wakeup.open("a test");
		int fd = this.libc.eventfd(0, LibC.EFD_CLOEXEC | LibC.EFD_NONBLOCK);
		assertThat(fd).as("eventfd").isNotNegative();
		this.idle = FileDescriptor.adopt(fd, "An idle eventfd");
	}

	@AfterEach
	void close() {
		this.wakeup.close();
		this.idle.close();
	}

	private Ready await(int timeoutMillis) {
		int fd = this.idle.acquire();
		try {
			return this.wakeup.await(fd, timeoutMillis);
		}
		finally {
			this.idle.release();
		}
	}

	@Test
	void signalFromAnotherThreadEndsAWaitOnAnIdleDescriptor() throws Exception {
		CompletableFuture<Ready> waiting = CompletableFuture.supplyAsync(() -> await(600_000));
		this.wakeup.signal();
		assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo(Ready.WOKEN);
		assertThat(await(600_000)).as("still signalled").isEqualTo(Ready.WOKEN);
	}

	@Test
	void waitOnAnIdleDescriptorTimesOut() {
		assertThat(await(1)).isEqualTo(Ready.TIMED_OUT);
	}

	@Test
	void waitOnAReadableDescriptorReturnsReadable() {
		try (Memory one = new Memory(8)) {
			one.setLong(0, 1);
			int fd = this.idle.acquire();
			try {
				assertThat(this.libc.write(fd, one, 8)).isEqualTo(8);
			}
			finally {
				this.idle.release();
			}
		}
		assertThat(await(600_000)).isEqualTo(Ready.READABLE);
	}

	@Test
	void waitAfterCloseReturnsWokenAndSignalDoesNothing() {
		this.wakeup.close();
		this.wakeup.signal();
		assertThat(await(600_000)).isEqualTo(Ready.WOKEN);
	}

}
