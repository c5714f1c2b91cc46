package io.github.rdmacounters.core;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedBackendControl;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for how {@link ManagedDeviceFactory#devicesOf} finds the device each counter set
 * counts on: the one it names, the one with its network interface, or the host's only
 * device with flow counters.
 *
 * @author rdma-counters
 */
class ManagedDeviceFactoryDevicesOfTests {

	private static final FlowSpec TCP = FlowSpec.builder().protocol(L4Protocol.TCP).build();

	private final AtomicInteger snapshots = new AtomicInteger();

	private static SimulatedDeviceSpec mlx5(String name, String... netdevs) {
		return SimulatedDeviceSpec.builder().name(name).netdevs(List.of(netdevs)).build();
	}

	private static SimulatedDeviceSpec rxe(String name) {
		return SimulatedDeviceSpec.builder().name(name).countersSupported(false).build();
	}

	private static SimulatedBackend backend(SimulatedDeviceSpec... devices) {
		return new SimulatedBackend(List.of(devices));
	}

	private static CounterSetTarget named(String set, String device) {
		return new CounterSetTarget(CounterSetDefinition.of(set, TCP), device, null);
	}

	private static CounterSetTarget onNetdev(String set, String netdev) {
		return new CounterSetTarget(CounterSetDefinition.of(set, TCP), null, netdev);
	}

	private static CounterSetTarget anyDevice(String set) {
		return new CounterSetTarget(CounterSetDefinition.of(set, TCP), null, null);
	}

	private Map<@Nullable String, List<String>> devicesOf(SimulatedBackend backend, boolean failOnUnavailable,
			CounterSetTarget... sets) {
		ManagedDeviceFactory factory = new ManagedDeviceFactory(backend, Duration.ZERO, Clock.systemUTC(),
				(name) -> null);
		Supplier<HostPortCountersSnapshot> host = () -> {
			this.snapshots.incrementAndGet();
			return backend
				.hostPortCounters(Path.of(ManagedDeviceFactory.DEFAULT_SYSFS_ROOT), (device) -> true,
						(counter) -> false, Duration.ZERO)
				.snapshot();
		};
		Map<@Nullable String, List<CounterSetDefinition>> devices = factory.devicesOf(List.of(sets), "rdma",
				failOnUnavailable, host);
		Map<@Nullable String, List<String>> names = new LinkedHashMap<>();
		devices.forEach((device, definitions) -> names.put(device,
				definitions.stream().map(CounterSetDefinition::name).toList()));
		return names;
	}

	@Test
	void setsThatNameADeviceCountOnItWithoutAProbeOrASnapshot() {
		SimulatedBackend backend = backend(mlx5("mlx5_0"), mlx5("mlx5_1"));
		assertThat(devicesOf(backend, true, named("web", "mlx5_1"), named("storage", "mlx5_0"), named("db", "mlx5_1")))
			.containsExactly(Map.entry("mlx5_1", List.of("web", "db")), Map.entry("mlx5_0", List.of("storage")));
		assertThat(SimulatedBackendControl.of(backend).verbCalls()).isEmpty();
		assertThat(this.snapshots).hasValue(0);
	}

	@Test
	void setsThatNameANetdevCountOnItsDeviceFromOneSnapshot() {
		SimulatedBackend backend = backend(mlx5("mlx5_0", "ens1f0np0"), mlx5("mlx5_1", "ens1f1np1", "ens1f1v0"));
		assertThat(devicesOf(backend, true, onNetdev("web", "ens1f1v0"), onNetdev("storage", "ens1f0np0"),
				onNetdev("db", "ens1f1np1")))
			.containsExactly(Map.entry("mlx5_1", List.of("web", "db")), Map.entry("mlx5_0", List.of("storage")));
		assertThat(this.snapshots).hasValue(1);
		assertThat(SimulatedBackendControl.of(backend).verbCalls()).doesNotContain("ibv_open_device");
	}

	@Test
	void aNetdevNoDeviceHasNamesThePropertyAndListsTheInterfaces() {
		SimulatedBackend backend = backend(mlx5("mlx5_0", "ens1f0np0"), mlx5("mlx5_1", "ens1f1np1"), rxe("rxe_0"));
		assertThatExceptionOfType(InvalidRdmaConfigurationException.class)
			.isThrownBy(() -> devicesOf(backend, false, named("web", "mlx5_0"), onNetdev("storage", "eth9")))
			.satisfies((ex) -> assertThat(ex.problems()).singleElement()
				.satisfies((problem) -> assertThat(problem.property()).isEqualTo("rdma.counter-sets.storage.netdev")))
			.withMessage("Invalid RDMA configuration: rdma.counter-sets.storage.netdev=eth9: No RDMA device of this "
					+ "host has the network interface eth9 (sysfs device/net of each device); their interfaces: "
					+ "{mlx5_0=[ens1f0np0], mlx5_1=[ens1f1np1], rxe_0=[]}");
	}

	@Test
	void setsThatNameNoDeviceShareOneProbeForTheOnlyDeviceWithFlowCounters() {
		SimulatedBackend backend = backend(rxe("rxe_0"), mlx5("mlx5_0"), rxe("rxe_1"));
		assertThat(devicesOf(backend, true, anyDevice("web"), anyDevice("storage"), anyDevice("db")))
			.containsExactly(Map.entry("mlx5_0", List.of("web", "storage", "db")));
		assertThat(SimulatedBackendControl.of(backend).verbCalls()).as("each device is opened once, by the probe")
			.filteredOn("ibv_open_device"::equals)
			.hasSize(3);
		assertThat(this.snapshots).hasValue(0);
	}

	@Test
	void noDeviceWithFlowCountersFailsNamingTheFirstSetOrLeavesTheSetsWithoutADevice() {
		SimulatedBackend backend = backend(rxe("rxe_0"), rxe("rxe_1"));
		assertThatExceptionOfType(NoUniqueRdmaDeviceException.class)
			.isThrownBy(() -> devicesOf(backend, true, anyDevice("web"), anyDevice("storage")))
			.satisfies((ex) -> assertThat(ex.devices()).isEmpty())
			.withMessageStartingWith("rdma.counter-sets.web names no device")
			.withMessageEndingWith("finds no RDMA device with flow counters");
		SimulatedBackendControl.of(backend).clearVerbCalls();
		assertThat(devicesOf(backend, false, anyDevice("web"), anyDevice("storage"))).hasSize(1)
			.containsEntry(null, List.of("web", "storage"));
		assertThat(SimulatedBackendControl.of(backend).verbCalls()).filteredOn("ibv_open_device"::equals).hasSize(2);
	}

	@Test
	void severalDevicesWithFlowCountersFailEvenWhenSetsMayStartWithoutADevice() {
		SimulatedBackend backend = backend(mlx5("mlx5_0"), rxe("rxe_0"), mlx5("mlx5_1"));
		assertThatExceptionOfType(NoUniqueRdmaDeviceException.class)
			.isThrownBy(() -> devicesOf(backend, false, named("storage", "mlx5_1"), anyDevice("web")))
			.satisfies((ex) -> assertThat(ex.devices()).containsExactly("mlx5_0", "mlx5_1"))
			.withMessage("rdma.counter-sets.web names no device and the simulated backend finds 2 RDMA devices "
					+ "with flow counters: mlx5_0, mlx5_1");
	}

	@Test
	void mixedSetsAreGroupedByDeviceInConfigurationOrder() {
		SimulatedBackend backend = backend(rxe("rxe_0"), mlx5("mlx5_0", "ens1f0np0"));
		assertThat(devicesOf(backend, true, named("a", "rxe_0"), onNetdev("b", "ens1f0np0"), anyDevice("c"),
				named("d", "rxe_0"), anyDevice("e")))
			.containsExactly(Map.entry("rxe_0", List.of("a", "d")), Map.entry("mlx5_0", List.of("b", "c", "e")));
		assertThat(this.snapshots).hasValue(1);
	}

}
