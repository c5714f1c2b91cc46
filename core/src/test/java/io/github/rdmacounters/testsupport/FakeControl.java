package io.github.rdmacounters.testsupport;

import java.util.List;

import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.simulated.RoceOperation;
import io.github.rdmacounters.verbs.NativeBackend;

/**
 * The {@link BackendControl} of a {@link NativeBackend} on the fake libibverbs: resets
 * the fake and adds the {@link TestDevice}s to it. The fake is process-wide, so only one
 * control is in use at a time.
 *
 * @author rdma-counters
 */
public final class FakeControl implements BackendControl {

	private final FakeVerbs fake = FakeVerbs.get();

	private final NativeBackend backend;

	/**
	 * Reset the fake and add the given devices.
	 * @param devices the devices
	 */
	public FakeControl(List<TestDevice> devices) {
		this.fake.reset();
		for (TestDevice device : devices) {
			this.fake.device(device.name())
				.guid(device.guid())
				.firmware(device.firmware())
				.ports(device.ports())
				.countersSupported(device.countersSupported())
				.flowSteering(device.flowSteering())
				.roceEnabled(device.roceEnabled())
				.linuxBefore58(device.linuxBefore58())
				.add();
		}
		this.backend = this.fake.backend();
	}

	@Override
	public RdmaBackend backend() {
		return this.backend;
	}

	@Override
	public int deliver(String device, int port, Packet packet) {
		return this.fake.deliver(device, port, packet);
	}

	@Override
	public int deliverRoce(String device, int port, Packet packet, RoceOperation operation) {
		return this.fake.deliverRoce(device, port, packet, operation);
	}

	@Override
	public void setPortState(String device, int port, PortState state) {
		this.fake.setPortState(device, port, state);
	}

	@Override
	public long portCounter(String device, int port, String file) {
		return this.fake.portCounter(device, port, file);
	}

	@Override
	public void failNext(String verb, int errno) {
		this.fake.failNext(verb, errno);
	}

	@Override
	public void failAlways(String verb, int errno) {
		this.fake.failAlways(verb, errno);
	}

	@Override
	public void clearFaults() {
		this.fake.clearFaults();
	}

	@Override
	public long calls(String verb) {
		return this.fake.calls(verb);
	}

	@Override
	public int liveObjects() {
		return this.fake.liveObjects();
	}

	@Override
	public String liveDescription() {
		return this.fake.liveDescription();
	}

	@Override
	public List<String> misuse() {
		return this.fake.misuseLog();
	}

}
