package io.github.rdmacounters.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.ScriptedBackend.EventfulDevice;
import io.github.rdmacounters.testsupport.LogCapture;
import io.github.rdmacounters.testsupport.MutableClock;
import io.github.rdmacounters.testsupport.ScriptedDevice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link SupervisedDevice} on scripted contexts, with the reopening thread
 * stepped by hand: what marks the device failed and what does not, what calls do while it
 * is failed or closed, the query cache per context, and what a reopen and a close
 * release.
 *
 * @author rdma-counters
 */
class SupervisedDeviceTests {

	private static final String DEVICE = "mlx5_0";

	private static final Map<CounterType, Integer> PACKETS = Map.of(CounterType.PACKETS, 0);

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
	void describesTheDeviceAndItsBackoffAsGiven() {
		EventfulDevice first = open(Duration.ofSeconds(5));
		assertThat(this.device.name()).isEqualTo(DEVICE);
		assertThat(this.device.backend()).isEqualTo("scripted");
		assertThat(this.device.initialBackoff()).isEqualTo(Duration.ofMillis(100));
		assertThat(this.device.maxBackoff()).isEqualTo(Duration.ofSeconds(1));
		assertThat(this.device.current()).isSameAs(first);
		assertThat(this.device.tracker().device()).isEqualTo(DEVICE);
		assertThat(this.device.failure()).isNull();
		assertThat(this.device.isClosed()).isFalse();
		assertThat(this.device).hasToString(first.toString());
	}

