package io.github.rdmacounters.simulated;

import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.PortState;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link SimulatedDeviceSpec} and {@link SimulatedPortSpec}.
 */
class SimulatedDeviceSpecTests {

	@Test
	void defaultsModelAnMlx5RoceAdapterWithOneActivePort() {
		SimulatedDeviceSpec spec = SimulatedDeviceSpec.defaults();
		assertThat(spec.name()).isEqualTo("sim_mlx5_0");
		assertThat(spec.portCount()).isEqualTo(1);
		assertThat(spec.ports().get(0)).isEqualTo(SimulatedPortSpec.activeRoce());
		assertThat(spec.ports().get(0).linkLayer()).isEqualTo(LinkLayer.ETHERNET);
		assertThat(spec.countersSupported()).isTrue();
		assertThat(spec.managedFlowSteering()).isTrue();
	}

	@Test
	void builderSetsEveryPortAndSinglePortStates() {
		SimulatedDeviceSpec spec = SimulatedDeviceSpec.builder()
			.name("sim_ib_1")
			.portCount(3)
			.linkLayer(LinkLayer.INFINIBAND)
			.speed(128, 2)
			.mtu(2048)
			.portState(2, PortState.DOWN)
			.firmwareVersion("28.39.1002")
			.boardId("MT_0000000838")
			.hcaType("MT4129")
			.vendor(0x02c9, 4129)
			.build();
		assertThat(spec.ports()).hasSize(3).allSatisfy((port) -> {
			assertThat(port.linkLayer()).isEqualTo(LinkLayer.INFINIBAND);
			assertThat(port.activeMtu()).isEqualTo(2048);
			assertThat(port.rateText()).isEqualTo("400 Gb/sec (4X NDR)");
		});
		assertThat(spec.ports().get(1).state()).isEqualTo(PortState.DOWN);
		assertThat(spec.ports().get(1).physicalState()).isEqualTo(SimulatedPortSpec.PHYS_DISABLED);
		assertThat(spec.ports().get(2).state()).isEqualTo(PortState.ACTIVE);
		assertThat(spec.vendorPartId()).isEqualTo(4129);
	}

	@Test
	void rateTextFollowsTheKernelFormat() {
		SimulatedPortSpec port = SimulatedPortSpec.activeInfiniBand();
		assertThat(port.withSpeed(1, 1).rateText()).isEqualTo("2.5 Gb/sec (1X SDR)");
		assertThat(port.withSpeed(16, 2).rateText()).isEqualTo("56 Gb/sec (4X FDR)");
		assertThat(port.withSpeed(64, 16).rateText()).isEqualTo("100 Gb/sec (2X HDR)");
		assertThat(port.withSpeed(4, 8).rateText()).isEqualTo("120 Gb/sec (12X QDR)");
	}

	@Test
	void invalidValuesAreRejectedWithTheAllowedRange() {
		assertThatIllegalArgumentException().isThrownBy(() -> SimulatedPortSpec.activeRoce().withMtu(1500))
			.withMessageContaining("256, 512, 1024, 2048 or 4096");
		assertThatIllegalArgumentException().isThrownBy(() -> SimulatedDeviceSpec.builder().portCount(0))
			.withMessageContaining("1 to 255");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SimulatedDeviceSpec.builder().portState(2, PortState.DOWN))
			.withMessageContaining("Port must be 1 to 1");
		assertThatIllegalArgumentException().isThrownBy(() -> SimulatedDeviceSpec.builder().name("a/b").build());
	}

}
