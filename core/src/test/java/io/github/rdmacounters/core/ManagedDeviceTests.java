package io.github.rdmacounters.core;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.rdmacounters.simulated.SimulatedBackend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link ManagedDevice}.
 *
 * @author rdma-counters
 */
class ManagedDeviceTests {

	@Test
	void deviceOfAnUnavailableDeviceThrowsNamingTheDeviceAndTheCause() {
		RuntimeException cause = new DeviceNotFoundException("mlx5_9", List.of("mlx5_0"));
		ManagedDevice managed = ManagedDevice.unavailable("mlx5_9", "native", cause);
		assertThat(managed.openedDevice()).isEmpty();
		assertThatIllegalStateException().isThrownBy(managed::device)
			.withMessageStartingWith("RDMA device mlx5_9 (native backend) is unavailable, so it has no opened device: ")
			.withMessageContaining(cause.getMessage())
			.withCause(cause);
	}

	@Test
	void deviceOfAnOpenedDeviceIsTheDevice() {
		SimulatedBackend backend = SimulatedBackend.withDefaultDevice();
		RdmaDevice device = backend.open("sim_mlx5_0");
		try (ManagedDevice managed = new ManagedDevice(device, List.of(), null)) {
			assertThat(managed.device()).isSameAs(device);
			assertThat(managed.openedDevice()).containsSame(device);
		}
	}

}
