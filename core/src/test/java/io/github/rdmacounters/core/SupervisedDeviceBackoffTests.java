package io.github.rdmacounters.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.ScriptedBackend.EventfulDevice;
import io.github.rdmacounters.testsupport.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The waits of a {@link SupervisedDevice} between attempts to reopen it, seen through a
 * {@link SteppedSleeper} while the clock moves by hand: 100 ms doubling up to 1 s while
 * the device is gone, the initial wait again after a reopen that held for 1 s, twice the
 * last outage's first wait after one that did not.
 *
 * @author rdma-counters
 */
class SupervisedDeviceBackoffTests {

	private static final String DEVICE = "mlx5_0";

	private final ScriptedBackend backend = new ScriptedBackend(DEVICE);

	private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T00:00:00Z"));

	private final SteppedSleeper sleeper = new SteppedSleeper();

	private SupervisedDevice device;

	@AfterEach
	void close() {
		if (this.device != null) {
			this.device.close();
		}
	}

	@Test
	void whileTheDeviceIsGoneTheWaitsDoubleUpToTheMaximum() throws InterruptedException {
		EventfulDevice first = open();
		first.raise(DeviceEvent.Type.DEVICE_FATAL, 0);
		assertThat(this.device.failure()).isEqualTo("IBV_EVENT_DEVICE_FATAL");
		List<Long> waits = new ArrayList<>();
		for (int i = 0; i < 7; i++) {
			waits.add(this.sleeper.endNextWait());
		}
		assertThat(waits).containsExactly(100L, 200L, 400L, 800L, 1000L, 1000L, 1000L);
		assertThat(this.sleeper.nextWait()).isEqualTo(1000L);
		assertThat(this.backend.opens()).as("the first open and one per wait").isEqualTo(1 + 7);
		assertThat(first.isClosed()).isTrue();
		this.backend.present();
		this.sleeper.proceed();
		awaitReopens(1);
		assertThat(this.backend.opened()).hasSize(2);
		assertThat(this.device.current()).isSameAs(this.backend.opened().get(1));
	}

	@Test
	void aFailureAfterAReopenThatHeldForTheMaximumWaitsTheInitialWaitAgain() throws InterruptedException {
		EventfulDevice first = open();
		first.raise(DeviceEvent.Type.DEVICE_FATAL, 0);
		reopenAfterWaits(100L, 200L, 400L, 800L, 1000L);
		this.clock.advance(Duration.ofSeconds(1));
		failPortQueryWithEio(this.backend.opened().get(1));
		reopenAfterWaits(100L, 200L);
		assertThat(this.device.tracker().failures()).isEqualTo(2);
	}

	@Test
	void aFailureSoonerAfterAReopenStartsAtTwiceTheLastOutagesFirstWait() throws InterruptedException {
		EventfulDevice first = open();
		first.raise(DeviceEvent.Type.DEVICE_FATAL, 0);
		reopenAfterWaits(100L, 200L, 400L, 800L, 1000L);
		this.clock.advance(Duration.ofMillis(999));
		this.backend.opened().get(1).raise(DeviceEvent.Type.DEVICE_FATAL, 0);
		reopenAfterWaits(200L, 400L);
		this.backend.opened().get(2).raise(DeviceEvent.Type.DEVICE_FATAL, 0);
		reopenAfterWaits(400L);
		this.clock.advance(Duration.ofSeconds(1));
		this.backend.opened().get(3).raise(DeviceEvent.Type.DEVICE_FATAL, 0);
		reopenAfterWaits(100L);
		assertThat(this.device.tracker().reopens()).isEqualTo(4);
	}

	@Test
	void aReopenWhoseSetsCannotBeRecreatedIsRetriedWithTheNextWait() throws InterruptedException {
		EventfulDevice first = open();
		this.device.createSupervisedCounters(1, FlowSpec.any(), java.util.Map.of(CounterType.PACKETS, 0));
		first.raise(DeviceEvent.Type.DEVICE_FATAL, 0);
		EventfulDevice broken = this.backend.present();
		broken.scripted().beforeCreateFlow(() -> {
			throw new RdmaOperationException("ibv_create_flow", Errno.EIO);
		});
		assertThat(this.sleeper.endNextWait()).isEqualTo(100L);
		assertThat(this.sleeper.nextWait()).as("after the reopen that failed").isEqualTo(200L);
		assertThat(broken.isClosed()).as("the context whose sets failed").isTrue();
		assertThat(broken.listeners()).isEmpty();
		assertThat(broken.scripted().counters()).allSatisfy((counters) -> assertThat(counters.isClosed()).isTrue());
		assertThat(this.device.failure()).isNotNull();
		this.backend.present();
		this.sleeper.proceed();
		awaitReopens(1);
		assertThat(this.backend.opened().get(2).scripted().counters()).hasSize(1);
	}

	@Test
	void reopenNowEndsTheWaitOfAFailedDeviceThatIsBack() throws InterruptedException {
		EventfulDevice first = open();
		this.device.reopenNow();
		assertThat(this.backend.opens()).as("a device in service is left alone").isEqualTo(1);
		first.raise(DeviceEvent.Type.DEVICE_FATAL, 0);
		assertThat(this.sleeper.nextWait()).isEqualTo(100L);
		// RDMA netlink's monitor reports the device registered again during the wait
		this.backend.present();
		this.device.reopenNow();
		awaitReopens(1);
		assertThat(this.backend.opens()).as("no wait ended: the monitor cut it short").isEqualTo(2);
		assertThat(this.sleeper.noWaitPending()).isTrue();
	}

	private EventfulDevice open() {
		EventfulDevice first = this.backend.present();
		this.device = SupervisedDevice.open(this.backend, DEVICE, Duration.ofMillis(100), Duration.ofSeconds(1),
				Duration.ZERO, this.clock, this.sleeper);
		return first;
	}

	/**
	 * Let the reopening thread through waits it asks for, the device gone, then present
	 * it before the last one ends.
	 */
	private void reopenAfterWaits(Long... expected) throws InterruptedException {
		long reopens = this.device.tracker().reopens();
		List<Long> waits = new ArrayList<>();
		for (int i = 0; i < expected.length - 1; i++) {
			waits.add(this.sleeper.endNextWait());
		}
		// the thread is in its last wait: the device is back when it ends
		waits.add(this.sleeper.nextWait());
		this.backend.present();
		this.sleeper.proceed();
		assertThat(waits).containsExactly(expected);
		awaitReopens(reopens + 1);
		assertThat(this.sleeper.noWaitPending()).isTrue();
	}

	private void failPortQueryWithEio(EventfulDevice context) {
		context.scripted().failPortQuery(new RdmaOperationException("ibv_query_port", Errno.EIO));
		org.assertj.core.api.Assertions.assertThatExceptionOfType(RdmaOperationException.class)
			.isThrownBy(() -> this.device.queryPort(1));
		assertThat(this.device.failure()).contains("EIO");
	}

	private void awaitReopens(long reopens) {
		Awaitility.await("reopen " + reopens)
			.atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(1))
			.until(() -> this.device.tracker().reopens() == reopens && this.device.failure() == null);
	}

}
