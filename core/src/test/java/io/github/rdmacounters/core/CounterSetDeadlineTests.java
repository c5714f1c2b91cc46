package io.github.rdmacounters.core;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.github.rdmacounters.testsupport.ScriptedDevice;
import io.github.rdmacounters.testsupport.ScriptedDevice.ScriptedCounters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the read deadline of a {@link CounterSet} and the close of a
 * {@link ManagedDevice} while a read is stuck. The stuck read is the scripted counters'
 * read held where the native call would be. Without the deadline the read would not
 * return, so each test has a time limit.
 *
 * @author rdma-counters
 */
@Timeout(30)
class CounterSetDeadlineTests {

	private static final Duration DEADLINE = Duration.ofMillis(100);

	private final CountDownLatch release = new CountDownLatch(1);

	private final CountDownLatch entered = new CountDownLatch(1);

	private final ScriptedDevice device = new ScriptedDevice("mlx5_0", "native");

	private final ScriptedCounters counters = (ScriptedCounters) this.device.createCounters();

	private final CounterSet set;

	CounterSetDeadlineTests() {
		this.counters.attach(CounterType.PACKETS, 0);
		this.device.createFlow(1, FlowSpec.any(), this.counters);
		this.set = new CounterSet("roce", "mlx5_0", 1, FlowSpec.any(), Map.of(CounterType.PACKETS, 0), ReadMode.FRESH,
				this.counters, Duration.ZERO, Clock.systemUTC(), DEADLINE);
		this.counters.add(7, 0);
	}

	@AfterEach
	void let() {
		this.release.countDown();
	}

	private void stick() {
		this.counters.beforeRead(() -> {
			this.entered.countDown();
			try {
				this.release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
	}

	@Test
	void aStuckReadAnswersAtTheDeadlineWithoutValuesNamingTheCall() throws InterruptedException {
		assertThat(this.set.read().value(CounterType.PACKETS)).isEqualTo(7);
		stick();
		long started = System.nanoTime();
		CounterSetReading reading = this.set.read();
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(DEADLINE.plusMillis(900));
		assertThat(reading.stall()).isNotNull();
		assertThat(reading.isSuccess()).isFalse();
		assertThat(reading.value(CounterType.PACKETS)).as("not the last value").isZero();
		assertThat(this.entered.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(this.set.read().stall().what()).isEqualTo("ibv_read_counters of set roce on mlx5_0");
		assertThat(this.set.reads().stalls()).isOne();
		this.counters.beforeRead(() -> {
		});
		this.release.countDown();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.set.read().stall() == null);
		assertThat(this.set.read().value(CounterType.PACKETS)).isEqualTo(7);
	}

	@Test
	void closingADeviceWithAStuckReadDoesNotWaitAndClosesItsCountersWhenTheReadReturns() throws InterruptedException {
		stick();
		assertThat(this.set.read().stall()).isNotNull();
		assertThat(this.entered.await(10, TimeUnit.SECONDS)).isTrue();
		ManagedDevice managed = new ManagedDevice(this.device, List.of(this.set), null);
		long started = System.nanoTime();
		managed.close();
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
		assertThat(this.counters.isClosed()).as("not freed under the stuck read").isFalse();
		this.release.countDown();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.counters.isClosed() && this.device.isClosed());
		assertThat(this.counters.isClosed()).isTrue();
		assertThat(this.device.isClosed()).isTrue();
	}

}