	@Test
	void aNegativeReadCacheTimeToLiveIsRefusedBeforeTheDeviceIsOpened() {
		this.backend.present();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SupervisedDevice.open(this.backend, DEVICE, Duration.ofMillis(1), Duration.ofMillis(1),
					Duration.ofMillis(-1), this.clock))
			.withMessage("Read cache time-to-live must not be negative, but was PT-0.001S");
		assertThat(this.backend.opens()).isZero();
	}

	@Test
	void aDeviceThatCannotReportEventsIsClosedAndTheFailureThrown() {
		EventfulDevice context = this.backend.present();
		IllegalStateException refused = new IllegalStateException("no events");
		RdmaOperationException closeFailure = new RdmaOperationException("ibv_close_device", Errno.EIO);
		context.failAddListener(refused);
		context.failClose(closeFailure);
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> SupervisedDevice.open(this.backend, DEVICE, Duration.ofMillis(1), Duration.ofMillis(1),
					Duration.ZERO, this.clock))
			.isSameAs(refused)
			.satisfies((ex) -> assertThat(ex.getSuppressed()).containsExactly(closeFailure));
		assertThat(context.isClosed()).isTrue();
	}

	@Test
	void enodevAndEioMarkTheDeviceFailedOtherErrorsDoNot() {
		assertThat(SupervisedDevice.isDeviceGone(new RdmaOperationException("ibv_query_port", Errno.ENODEV))).isTrue();
		assertThat(SupervisedDevice.isDeviceGone(new RdmaOperationException("ibv_query_port", Errno.EIO))).isTrue();
		assertThat(SupervisedDevice.isDeviceGone(new RdmaOperationException("ibv_query_port", Errno.EINVAL))).isFalse();
		EventfulDevice first = open(Duration.ZERO);
		first.scripted().failPortQuery(new RdmaOperationException("ibv_query_port", Errno.EINVAL));
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(() -> this.device.queryPort(1));
		assertThat(this.device.failure()).isNull();
		first.scripted().failPortQuery(new RdmaOperationException("ibv_query_port", Errno.ENODEV));
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(() -> this.device.queryPort(1));
		assertThat(this.device.failure()).isEqualTo("ibv_query_port failed: ENODEV (19) No such device");
		assertThat(this.device.tracker().failures()).isOne();
	}

	@Test
	void whileFailedEveryCallFailsNamingTheReasonAndNothingReachesTheOldContext() throws InterruptedException {
		EventfulDevice first = open(Duration.ZERO);
		first.raise(DeviceEvent.Type.DEVICE_FATAL, 0);
		this.sleeper.nextWait();
		assertThat(first.isClosed()).isTrue();
		assertThat(first.listeners()).as("the failed context's listeners").isEmpty();
		String message = "Device mlx5_0 is unavailable while it is reopened (IBV_EVENT_DEVICE_FATAL)";
		assertThatExceptionOfType(RdmaException.class).isThrownBy(this.device::queryDevice).withMessage(message);
		assertThatExceptionOfType(RdmaException.class).isThrownBy(() -> this.device.queryPort(1)).withMessage(message);
		assertThatExceptionOfType(RdmaException.class).isThrownBy(this.device::createCounters).withMessage(message);
		assertThatExceptionOfType(RdmaException.class)
			.isThrownBy(
					() -> this.device.createFlow(1, FlowSpec.any(), new ScriptedDevice(DEVICE, "x").createCounters()))
			.withMessage(message);
		assertThatExceptionOfType(RdmaException.class)
			.isThrownBy(() -> this.device.createSupervisedCounters(1, FlowSpec.any(), PACKETS))
			.withMessage(message);
		assertThat(this.device).hasToString(first + " (failed, reopening)");
	}

	@Test
	void aSecondFailureWhileReopeningStartsNoSecondThread() throws InterruptedException {
		EventfulDevice first = open(Duration.ZERO);
		first.raise(DeviceEvent.Type.DEVICE_FATAL, 0);
		this.device.fail("ibv_read_counters failed: EIO", null);
		assertThat(this.device.failure()).isEqualTo("IBV_EVENT_DEVICE_FATAL");
		assertThat(this.device.tracker().failures()).isOne();
		assertThat(this.sleeper.nextWait()).isEqualTo(100L);
		assertThat(reopeningThreads()).hasSize(1);
		assertThat(Thread.getAllStackTraces().keySet())
			.filteredOn((thread) -> thread.getName().equals(SupervisedDevice.THREAD_PREFIX + DEVICE))
			.singleElement()
			.as("a daemon: it never keeps the JVM alive")
			.satisfies((thread) -> assertThat(thread.isDaemon()).isTrue());
	}

	@Test
	void aCloseInterruptedWhileItWaitsForTheReopeningThreadStillWaitsAndKeepsTheInterrupt()
			throws InterruptedException {
		EventfulDevice first = open(Duration.ZERO);
		first.raise(DeviceEvent.Type.DEVICE_FATAL, 0);
		this.sleeper.nextWait();
		EventfulDevice late = this.backend.present();
		CountDownLatch inQuery = new CountDownLatch(1);
		AtomicBoolean release = new AtomicBoolean();
		// the reopening thread is busy in a query, deaf to interrupts, until released
		late.beforeQueryDevice(() -> {
			inQuery.countDown();
			while (!release.get()) {
				Thread.onSpinWait();
			}
		});
		this.sleeper.proceed();
		assertThat(inQuery.await(10, TimeUnit.SECONDS)).isTrue();
		AtomicBoolean interruptedAfterClose = new AtomicBoolean();
		Thread closer = new Thread(() -> {
			this.device.close();
			interruptedAfterClose.set(Thread.currentThread().isInterrupted());
		});
		closer.start();
		Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> closer.getState() == Thread.State.WAITING);
		closer.interrupt();
		Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> closer.getState() == Thread.State.WAITING);
		assertThat(closer.isAlive()).as("still waiting for the reopening thread").isTrue();
		release.set(true);
		closer.join(10_000);
		assertThat(closer.isAlive()).isFalse();
		assertThat(interruptedAfterClose.get()).isTrue();
		assertThat(late.isClosed()).isTrue();
		assertThat(reopeningThreads()).isEmpty();
	}

	@Test
	void aReopenThatFailsOnTheSecondSetLeavesTheFirstUnboundUntilTheNextReopen() throws InterruptedException {
		EventfulDevice first = open(Duration.ZERO);
		Counters web = this.device.createSupervisedCounters(1, FlowSpec.any(), PACKETS);
		this.device.createSupervisedCounters(1, FlowSpec.any(), PACKETS);
		first.raise(DeviceEvent.Type.DEVICE_FATAL, 0);
		this.sleeper.nextWait();
		EventfulDevice broken = this.backend.present();
		AtomicInteger flows = new AtomicInteger();
		broken.scripted().beforeCreateFlow(() -> {
			if (flows.incrementAndGet() == 2) {
				throw new RdmaOperationException("ibv_create_flow", Errno.ENOMEM);
			}
		});
		this.sleeper.proceed();
		this.sleeper.nextWait();
		assertThat(broken.isClosed()).isTrue();
		assertThat(broken.listeners()).isEmpty();
		assertThat(web.isBound()).isFalse();
		assertThatExceptionOfType(RdmaException.class).isThrownBy(() -> web.read(ReadMode.FRESH))
			.isNotInstanceOf(RdmaClosedException.class)
			.withMessageContaining("IBV_EVENT_DEVICE_FATAL");
		this.backend.present();
		this.sleeper.proceed();
		Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> this.device.tracker().reopens() == 1);
		assertThat(web.isBound()).isTrue();
		assertThat(this.backend.opened().get(2).scripted().counters()).hasSize(2);
	}

	@Test
	void aFailureWithACauseLogsItAtDebug() throws InterruptedException {
		open(Duration.ZERO);
		RdmaOperationException cause = new RdmaOperationException("ibv_read_counters", Errno.EIO);
		try (LogCapture log = LogCapture.of(SupervisedDevice.class)) {
			this.device.fail(cause.getMessage(), cause);
			assertThat(log.records()).anySatisfy((record) -> {
				assertThat(record.getLevel()).isEqualTo(Level.FINE);
				assertThat(record.getMessage()).isEqualTo("Failure of RDMA device mlx5_0");
				assertThat(record.getThrown()).isSameAs(cause);
			});
		}
	}

	@Test
	void afterCloseEveryCallThrowsClosedAndNoFailureIsRecorded() {
		EventfulDevice first = open(Duration.ofHours(1));
		this.device.queryDevice();
		this.device.queryPort(1);
		this.device.close();
		assertThat(this.device.isClosed()).isTrue();
		assertThat(first.isClosed()).isTrue();
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(this.device::queryDevice);
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(() -> this.device.queryPort(1));
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(this.device::createCounters);
		assertThatExceptionOfType(RdmaClosedException.class)
			.isThrownBy(() -> this.device.createSupervisedCounters(1, FlowSpec.any(), PACKETS))
			.withMessage("Device mlx5_0 is closed");
		this.device.fail("too late", null);
		assertThat(this.device.failure()).isNull();
		assertThat(reopeningThreads()).isEmpty();
		this.device.close();
	}

	@Test
	void closeWhileReopeningStopsTheThreadAndOpensNothingMore() throws InterruptedException {
		EventfulDevice first = open(Duration.ZERO);
		first.raise(DeviceEvent.Type.DEVICE_FATAL, 0);
		this.sleeper.nextWait();
		int opens = this.backend.opens();
		this.device.close();
		assertThat(reopeningThreads()).isEmpty();
		assertThat(this.backend.opens()).isEqualTo(opens);
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
	}

	@Test
	void theDeviceQueryIsAskedOncePerContext() throws InterruptedException {
		EventfulDevice first = open(Duration.ZERO);
		DeviceAttributes attributes = this.device.queryDevice();
		first.failDeviceQuery(new IllegalStateException("asked twice"));
		assertThat(this.device.queryDevice()).isSameAs(attributes);
		first.raise(DeviceEvent.Type.DEVICE_FATAL, 0);
		reopen();
		EventfulDevice second = this.backend.opened().get(1);
		second.failDeviceQuery(new IllegalStateException("asked after the reopen's own query"));
		assertThat(this.device.queryDevice()).isEqualTo(attributes).isNotSameAs(attributes);
	}

	@Test
	void aPortQueryIsReusedForTheTimeToLiveAFailedOneToo() {
		EventfulDevice first = open(Duration.ofSeconds(5));
		assertThat(this.device.queryPort(1).state()).isEqualTo(PortState.ACTIVE);
		first.scripted().setPortState(PortState.DOWN);
		this.clock.advance(Duration.ofMillis(4999));
		assertThat(this.device.queryPort(1).state()).isEqualTo(PortState.ACTIVE);
		this.clock.advance(Duration.ofMillis(1));
		assertThat(this.device.queryPort(1).state()).isEqualTo(PortState.DOWN);
		assertThat(this.device.queryPort(2).state()).as("each port its own").isEqualTo(PortState.DOWN);
		first.scripted().failPortQuery(new RdmaOperationException("ibv_query_port", Errno.EINVAL));
		this.clock.advance(Duration.ofSeconds(5));
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(() -> this.device.queryPort(1));
		first.scripted().failPortQuery(null);
		assertThatExceptionOfType(RdmaOperationException.class).as("the failure is reused")
			.isThrownBy(() -> this.device.queryPort(1));
	}

	@Test
	void aPortNumberOutOfRangeAsksTheContextEveryTime() {
		EventfulDevice first = open(Duration.ofHours(1));
		for (int port : new int[] { 0, PortAttributes.MAX_PORT + 1 }) {
			first.scripted().failPortQuery(null);
			assertThat(this.device.queryPort(port).port()).isEqualTo(port);
			first.scripted().failPortQuery(new IllegalArgumentException("port " + port));
			assertThatIllegalArgumentException().isThrownBy(() -> this.device.queryPort(port))
				.withMessage("port " + port);
		}
		first.scripted().failPortQuery(null);
		this.device.queryPort(PortAttributes.MAX_PORT);
		first.scripted().failPortQuery(new IllegalArgumentException("asked again"));
		assertThat(this.device.queryPort(PortAttributes.MAX_PORT).port()).as("the highest port is cached")
			.isEqualTo(PortAttributes.MAX_PORT);
	}

	@Test
	void aPortEventDropsThatPortsQueryBeforeListenersHearOfIt() {
		EventfulDevice first = open(Duration.ofHours(1));
		assertThat(this.device.portEventState(1)).isNull();
		this.device.queryPort(1);
		this.device.queryPort(2);
		first.scripted().setPortState(PortState.DOWN);
		List<PortState> seen = new CopyOnWriteArrayList<>();
		DeviceEventListener listener = (event) -> seen.add(this.device.queryPort(event.port()).state());
		this.device.addEventListener(listener);
		first.raise(DeviceEvent.Type.PORT_ERR, 1);
		assertThat(seen).as("a listener asks the device").containsExactly(PortState.DOWN);
		assertThat(this.device.queryPort(2).state()).as("another port's query stays").isEqualTo(PortState.ACTIVE);
		this.device.removeEventListener(listener);
		first.raise(DeviceEvent.Type.LID_CHANGE, 2);
		assertThat(seen).hasSize(1);
		assertThat(this.device.queryPort(2).state()).as("any port event drops the query").isEqualTo(PortState.DOWN);
		assertThat(this.device.tracker().count(2, DeviceEvent.Type.LID_CHANGE)).isOne();
	}

	@Test
	void theStateAPortEventSetStandsWhileNoQueryEndedSinceWithinTheTimeToLive() {
		EventfulDevice first = open(Duration.ofSeconds(2));
		first.raise(DeviceEvent.Type.PORT_ERR, 1);
		assertThat(this.device.portEventState(1)).extracting(PortEventState::state).isEqualTo(PortState.DOWN);
		this.clock.advance(Duration.ofSeconds(2));
		assertThat(this.device.portEventState(1)).as("older than the time-to-live").isNull();
		first.raise(DeviceEvent.Type.PORT_ACTIVE, 1);
		assertThat(this.device.portEventState(1)).extracting(PortEventState::state).isEqualTo(PortState.ACTIVE);
		this.device.queryPort(1);
		assertThat(this.device.portEventState(1)).as("a query ended since").isNull();
	}

	@Test
	void applicationCountersAndFlowsBelongToTheCurrentContext() {
		EventfulDevice first = open(Duration.ZERO);
		Counters counters = this.device.createCounters();
		Flow flow = this.device.createFlow(1, FlowSpec.any(), counters);
		assertThat(first.scripted().counters()).singleElement().isSameAs(counters);
		assertThat(first.scripted().counters().get(0).flows()).containsExactly(flow);
	}

	@Test
	void aReopenRecreatesTheSetsAndForgetsTheQueriesAndAClosedSetIsNotRecreated() throws InterruptedException {
		EventfulDevice first = open(Duration.ofHours(1));
		Counters kept = this.device.createSupervisedCounters(1, FlowSpec.any(), PACKETS);
		Counters closed = this.device.createSupervisedCounters(2, FlowSpec.any(), PACKETS);
		assertThat(first.scripted().counters()).hasSize(2);
		this.device.queryPort(1);
		closed.close();
		first.raise(DeviceEvent.Type.DEVICE_FATAL, 0);
		assertThat(kept.isBound()).isFalse();
		reopen();
		EventfulDevice second = this.backend.opened().get(1);
		assertThat(this.device.current()).isSameAs(second);
		assertThat(second.listeners()).hasSize(1);
		assertThat(second.scripted().counters()).singleElement()
			.satisfies((counters) -> assertThat(counters.flows()).singleElement()
				.satisfies((flow) -> assertThat(flow.port()).isEqualTo(1)));
		assertThat(kept.isBound()).isTrue();
		second.scripted().setPortState(PortState.DOWN);
		assertThat(this.device.queryPort(1).state()).as("asked of the new context").isEqualTo(PortState.DOWN);
		assertThat(this.device.tracker().reopens()).isOne();
	}

	@Test
	void aFailedContextThatFailsToCloseIsLeftAndTheDeviceReopened() throws InterruptedException {
		EventfulDevice first = open(Duration.ZERO);
		RdmaOperationException closeFailure = new RdmaOperationException("ibv_close_device", Errno.EIO);
		first.failClose(closeFailure);
		try (LogCapture log = LogCapture.of(SupervisedDevice.class)) {
			first.raise(DeviceEvent.Type.DEVICE_FATAL, 0);
			reopen();
			assertThat(log.messages(Level.FINE))
				.contains("Closing the failed context of RDMA device mlx5_0 failed: " + closeFailure.getMessage());
			assertThat(this.device.current()).isNotSameAs(first);
		}
	}

	@Test
	void aContextOpenedWhileTheDeviceClosesIsClosedAgain() throws InterruptedException {
		EventfulDevice first = open(Duration.ZERO);
		first.raise(DeviceEvent.Type.DEVICE_FATAL, 0);
		this.sleeper.nextWait();
		EventfulDevice late = this.backend.present();
		Thread closer = new Thread(this.device::close, "closer");
		CountDownLatch closing = new CountDownLatch(1);
		// close() comes in while the reopening thread asks the new context
		late.beforeQueryDevice(() -> {
			closer.start();
			closing.countDown();
			while (!this.device.isClosed()) {
				Thread.onSpinWait();
			}
		});
		this.sleeper.proceed();
		assertThat(closing.await(10, TimeUnit.SECONDS)).isTrue();
		closer.join(10_000);
		assertThat(closer.isAlive()).isFalse();
		assertThat(late.isClosed()).isTrue();
		assertThat(this.device.current()).isSameAs(first);
		assertThat(this.device.tracker().reopens()).isZero();
		assertThat(reopeningThreads()).isEmpty();
	}

	private EventfulDevice open(Duration readCacheTtl) {
		EventfulDevice first = this.backend.present();
		this.device = SupervisedDevice.open(this.backend, DEVICE, Duration.ofMillis(100), Duration.ofSeconds(1),
				readCacheTtl, this.clock, this.sleeper);
		return first;
	}

	/** Let the reopening thread through its first wait with the device present. */
	private void reopen() throws InterruptedException {
		long reopens = this.device.tracker().reopens();
		this.sleeper.nextWait();
		this.backend.present();
		this.sleeper.proceed();
		Awaitility.await("the reopen")
			.atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(1))
			.until(() -> this.device.tracker().reopens() == reopens + 1);
	}

	private static List<String> reopeningThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.map(Thread::getName)
			.filter((name) -> name.equals(SupervisedDevice.THREAD_PREFIX + DEVICE))
			.toList();
	}

}
