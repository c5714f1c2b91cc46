package io.github.rdmacounters.events;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.rdmacounters.core.DeviceEvent;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.testsupport.FakeVerbs;
import io.github.rdmacounters.testsupport.FakeVerbsExtension;
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

	@Override
	void assertNothingLeft() {
		assertThat(this.fake.unackedAsyncEvents()).isZero();
		this.fake.assertClean();
	}

}
