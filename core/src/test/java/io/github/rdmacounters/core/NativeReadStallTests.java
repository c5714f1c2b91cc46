package io.github.rdmacounters.core;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.rdmacounters.testsupport.FakeVerbs;
import io.github.rdmacounters.testsupport.FakeVerbsExtension;
import io.github.rdmacounters.testsupport.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Tests for the read deadline of the native backend against the fake libibverbs, whose
 * {@code ibv_read_counters} and {@code ibv_query_port} are held as mlx5 holds them while
 * the firmware does not answer ({@link FakeVerbs#hold}): no caller waits past the
 * deadline, one read is in flight however many callers ask, a stuck read's result is not
 * taken for fresh data, and closing does not wait for the stuck call yet frees nothing
 * under it. Without the deadline a held call would not return, so each test has a time
 * limit.
 *
 * @author rdma-counters
 */
@ExtendWith(FakeVerbsExtension.class)
@Timeout(60)
class NativeReadStallTests {

	private static final Duration DEADLINE = Duration.ofMillis(200);

	/** What a caller may take beyond the deadline: the hand-over to the reader thread. */
	private static final Duration MARGIN = Duration.ofSeconds(1);

	private static final Duration FIRMWARE_TIMEOUT = Duration.ofSeconds(60);

	private final FakeVerbs fake = FakeVerbs.get();

	private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

	@AfterEach
	void release() {
		this.fake.release();
	}

	private ManagedDevice open(Duration readCacheTtl) {
		this.fake.device("mlx5_0").add();
		return new ManagedDeviceFactory(this.fake.backend(), readCacheTtl, this.clock, (name) -> null)
			.readDeadline(DEADLINE)
			.create(new DeviceDefinition("mlx5_0", List.of(CounterSetDefinition.of("all", 1, FlowSpec.any())), "rdma"),
					true);
	}

	private void deliver(int packets) throws Exception {
		for (int i = 0; i < packets; i++) {
			this.fake.deliver("mlx5_0", 1,
					Packet.udp(InetAddress.getByName("10.0.0.1"), 40000, InetAddress.getByName("10.0.0.2"), 443, 100));
		}
	}

	@Test
	void aHeldCounterReadAnswersAtTheDeadlineNamingTheCallAndRecoversWhenReleased() throws Exception {
		ManagedDevice device = open(Duration.ZERO);
		try {
			CounterSet set = device.counterSets().get(0);
			deliver(3);
			assertThat(set.read().value(CounterType.PACKETS)).isEqualTo(3);
			this.fake.hold("ibv_read_counters", FIRMWARE_TIMEOUT);
			long started = System.nanoTime();
			CounterSetReading reading = set.read();
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(DEADLINE.plus(MARGIN));
			assertThat(reading.isSuccess()).isFalse();
			assertThat(reading.stall()).isNotNull();
			assertThat(reading.stall().what()).isEqualTo("ibv_read_counters of set all on mlx5_0");
			assertThat(reading.value(CounterType.PACKETS)).as("not the last value").isZero();
			assertThat(this.fake.heldNow()).isOne();
			this.fake.release();
			await(() -> set.reads().stall() == null);
			assertThat(set.read().value(CounterType.PACKETS)).isEqualTo(3);
		}
		finally {
			this.fake.release();
			closeAndAwaitDestroyed(device);
		}
	}

	@Test
	void aThousandReadsDuringAHoldShareOneHeldCallAndAddNoThread() throws Exception {
		ManagedDevice device = open(Duration.ZERO);
		try {
			CounterSet set = device.counterSets().get(0);
			this.fake.hold("ibv_read_counters", FIRMWARE_TIMEOUT);
			assertThat(set.read().stall()).isNotNull();
			int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
			long started = System.nanoTime();
			for (int i = 0; i < 1000; i++) {
				assertThat(set.read().stall()).isNotNull();
			}
			int threadsAfter = ManagementFactory.getThreadMXBean().getThreadCount();
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("no read waits once the read is stuck")
				.isLessThan(DEADLINE.plus(MARGIN));
			assertThat(threadsAfter).as("threads before %d, after %d", threadsBefore, threadsAfter)
				.isLessThanOrEqualTo(threadsBefore);
			assertThat(this.fake.heldNow()).as("one read in flight").isOne();
			assertThat(this.fake.heldCalls()).isOne();
			assertThat(set.reads().stalls()).isOne();
			assertThat(assertTimeoutPreemptively(Duration.ofSeconds(1), () -> set.counters().points()))
				.as("the points without waiting for the held read")
				.isNotEmpty();
		}
		finally {
			this.fake.release();
			closeAndAwaitDestroyed(device);
		}
	}

	@Test
	void aStuckReadThatReturnsLateIsNotTakenForAFreshRead() throws Exception {
		ManagedDevice device = open(Duration.ofSeconds(1));
		try {
			CounterSet set = device.counterSets().get(0);
			deliver(1);
			assertThat(set.read().value(CounterType.PACKETS)).isOne();
			this.clock.advance(Duration.ofSeconds(2));
			this.fake.hold("ibv_read_counters", FIRMWARE_TIMEOUT);
			assertThat(set.read().stall()).isNotNull();
			// the firmware answers 10 s later
			this.clock.advance(Duration.ofSeconds(10));
			deliver(1);
			this.fake.release();
			await(() -> set.reads().stall() == null && this.fake.heldNow() == 0);
			deliver(1);
			CounterSetReading reading = set.read();
			assertThat(reading.isSuccess()).isTrue();
			assertThat(reading.value(CounterType.PACKETS)).as("a read of now, not the one begun 10 s ago").isEqualTo(3);
		}
		finally {
			this.fake.release();
			closeAndAwaitDestroyed(device);
		}
	}

	@Test
	void aHeldReadPastTheFirmwaresCommandTimeoutFailsWithEtimedoutAndTheNextReadIsNormal() throws Exception {
		ManagedDevice device = open(Duration.ZERO);
		try {
			CounterSet set = device.counterSets().get(0);
			deliver(2);
			this.fake.hold("ibv_read_counters", DEADLINE.multipliedBy(2));
			assertThat(set.read().stall()).isNotNull();
			await(() -> set.reads().stall() == null && this.fake.heldNow() == 0);
			CounterSetReading timedOut = set.reads().last();
			assertThat(timedOut).isNotNull();
			assertThat(timedOut.failure()).hasMessageContaining("ibv_read_counters failed: ETIMEDOUT (110)");
			assertThat(set.read().value(CounterType.PACKETS)).isEqualTo(2);
		}
		finally {
			this.fake.release();
			closeAndAwaitDestroyed(device);
		}
	}

	@Test
	void closingTheDeviceDuringAHeldReadDoesNotWaitAndDestroysInOrderOnceTheReadReturns() throws Exception {
		ManagedDevice device = open(Duration.ZERO);
		CounterSet set = device.counterSets().get(0);
		this.fake.hold("ibv_read_counters", FIRMWARE_TIMEOUT);
		assertThat(set.read().stall()).isNotNull();
		long started = System.nanoTime();
		device.close();
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(DEADLINE.plus(MARGIN));
		assertThat(this.fake.heldNow()).isOne();
		assertThat(this.fake.liveObjects()).as("nothing freed under the held read").isPositive();
		this.fake.release();
		await(() -> this.fake.liveObjects() == 0);
		assertThat(this.fake.misuseLog()).isEmpty();
	}

	@Test
	void closingTheCountersDuringAHeldReadBeforeItsDeadlineDoesNotWait() throws Exception {
		ManagedDevice device = open(Duration.ZERO);
		CounterSet set = device.counterSets().get(0);
		this.fake.hold("ibv_read_counters", FIRMWARE_TIMEOUT);
		Thread reader = new Thread(set::read);
		reader.start();
		await(() -> this.fake.heldNow() == 1);
		long started = System.nanoTime();
		set.close();
		device.close();
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(DEADLINE.plus(MARGIN));
		assertThat(this.fake.liveObjects()).as("nothing freed under the held read").isPositive();
		this.fake.release();
		reader.join(TimeUnit.SECONDS.toMillis(10));
		await(() -> this.fake.liveObjects() == 0);
		assertThat(this.fake.misuseLog()).isEmpty();
	}

	@Test
	void openingWithAHeldPortQueryAnswersAtTheDeadlineWithTheDeviceUnavailable() throws Exception {
		this.fake.device("mlx5_0").add();
		this.fake.hold("ibv_query_port", FIRMWARE_TIMEOUT);
		long started = System.nanoTime();
		ManagedDevice device = new ManagedDeviceFactory(this.fake.backend(), Duration.ZERO, this.clock, (name) -> null)
			.readDeadline(DEADLINE)
			.create(new DeviceDefinition("mlx5_0", List.of(CounterSetDefinition.of("all", FlowSpec.any())), "rdma"),
					false);
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(DEADLINE.plus(MARGIN));
		assertThat(device.isAvailable()).isFalse();
		assertThat(device.unavailabilityCause()).isInstanceOf(ReadStalledException.class)
			.hasMessageContaining("ibv_query_port of mlx5_0 port 1");
		assertThat(this.fake.heldNow()).isOne();
		this.fake.release();
		await(() -> this.fake.liveObjects() == 0);
		assertThat(this.fake.misuseLog()).isEmpty();
		device.close();
	}

	/**
	 * Close the device and wait until the fake has no live object: a device closed while
	 * a read was held is destroyed by its closer thread once the read has returned, so
	 * the extension's check after the test would otherwise race that thread.
	 */
	private void closeAndAwaitDestroyed(ManagedDevice device) {
		device.close();
		await(() -> this.fake.liveObjects() == 0);
	}

	private static void await(BooleanSupplier condition) {
		Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(5))
			.until(condition::getAsBoolean);
	}

}
