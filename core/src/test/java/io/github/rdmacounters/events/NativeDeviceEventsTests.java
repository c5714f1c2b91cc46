package io.github.rdmacounters.events;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.rdmacounters.core.DeviceEvent;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.testsupport.FakeVerbs;
import io.github.rdmacounters.testsupport.FakeVerbsExtension;
import io.github.rdmacounters.testsupport.LogCapture;
import io.github.rdmacounters.verbs.NativeBackend;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Device events and recovery on the native backend, against the fake libibverbs: events
 * go through the context's {@code async_fd}, {@code ibv_get_async_event} and
 * {@code ibv_ack_async_event}; the fake records an unacknowledged event or a call on a
 * closed context as misuse.
 *
 * @author rdma-counters
 */
@ExtendWith(FakeVerbsExtension.class)
class NativeDeviceEventsTests extends AbstractDeviceEventsTests {

	private final FakeVerbs fake = FakeVerbs.get();

	private final NativeBackend backend = this.fake.backend();

	@BeforeEach
	void addDevice() {
		this.fake.device(DEVICE).ports(2).add();
	}

	@Override
	RdmaBackend backend() {
		return this.backend;
	}

	@Override
	void portDown(int port) {
		this.fake.portDown(DEVICE, port);
	}

	@Override
	void portUp(int port) {
		this.fake.portUp(DEVICE, port);
	}

	@Override
	void raise(DeviceEvent.Type type, int port) {
		this.fake.raiseAsyncEvent(DEVICE, type, port);
	}

	@Override
	void removeDevice() {
		this.fake.removeDevice(DEVICE);
	}

	@Override
	void restoreDevice() {
		this.fake.restoreDevice(DEVICE);
	}

	@Override
	void failReadsWithEio(boolean on) {
		if (on) {
			this.fake.failAlways("ibv_read_counters", Errno.EIO);
		}
		else {
			this.fake.clearFaults();
		}
	}

	@Override
	void deliver(Packet packet) {
		this.fake.deliver(DEVICE, 1, packet);
	}

	@Override
	long calls(String verb) {
		return this.fake.calls(verb);
	}

	@Test
	void closeWaitsForABusyListenerOnlyUntilItsDeadlineAndTheContextIsNotUsedAfter() throws InterruptedException {
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		List<DeviceEvent> events = new CopyOnWriteArrayList<>();
		// package-private in verbs
		try (LogCapture log = LogCapture.of("io.github.rdmacounters.verbs.AsyncEventReader")) {
			RdmaDevice device = open();
			// an application's @EventListener that takes its time
			device.addEventListener((event) -> {
				events.add(event);
				entered.countDown();
				try {
					release.await(60, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
			raise(DeviceEvent.Type.SM_CHANGE, 1);
			assertThat(entered.await(10, TimeUnit.SECONDS)).as("the listener entered within 10 s").isTrue();
			// waiting in async_fd when the context closes
			raise(DeviceEvent.Type.LID_CHANGE, 1);
			long before = System.nanoTime();
			device.close();
			Duration took = Duration.ofNanos(System.nanoTime() - before);
			assertThat(took).as("close waited for its deadline, not for the listener")
				.isBetween(NativeBackend.EVENT_LISTENERS_WAIT.minusMillis(100),
						NativeBackend.EVENT_LISTENERS_WAIT.plusSeconds(10));
			assertThat(eventThreads()).as("the event thread, still in the listener").hasSize(1);
			assertThat(log.messages(Level.WARNING)).singleElement()
				.satisfies((line) -> assertThat(line).contains("still in a listener "
						+ NativeBackend.EVENT_LISTENERS_WAIT.toMillis() + " ms after the device was closed"));
			release.countDown();
			await("the event thread ends", () -> eventThreads().isEmpty());
			assertThat(events).singleElement()
				.satisfies((event) -> assertThat(event.type()).isEqualTo(DeviceEvent.Type.SM_CHANGE));
			// no ibv_get_async_event on the closed context (the fake records it as
			// misuse)
			assertNothingLeft();
		}
		finally {
			release.countDown();
		}
	}

	@Override
	void assertNothingLeft() {
		assertThat(this.fake.unackedAsyncEvents()).isZero();
		this.fake.assertClean();
	}

}
