package io.github.rdmacounters.e2e;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedBackendControl;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * End-to-end tests on the simulated backend ({@code rdma.backend=simulated}).
 */
class SimulatedEndToEndTests extends AbstractEndToEndTests {

	private @Nullable SimulatedBackend backend;

	@Override
	String deviceName() {
		return "sim_mlx5_0";
	}

	@Override
	String backendName() {
		return "simulated";
	}

	@Override
	Map<String, Object> backendProperties() {
		return Map.of("rdma.backend", "simulated");
	}

	@Override
	void started(RunningApplication app) {
		this.backend = app.context().getBean(SimulatedBackend.class);
	}

	@Override
	void deliver(RunningApplication app, Packet packet) {
		backend(app).deliver(deviceName(), 1, packet);
	}

	@Override
	void setPortState(RunningApplication app, PortState state) {
		backend(app).setPortState(deviceName(), 1, state);
	}

	@Override
	void failAlways(RunningApplication app, String verb, int errno) {
		SimulatedBackendControl.of(backend(app)).failAlways(verb, errno);
	}

	@Override
	void assertReleased(RunningApplication app) {
		SimulatedBackend backend = backend(app);
		assertThat(SimulatedBackendControl.of(backend).liveObjects())
			.as("live simulated objects: %s", SimulatedBackendControl.of(backend).liveObjectDescriptions())
			.isZero();
	}

	private SimulatedBackend backend(RunningApplication app) {
		SimulatedBackend started = this.backend;
		assertThat(started).as("backend of %s", app).isNotNull();
		return started;
	}

}
