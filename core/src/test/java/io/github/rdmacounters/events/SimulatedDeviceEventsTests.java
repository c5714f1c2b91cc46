package io.github.rdmacounters.events;

import java.util.List;

import io.github.rdmacounters.core.DeviceEvent;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedBackendControl;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Device events and recovery on the simulated backend.
 *
 * @author rdma-counters
 */
class SimulatedDeviceEventsTests extends AbstractDeviceEventsTests {

	private final SimulatedBackend backend = new SimulatedBackend(
			List.of(SimulatedDeviceSpec.builder().name(DEVICE).portCount(2).build()));

	@Override
	RdmaBackend backend() {
		return this.backend;
	}

	@Override
	void portDown(int port) {
		this.backend.setPortState(DEVICE, port, PortState.DOWN);
	}

	@Override
	void portUp(int port) {
		this.backend.setPortState(DEVICE, port, PortState.ACTIVE);
	}

	@Override
	void raise(DeviceEvent.Type type, int port) {
		this.backend.raiseEvent(DEVICE, type, port);
	}

	@Override
	void removeDevice() {
		this.backend.removeDevice(DEVICE);
	}

	@Override
	void restoreDevice() {
		this.backend.restoreDevice(DEVICE);
	}

	@Override
	void failReadsWithEio(boolean on) {
		if (on) {
			SimulatedBackendControl.of(this.backend).failAlways("ibv_read_counters", Errno.EIO);
		}
		else {
			SimulatedBackendControl.of(this.backend).clearFaults();
		}
	}

	@Override
	void deliver(Packet packet) {
		this.backend.deliver(DEVICE, 1, packet);
	}

	@Override
	long calls(String verb) {
		return SimulatedBackendControl.of(this.backend).verbCalls().stream().filter(verb::equals).count();
	}

	@Override
	void assertNothingLeft() {
		assertThat(SimulatedBackendControl.of(this.backend).liveObjectDescriptions()).isEmpty();
	}

}
