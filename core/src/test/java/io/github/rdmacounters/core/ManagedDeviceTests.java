package io.github.rdmacounters.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.testsupport.MutableClock;

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

	@Test
	void aSetOfAnUnavailableDeviceCountsAFailedReadEachTimeItsReadCacheExpires() {
		MutableClock clock = new MutableClock(Instant.parse("2026-11-29T12:00:00Z"));
		CounterSetDefinition vxlan = new CounterSetDefinition("vxlan", 1, Map.of(CounterType.PACKETS, 0),
				ReadMode.FRESH, FlowSpec.any());
		ManagedDevice managed = new ManagedDeviceFactory(SimulatedBackend.withDefaultDevice(), Duration.ofSeconds(1),
				clock, (name) -> null)
			.create(new DeviceDefinition("mlx5_7", List.of(vxlan), "rdma"), false);
		CounterSet set = managed.counterSets().get(0);
		assertThat(set.read().value(CounterType.PACKETS)).isZero();
		assertThat(set.read().failedReads()).as("within the time-to-live").isOne();
		clock.advance(Duration.ofSeconds(1));
		CounterSetReading again = set.read();
		assertThat(again.isSuccess()).isFalse();
		assertThat(again.failedReads()).isEqualTo(2);
		managed.close();
	}

}
