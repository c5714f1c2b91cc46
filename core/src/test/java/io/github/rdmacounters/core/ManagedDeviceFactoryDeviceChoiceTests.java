package io.github.rdmacounters.core;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for how {@link ManagedDeviceFactory} chooses the device of a set that names none,
 * and places each set on its own port.
 *
 * @author rdma-counters
 */
class ManagedDeviceFactoryDeviceChoiceTests {

	private static final FlowSpec TCP = FlowSpec.builder().protocol(L4Protocol.TCP).build();

	private static SimulatedDeviceSpec mlx5(String name, int ports) {
		return SimulatedDeviceSpec.builder().name(name).portCount(ports).build();
	}

	private static SimulatedDeviceSpec rxe(String name) {
		return SimulatedDeviceSpec.builder().name(name).countersSupported(false).build();
	}

	private static ManagedDeviceFactory factory(SimulatedDeviceSpec... devices) {
		return new ManagedDeviceFactory(new SimulatedBackend(List.of(devices)), Duration.ZERO, Clock.systemUTC(),
				(name) -> null);
	}

	@Test
	void onlyDeviceOfTheHostIsChosenWithoutProbing() {
		assertThat(factory(rxe("rxe_0")).onlyFlowCapableDevice("rdma.counter-sets.web")).isEqualTo("rxe_0");
	}

	@Test
	void onlyDeviceWithFlowCountersIsChosenAmongSeveral() {
		ManagedDeviceFactory factory = factory(rxe("rxe_0"), mlx5("mlx5_0", 1), rxe("rxe_1"));
		assertThat(factory.onlyFlowCapableDevice("rdma.counter-sets.web")).isEqualTo("mlx5_0");
	}

	@Test
	void severalDevicesWithFlowCountersNameTheSetAndTheCandidates() {
		ManagedDeviceFactory factory = factory(mlx5("mlx5_0", 1), rxe("rxe_0"), mlx5("mlx5_1", 1));
		assertThatExceptionOfType(NoUniqueRdmaDeviceException.class)
			.isThrownBy(() -> factory.onlyFlowCapableDevice("rdma.counter-sets.web"))
			.satisfies((ex) -> assertThat(ex.devices()).containsExactly("mlx5_0", "mlx5_1"))
			.withMessage("rdma.counter-sets.web names no device and the simulated backend finds 2 RDMA devices "
					+ "with flow counters: mlx5_0, mlx5_1");
	}

	@Test
	void noDeviceWithFlowCountersIsReported() {
		ManagedDeviceFactory factory = factory(rxe("rxe_0"), rxe("rxe_1"));
		assertThatExceptionOfType(NoUniqueRdmaDeviceException.class)
			.isThrownBy(() -> factory.onlyFlowCapableDevice("rdma.counter-sets.web"))
			.satisfies((ex) -> assertThat(ex.devices()).isEmpty())
			.withMessageEndingWith("finds no RDMA device with flow counters");
	}

	@Test
	void createWithoutADeviceOpensTheOneWithFlowCounters() {
		ManagedDeviceFactory factory = factory(rxe("rxe_0"), mlx5("mlx5_0", 1));
		try (ManagedDevice device = factory
			.create(new DeviceDefinition(null, List.of(CounterSetDefinition.of("web", TCP)), "rdma"), true)) {
			assertThat(device.name()).isEqualTo("mlx5_0");
			assertThat(device.counterSets()).singleElement().extracting(CounterSet::port).isEqualTo(1);
		}
	}

	@Test
	void setsOfOneDeviceCountOnTheirOwnPorts() {
		ManagedDeviceFactory factory = factory(mlx5("mlx5_0", 2));
		DeviceDefinition plan = new DeviceDefinition("mlx5_0",
				List.of(CounterSetDefinition.of("first", TCP), CounterSetDefinition.of("second", 2, TCP)), "rdma");
		try (ManagedDevice device = factory.create(plan, true)) {
			assertThat(device.counterSets()).extracting(CounterSet::port).containsExactly(1, 2);
			assertThat(device.ports()).containsExactly(1, 2);
		}
	}

	@Test
	void portBeyondTheDeviceNamesTheSetsPort() {
		ManagedDeviceFactory factory = factory(mlx5("mlx5_0", 2));
		DeviceDefinition plan = new DeviceDefinition("mlx5_0", List.of(CounterSetDefinition.of("storage", 3, TCP)),
				"rdma");
		assertThatExceptionOfType(InvalidRdmaConfigurationException.class).isThrownBy(() -> factory.create(plan, true))
			.satisfies((ex) -> assertThat(ex.problems()).singleElement()
				.satisfies((problem) -> assertThat(problem.property()).isEqualTo("rdma.counter-sets.storage.port")))
			.withMessageContaining("must be 1 to 2: mlx5_0 has 2 ports");
	}

}
