package io.github.rdmacounters.events;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.CounterSetReading;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.DeviceDefinition;
import io.github.rdmacounters.core.DeviceEvent;
import io.github.rdmacounters.core.DeviceEventListener;
import io.github.rdmacounters.core.DeviceEventTracker;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.ManagedDeviceFactory;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.PortEventState;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.ReadMode;
import io.github.rdmacounters.core.SupervisedDevice;
import io.github.rdmacounters.testsupport.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract of device events and recovery, run against each backend by a subclass:
 * every event kind reaches the listeners with its port, port events update the tracked
 * port state with no query, every event is acknowledged, PORT_ERR during concurrent
 * scrapes and close is harmless, no event or reopening thread outlives its device, and a
 * device that goes away is reopened with its counter sets, whose values continue.
 *
 * @author rdma-counters
 */
abstract class AbstractDeviceEventsTests {

	static final String DEVICE = "mlx5_0";

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	/**
	 * The clock that ages the read cache of the managed devices: it moves only by hand.
	 */
	private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T12:00:00Z"));

	private final List<AutoCloseable> toClose = new ArrayList<>();

	/**
	 * Return a backend with one two-port device named {@link #DEVICE}, every port ACTIVE.
	 */
	abstract RdmaBackend backend();

	/** Set the port state and raise the event the hardware raises for it. */
	abstract void portDown(int port);

	abstract void portUp(int port);

	/** Raise an event on every open context of the device. */
	abstract void raise(DeviceEvent.Type type, int port);

	/** Make the device go away: DEVICE_FATAL, then every call fails with EIO. */
	abstract void removeDevice();

	abstract void restoreDevice();

	/** Make every counter read fail with EIO, or stop doing so. */
	abstract void failReadsWithEio(boolean on);

	/** Make a packet arrive at port 1. */
	abstract void deliver(Packet packet);

	/** Fail if the backend has live native objects or recorded misuse. */
	abstract void assertNothingLeft();

	/** Return how many times a query verb reached the device. */
	abstract long calls(String verb);

	@AfterEach
	void closeEverything() throws Exception {
		for (int i = this.toClose.size() - 1; i >= 0; i--) {
			this.toClose.get(i).close();
		}
		assertThat(eventThreads()).as("event and reopening threads left").isEmpty();
	}

	@ParameterizedTest
	@EnumSource(DeviceEvent.Type.class)
	void eachEventKindReachesTheListenerWithItsPort(DeviceEvent.Type type) throws Exception {
		RdmaDevice device = open();
		BlockingQueue<DeviceEvent> events = new LinkedBlockingQueue<>();
		device.addEventListener(events::add);
		raise(type, 2);
		DeviceEvent event = events.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(event).isNotNull();
		assertThat(event.type()).isEqualTo(type);
		assertThat(event.device()).isEqualTo(DEVICE);
		assertThat(event.port()).isEqualTo(type.isPortEvent() ? 2 : 0);
		device.close();
		assertThat(eventThreads()).isEmpty();
		assertNothingLeft();
	}

