package io.github.rdmacounters.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.simulated.RoceOperation;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedBackendControl;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;

/**
 * The {@link BackendControl} of a {@link SimulatedBackend} built from
 * {@link TestDevice}s; port counters are read from its simulated sysfs tree. The
 * simulator never hands out native pointers, so it records no misuse.
 *
 * @author rdma-counters
 */
public final class SimulatedControl implements BackendControl {

	private final SimulatedBackend backend;

	private final SimulatedBackendControl control;

	/**
	 * Create a simulated backend with the given devices.
	 * @param devices the devices
	 */
	public SimulatedControl(List<TestDevice> devices) {
		this.backend = new SimulatedBackend(devices.stream().map(SimulatedControl::spec).toList());
		this.control = SimulatedBackendControl.of(this.backend);
	}

	private static SimulatedDeviceSpec spec(TestDevice device) {
		return SimulatedDeviceSpec.builder()
			.name(device.name())
			.nodeGuid(device.guid())
			.firmwareVersion(device.firmware())
			.portCount(device.ports())
			.countersSupported(device.countersSupported())
			.managedFlowSteering(device.flowSteering())
			.roceEnabled(device.roceEnabled())
			.linuxBefore58(device.linuxBefore58())
			.build();
	}

	@Override
	public RdmaBackend backend() {
		return this.backend;
	}

	@Override
	public int deliver(String device, int port, Packet packet) {
		return this.backend.deliver(device, port, packet);
	}

	@Override
	public int deliverRoce(String device, int port, Packet packet, RoceOperation operation) {
		return this.backend.deliverRoce(device, port, packet, operation);
	}

	@Override
	public void setPortState(String device, int port, PortState state) {
		this.backend.setPortState(device, port, state);
	}

	@Override
	public long portCounter(String device, int port, String file) {
		try {
			return Long.parseLong(this.backend.sysfsTree().read(device + "/ports/" + port + "/" + file).trim());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public void failNext(String verb, int errno) {
		this.control.failNext(verb, errno);
	}

	@Override
	public void failAlways(String verb, int errno) {
		this.control.failAlways(verb, errno);
	}

	@Override
	public void clearFaults() {
		this.control.clearFaults();
	}

	@Override
	public long calls(String verb) {
		return this.control.verbCalls().stream().filter(verb::equals).count();
	}

	@Override
	public int liveObjects() {
		return this.control.liveObjects();
	}

	@Override
	public String liveDescription() {
		return String.join(", ", this.control.liveObjectDescriptions());
	}

	@Override
	public List<String> misuse() {
		return List.of();
	}

}