	@Test
	void forPortListenerReceivesItsPortAndDeviceEventsOnly() throws Exception {
		RdmaDevice device = open();
		BlockingQueue<DeviceEvent> events = new LinkedBlockingQueue<>();
		device.addEventListener(DeviceEventListener.forPort(1, events::add));
		raise(DeviceEvent.Type.LID_CHANGE, 2);
		raise(DeviceEvent.Type.GID_CHANGE, 1);
		raise(DeviceEvent.Type.DEVICE_FATAL, 0);
		assertThat(events.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).type())
			.isEqualTo(DeviceEvent.Type.GID_CHANGE);
		assertThat(events.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).type())
			.isEqualTo(DeviceEvent.Type.DEVICE_FATAL);
		assertThat(events).isEmpty();
	}

	@Test
	void eventsOfOneContextDoNotReachAClosedOne() throws Exception {
		RdmaDevice first = open();
		RdmaDevice second = open();
		BlockingQueue<DeviceEvent> firstEvents = new LinkedBlockingQueue<>();
		BlockingQueue<DeviceEvent> secondEvents = new LinkedBlockingQueue<>();
		first.addEventListener(firstEvents::add);
		second.addEventListener(secondEvents::add);
		first.close();
		raise(DeviceEvent.Type.SM_CHANGE, 1);
		assertThat(secondEvents.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isNotNull();
		assertThat(firstEvents).isEmpty();
	}

	@Test
	void portErrAndPortActiveUpdateTheTrackedStateAndCounts() {
		ManagedDevice managed = managed(Duration.ofMillis(10));
		DeviceEventTracker tracker = managed.events();
		assertThat(tracker).isNotNull();
		assertThat(tracker.portState(1)).isNull();
		portDown(1);
		await("PORT_ERR tracked", () -> tracker.portState(1) != null && !tracker.portState(1).isActive());
		assertThat(tracker.portState(1).state()).isEqualTo(PortState.DOWN);
		assertThat(tracker.portState(1).event()).isEqualTo(DeviceEvent.Type.PORT_ERR);
		assertThat(tracker.count(1, DeviceEvent.Type.PORT_ERR)).isOne();
		portUp(1);
		await("PORT_ACTIVE tracked", () -> tracker.portState(1).isActive());
		assertThat(tracker.count(1, DeviceEvent.Type.PORT_ACTIVE)).isOne();
		assertThat(tracker.counts()).containsEntry(1,
				Map.of(DeviceEvent.Type.PORT_ERR, 1L, DeviceEvent.Type.PORT_ACTIVE, 1L));
	}

	@Test
	void portErrDuringConcurrentScrapesAndCloseLeavesNothingBehind() throws Exception {
		for (int round = 0; round < 5; round++) {
			ManagedDevice managed = createManaged(Duration.ofMillis(10));
			CounterSet set = managed.counterSets().get(0);
			RdmaDevice device = managed.device();
			AtomicBoolean stop = new AtomicBoolean();
			AtomicReference<Throwable> unexpected = new AtomicReference<>();
			CountDownLatch started = new CountDownLatch(2);
			List<Thread> scrapers = new ArrayList<>();
			for (int i = 0; i < 2; i++) {
				Thread scraper = new Thread(() -> {
					started.countDown();
					while (!stop.get()) {
						try {
							set.read();
							device.queryPort(1);
						}
						catch (RuntimeException ex) {
							// a query racing close fails with RdmaClosedException
							if (!device.isClosed()) {
								unexpected.compareAndSet(null, ex);
							}
						}
					}
				});
				scrapers.add(scraper);
				scraper.start();
			}
			started.await();
			for (int i = 0; i < 20; i++) {
				portDown(1);
				portUp(1);
			}
			managed.close();
			stop.set(true);
			for (Thread scraper : scrapers) {
				scraper.join(TIMEOUT.toMillis());
			}
			assertThat(unexpected.get()).isNull();
			assertThat(eventThreads()).isEmpty();
			assertNothingLeft();
		}
	}

	@Test
	void closeJoinsTheEventThread() {
		RdmaDevice device = open();
		device.addEventListener((event) -> {
		});
		device.close();
		assertThat(eventThreads()).isEmpty();
	}

	@Test
	void deviceFatalThenDeviceBackReopensWithCountersThatContinue() throws Exception {
		ManagedDevice managed = managed(Duration.ofMillis(10));
		DeviceEventTracker tracker = managed.events();
		CounterSet set = managed.counterSets().get(0);
		Counters handle = set.counters();
		for (int i = 0; i < 3; i++) {
			deliver(packet(100));
		}
		assertThat(set.read().value(CounterType.PACKETS)).isEqualTo(3);
		assertThat(set.read().value(CounterType.BYTES)).isEqualTo(300);
		removeDevice();
		await("DEVICE_FATAL marks the device failed", () -> tracker.failure() != null);
		CounterSetReading failed = set.read();
		assertThat(failed.isSuccess()).isFalse();
		assertThat(failed.failedReads()).isPositive();
		assertThat(failed.value(CounterType.PACKETS)).isEqualTo(3);
		assertThat(tracker.count(0, DeviceEvent.Type.DEVICE_FATAL)).isOne();
		restoreDevice();
		await("the device is reopened", () -> tracker.failure() == null && tracker.reopens() == 1);
		assertThat(set.counters()).isSameAs(handle);
		for (int i = 0; i < 2; i++) {
			deliver(packet(50));
		}
		CounterSetReading resumed = set.read();
		assertThat(resumed.isSuccess()).isTrue();
		assertThat(resumed.value(CounterType.PACKETS)).isEqualTo(5);
		assertThat(resumed.value(CounterType.BYTES)).isEqualTo(400);
		assertThat(managed.device().queryPort(1).state()).isEqualTo(PortState.ACTIVE);
		managed.close();
		assertThat(eventThreads()).isEmpty();
		assertNothingLeft();
	}

	@Test
	void readsFailingWithEioMarkTheDeviceFailedAndItIsReopenedWithoutAnEvent() {
		ManagedDevice managed = managed(Duration.ofMillis(10));
		DeviceEventTracker tracker = managed.events();
		CounterSet set = managed.counterSets().get(0);
		deliver(packet(100));
		assertThat(set.read().value(CounterType.PACKETS)).isOne();
		failReadsWithEio(true);
		CounterSetReading failed = set.read();
		assertThat(failed.isSuccess()).isFalse();
		assertThat(failed.failure()).hasMessageContaining("EIO");
		assertThat(tracker.failures()).isPositive();
		failReadsWithEio(false);
		await("the device is reopened", () -> tracker.failure() == null && tracker.reopens() >= 1);
		deliver(packet(100));
		CounterSetReading resumed = set.read();
		assertThat(resumed.isSuccess()).isTrue();
		assertThat(resumed.value(CounterType.PACKETS)).isEqualTo(2);
		managed.close();
		assertThat(eventThreads()).isEmpty();
		assertNothingLeft();
	}

	@Test
	void closeWhileTheDeviceIsGoneStopsReopening() {
		ManagedDevice managed = managed(Duration.ofMillis(10));
		DeviceEventTracker tracker = managed.events();
		removeDevice();
		await("the device failed", () -> tracker.failure() != null);
		managed.close();
		assertThat(eventThreads()).isEmpty();
		restoreDevice();
		assertNothingLeft();
	}

	@Test
	void aPortErrMakesTheNextPortQueryAskTheDeviceWhichThenIsReusedAgain() {
		ManagedDevice managed = managed(Duration.ofMillis(10), Duration.ofHours(1));
		RdmaDevice device = managed.device();
		for (int i = 0; i < 10; i++) {
			assertThat(device.queryPort(1).state()).isEqualTo(PortState.ACTIVE);
		}
		long before = calls("ibv_query_port");
		portDown(1);
		await("PORT_ERR tracked", () -> managed.events().portState(1) != null);
		for (int i = 0; i < 10; i++) {
			assertThat(device.queryPort(1).state()).isEqualTo(PortState.DOWN);
		}
		assertThat(calls("ibv_query_port")).isEqualTo(before + 1);
	}

	@Test
	void aPortEventOfAnotherPortLeavesTheQueryOfThisPortCached() {
		ManagedDevice managed = managed(Duration.ofMillis(10), Duration.ofHours(1));
		RdmaDevice device = managed.device();
		device.queryPort(1);
		long before = calls("ibv_query_port");
		portDown(2);
		await("PORT_ERR of port 2 tracked", () -> managed.events().portState(2) != null);
		device.queryPort(1);
		assertThat(calls("ibv_query_port")).isEqualTo(before);
		assertThat(device.queryPort(2).state()).isEqualTo(PortState.DOWN);
		assertThat(calls("ibv_query_port")).isEqualTo(before + 1);
	}

	@Test
	void aStateAnEventSetStandsWithNoQueryUntilTheTimeToLivePassesThenAQueryCorrectsIt() {
		ManagedDevice managed = managed(Duration.ofMillis(10), Duration.ofSeconds(2));
		RdmaDevice device = managed.device();
		assertThat(device.queryPort(1).state()).isEqualTo(PortState.ACTIVE);
		long before = calls("ibv_query_port");
		// a PORT_ERR whose port is ACTIVE again by the time anyone asks (a flap whose
		// PORT_ACTIVE was lost)
		raise(DeviceEvent.Type.PORT_ERR, 1);
		await("PORT_ERR tracked", () -> managed.events().portState(1) != null);
		PortEventState standing = managed.portEventState(1);
		assertThat(standing).isNotNull();
		assertThat(standing.state()).isEqualTo(PortState.DOWN);
		this.clock.advance(Duration.ofMillis(1999));
		assertThat(managed.portEventState(1)).as("within the time-to-live").isNotNull();
		this.clock.advance(Duration.ofMillis(1));
		assertThat(managed.portEventState(1)).as("after the time-to-live").isNull();
		assertThat(calls("ibv_query_port")).as("no query while the event stood").isEqualTo(before);
		assertThat(device.queryPort(1).state()).isEqualTo(PortState.ACTIVE);
		assertThat(calls("ibv_query_port")).isEqualTo(before + 1);
		assertThat(managed.events().portState(1).state()).as("what the event taught is kept").isEqualTo(PortState.DOWN);
	}

	@Test
	void aQueryAfterAnEventEndsWhatTheEventSetAtOnce() {
		ManagedDevice managed = managed(Duration.ofMillis(10), Duration.ofHours(1));
		raise(DeviceEvent.Type.PORT_ERR, 1);
		await("PORT_ERR tracked", () -> managed.events().portState(1) != null);
		assertThat(managed.portEventState(1)).isNotNull();
		assertThat(managed.device().queryPort(1).state()).isEqualTo(PortState.ACTIVE);
		assertThat(managed.portEventState(1)).isNull();
	}

	@Test
	void afterAReopenTheDeviceIsQueriedOnceAgainAndItsPortsAgain() {
		ManagedDevice managed = managed(Duration.ofMillis(10), Duration.ofHours(1));
		DeviceEventTracker tracker = managed.events();
		RdmaDevice device = managed.device();
		for (int i = 0; i < 10; i++) {
			device.queryDevice();
			device.queryPort(1);
		}
		assertThat(calls("ibv_query_device")).as("one device query per open").isOne();
		long portQueries = calls("ibv_query_port");
		removeDevice();
		await("the device failed", () -> tracker.failure() != null);
		restoreDevice();
		await("the device is reopened", () -> tracker.failure() == null && tracker.reopens() == 1);
		for (int i = 0; i < 10; i++) {
			assertThat(device.queryDevice().physicalPortCount()).isEqualTo(2);
			assertThat(device.queryPort(1).state()).isEqualTo(PortState.ACTIVE);
		}
		assertThat(calls("ibv_query_device")).as("one device query per open").isEqualTo(2);
		assertThat(calls("ibv_query_port")).isEqualTo(portQueries + 1);
	}

	RdmaDevice open() {
		RdmaDevice device = backend().open(DEVICE);
		this.toClose.add(device);
		return device;
	}

	ManagedDevice managed(Duration backoff) {
		return managed(backoff, Duration.ZERO);
	}

	ManagedDevice managed(Duration backoff, Duration readCacheTtl) {
		ManagedDevice managed = createManaged(backoff, readCacheTtl);
		this.toClose.add(managed);
		return managed;
	}

	private ManagedDevice createManaged(Duration backoff) {
		return createManaged(backoff, Duration.ZERO);
	}

	private ManagedDevice createManaged(Duration backoff, Duration readCacheTtl) {
		CounterSetDefinition all = new CounterSetDefinition("all", 1,
				Map.of(CounterType.PACKETS, 0, CounterType.BYTES, 1), ReadMode.FRESH, FlowSpec.any());
		return new ManagedDeviceFactory(backend(), readCacheTtl, this.clock, (name) -> null)
			.reopenBackoff(backoff, backoff)
			.create(new DeviceDefinition(DEVICE, List.of(all), "rdma"), true);
	}

	static Packet packet(int length) {
		try {
			return Packet.udp(InetAddress.getByName("192.168.10.1"), 49152, InetAddress.getByName("192.168.10.2"), 4789,
					length); // VXLAN: a flow sees it (RoCEv2 would be taken by the HCA)
		}
		catch (UnknownHostException ex) {
			throw new IllegalStateException(ex);
		}
	}

	static List<String> eventThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.map(Thread::getName)
			.filter((name) -> name.startsWith("rdma-events-") || name.startsWith(SupervisedDevice.THREAD_PREFIX))
			.toList();
	}

	static void await(String what, BooleanSupplier condition) {
		Awaitility.await(what).atMost(TIMEOUT).pollInterval(Duration.ofMillis(2)).until(condition::getAsBoolean);
	}

}
