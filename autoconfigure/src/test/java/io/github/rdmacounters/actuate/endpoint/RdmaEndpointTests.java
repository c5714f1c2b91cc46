package io.github.rdmacounters.actuate.endpoint;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.HostPortCountersSnapshot;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.PortCountersSource;
import io.github.rdmacounters.core.PortLink;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.core.Presence;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.core.RdmaUnavailableException;
import io.github.rdmacounters.core.ReadMode;
import io.github.rdmacounters.core.SupervisedDevice;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;
import io.github.rdmacounters.sysfs.HostSysfs;
import io.github.rdmacounters.sysfs.SysfsHostPortCountersSource;
import io.github.rdmacounters.testsupport.ScriptedDevice;
import io.github.rdmacounters.testsupport.ScriptedDevice.ScriptedCounters;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RdmaEndpoint}.
 */
class RdmaEndpointTests {

	private static final FlowSpec ROCE = FlowSpec.builder().protocol(L4Protocol.UDP).destinationPort(4791).build();

	private static final FlowSpec HTTPS = FlowSpec.builder()
		.protocol(L4Protocol.TCP)
		.destinationPort(443)
		.priority(2)
		.dontTrap(false)
		.build();

	private final ScriptedDevice device = new ScriptedDevice("mlx5_0", "native");

	@Test
	void rdmaDescribesDeviceWithPortAndEveryCounterSet() {
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ZERO);
		CounterSet https = this.device.counterSet("https", HTTPS, Duration.ZERO);
		counters(0).add(3, 3000);
		RdmaEndpoint endpoint = endpoint(new ManagedDevice(this.device, List.of(roce, https), null));

		DeviceDescriptor described = endpoint.rdma().devices().get("mlx5_0");

		assertThat(described.name()).isEqualTo("mlx5_0");
		assertThat(described.backend()).isEqualTo("native");
		assertThat(described.available()).isTrue();
		assertThat(described.unavailableReason()).isNull();
		assertThat(described.nodeGuid()).isEqualTo("0c42:a103:0065:0f2c");
		assertThat(described.firmwareVersion()).isEqualTo("22.36.1010");
		assertThat(described.managedFlowSteering()).isTrue();
		PortDescriptor port = described.ports().get(1);
		assertThat(port.state()).isEqualTo("ACTIVE");
		assertThat(port.physicalState()).isEqualTo("LinkUp");
		assertThat(port.linkLayer()).isEqualTo("Ethernet");
		assertThat(port.activeMtu()).isEqualTo(1024);
		assertThat(port.rate()).isEqualTo("100 Gb/sec (4X EDR)");
		assertThat(port.counters()).isNull();
		assertThat(described.counterSets()).containsOnlyKeys("roce", "https");
		assertThat(described.counterSets().get("roce").values()).containsExactly(Map.entry("packets", 3L),
				Map.entry("bytes", 3000L));
		assertThat(described.counterSets().get("https").values()).containsEntry("packets", 0L);
	}

	@Test
	void jsonNamesTheFieldsOfEachDescriptorInAlphabeticalOrderAsTheReadmeShowsThem() {
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ZERO);
		PortStatus port = new PortStatus(1, "ACTIVE", "LinkUp", "100 Gb/sec (4X EDR)", "Ethernet",
				Map.of("port_rcv_data", 4000L), Map.of("port_rcv_data", "counters"), List.of());
		PortCountersSource source = source(new PortCountersSnapshot("mlx5_0", "22.36.1010", "MT_0000000222", "MT4125",
				"0c42:a103:0065:0f2c", List.of(port), Instant.now()));
		RdmaEndpoint endpoint = endpoint(new ManagedDevice(this.device, List.of(roce), source));

		JsonNode device = JsonMapper.builder().build().valueToTree(endpoint.rdma()).path("devices").path("mlx5_0");

		assertThat(names(device)).isSorted()
			.contains("available", "backend", "boardId", "counterSets", "firmwareVersion", "managedFlowSteering",
					"name", "nodeGuid", "ports", "present");
		assertThat(names(device.at("/ports/1"))).isSorted()
			.contains("activeMtu", "counters", "linkLayer", "physicalState", "present", "rate", "state");
		assertThat(names(device.at("/counterSets/roce"))).containsExactly("device", "failedReads", "flow", "lastError",
				"name", "port", "readAt", "readMode", "readSucceeded", "values");
		assertThat(names(device.at("/counterSets/roce/flow"))).containsExactly("dontTrap", "match", "priority");
	}

	private static List<String> names(JsonNode node) {
		return node.properties().stream().map(Map.Entry::getKey).toList();
	}

	@Test
	void counterSetWithUnknownNameReturnsNull() {
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ZERO);
		RdmaEndpoint endpoint = endpoint(new ManagedDevice(this.device, List.of(roce), null));

		assertThat(endpoint.counterSet("nope")).isNull();
	}

	@Test
	void counterSetReturnsValuesFlowReadModeAndReadTime() {
		Instant before = Instant.now();
		CounterSet https = this.device.counterSet("https", HTTPS, Duration.ZERO);
		counters(0).add(7, 700);
		RdmaEndpoint endpoint = endpoint(new ManagedDevice(this.device, List.of(https), null));

		CounterSetDescriptor set = endpoint.counterSet("https");

		assertThat(set).isNotNull();
		assertThat(set.name()).isEqualTo("https");
		assertThat(set.device()).isEqualTo("mlx5_0");
		assertThat(set.port()).isEqualTo(1);
		assertThat(set.flow().match()).isEqualTo("tcp dst-port 443");
		assertThat(set.flow().priority()).isEqualTo(2);
		assertThat(set.flow().dontTrap()).isFalse();
		assertThat(set.readMode()).isEqualTo("fresh");
		assertThat(set.values()).containsEntry("packets", 7L).containsEntry("bytes", 700L);
		assertThat(set.readAt()).isBetween(before, Instant.now());
		assertThat(set.readSucceeded()).isTrue();
		assertThat(set.failedReads()).isZero();
		assertThat(set.lastError()).isNull();
	}

	@Test
	void counterSetWhoseReadFailsShowsErrnoTextAndLastGoodValues() {
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ZERO);
		counters(0).add(5, 500);
		RdmaEndpoint endpoint = endpoint(new ManagedDevice(this.device, List.of(roce), null));
		endpoint.counterSet("roce");
		counters(0).add(1, 100);
		counters(0).failReads(new RdmaOperationException("ibv_read_counters", Errno.EIO));

		CounterSetDescriptor set = endpoint.counterSet("roce");

		assertThat(set.readSucceeded()).isFalse();
		assertThat(set.failedReads()).isEqualTo(1);
		assertThat(set.lastError()).isEqualTo("ibv_read_counters failed: EIO (5) Input/output error");
		assertThat(set.values()).containsEntry("packets", 5L).containsEntry("bytes", 500L);
	}

	@Test
	void callsWithinTheReadCacheTtlShareOneDeviceRead() {
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ofMinutes(1));
		RdmaEndpoint endpoint = endpoint(new ManagedDevice(this.device, List.of(roce), null));

		endpoint.rdma();
		endpoint.counterSet("roce");
		endpoint.rdma();

		assertThat(counters(0).reads()).isEqualTo(1);
	}

	@Test
	void unavailableDeviceIsListedWithTheReason() {
		RdmaUnavailableException cause = new RdmaUnavailableException(
				RdmaUnavailableException.Reason.LIBRARY_NOT_LOADABLE, "libibverbs.so.1 could not be loaded", null);
		RdmaEndpoint endpoint = endpoint(ManagedDevice.unavailable("mlx5_0", "native", cause));

		DeviceDescriptor described = endpoint.rdma().devices().get("mlx5_0");

		assertThat(described.available()).isFalse();
		assertThat(described.unavailableReason()).isEqualTo("libibverbs.so.1 could not be loaded");
		assertThat(described.backend()).isEqualTo("native");
		assertThat(described.ports()).isEmpty();
		assertThat(described.counterSets()).isEmpty();
	}

	@Test
	void portCountersFromTheSourceAreShownForEveryPort() {
		PortStatus port1 = new PortStatus(1, "ACTIVE", "LinkUp", "100 Gb/sec (4X EDR)", "InfiniBand",
				Map.of("port_rcv_data", 4000L, "out_of_buffer", 2L),
				Map.of("port_rcv_data", "counters", "out_of_buffer", "hw_counters"),
				List.of("counters/port_xmit_wait"));
		PortStatus port2 = new PortStatus(2, "DOWN", "Disabled", null, "InfiniBand", Map.of(), Map.of(), List.of());
		PortCountersSource source = source(new PortCountersSnapshot("mlx5_0", "22.36.1010", "MT_0000000222", "MT4125",
				"0c42:a103:0065:0f2c", List.of(port1, port2), Instant.now()));
		RdmaEndpoint endpoint = endpoint(new ManagedDevice(this.device, List.of(), source));

		DeviceDescriptor described = endpoint.rdma().devices().get("mlx5_0");

		assertThat(described.boardId()).isEqualTo("MT_0000000222");
		assertThat(described.hcaType()).isEqualTo("MT4125");
		assertThat(described.ports()).containsOnlyKeys(1, 2);
		PortDescriptor first = described.ports().get(1);
		assertThat(first.rate()).isEqualTo("100 Gb/sec (4X EDR)");
		assertThat(first.counters()).containsEntry("port_rcv_data", 4000L).containsEntry("out_of_buffer", 2L);
		assertThat(first.unreadableCounters()).containsExactly("counters/port_xmit_wait");
		PortDescriptor second = described.ports().get(2);
		assertThat(second.state()).isEqualTo("DOWN");
		assertThat(second.physicalState()).isEqualTo("Disabled");
		assertThat(second.activeMtu()).isNull();
	}

	@Test
	void portOfADeviceWithEventsKeepsItsPresenceAndMissingCounterFiles() {
		PortStatus status = new PortStatus(1, PortLink.parse("ACTIVE", "LinkUp", "100 Gb/sec (4X EDR)", "Ethernet"),
				Map.of("port_rcv_data", 4000L), Map.of("port_rcv_data", "counters"), List.of(),
				List.of("hw_counters/out_of_buffer"), Presence.PRESENT);
		PortCountersSource source = source(new PortCountersSnapshot("mlx5_0", "22.36.1010", "MT_0000000222", "MT4125",
				"0c42:a103:0065:0f2c", List.of(status), Instant.now()));
		SimulatedBackend backend = new SimulatedBackend(List.of(SimulatedDeviceSpec.builder().name("mlx5_0").build()));
		SupervisedDevice device = SupervisedDevice.open(backend, "mlx5_0", Duration.ofMillis(10), Duration.ofSeconds(1),
				Duration.ZERO, Clock.systemUTC());
		try (ManagedDevice managed = new ManagedDevice(device, List.of(counterSet(device, "roce", 1)), source)) {
			assertThat(managed.events()).isNotNull();

			PortDescriptor port = endpoint(managed).rdma().devices().get("mlx5_0").ports().get(1);

			assertThat(port.events()).isNotNull();
			assertThat(port.present()).isTrue();
			assertThat(port.missingCounterFiles()).containsExactly("hw_counters/out_of_buffer");
		}
	}

	@Test
	void portThatCannotBeQueriedShowsTheError() {
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ZERO);
		this.device.failPortQuery(new RdmaOperationException("ibv_query_port", Errno.ENODEV));
		RdmaEndpoint endpoint = endpoint(new ManagedDevice(this.device, List.of(roce), null));

		PortDescriptor port = endpoint.rdma().devices().get("mlx5_0").ports().get(1);

		assertThat(port.error()).isEqualTo("ibv_query_port failed: ENODEV (19) No such device");
		assertThat(port.state()).isNull();
	}

	@Test
	void portDownIsShownAsDown() {
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ZERO);
		this.device.setPortState(PortState.DOWN);
		RdmaEndpoint endpoint = endpoint(new ManagedDevice(this.device, List.of(roce), null));

		PortDescriptor port = endpoint.rdma().devices().get("mlx5_0").ports().get(1);

		assertThat(port.state()).isEqualTo("DOWN");
		assertThat(port.physicalState()).isEqualTo("Disabled");
	}

	@Test
	void closedDeviceIsShownAsUnavailableWithoutTouchingIt() {
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ZERO);
		ManagedDevice managed = new ManagedDevice(this.device, List.of(roce), null);
		RdmaEndpoint endpoint = endpoint(managed);
		managed.close();

		DeviceDescriptor described = endpoint.rdma().devices().get("mlx5_0");

		assertThat(described.available()).isFalse();
		assertThat(described.unavailableReason()).isEqualTo("Device mlx5_0 is closed");
		assertThat(described.counterSets().get("roce").readSucceeded()).isFalse();
		assertThat(described.counterSets().get("roce").lastError()).contains("is closed");
		assertThat(counters(0).reads()).isZero();
	}

	@Test
	void counterSetIsFoundByItsNameWhicheverDeviceItCountsOn() {
		ScriptedDevice second = new ScriptedDevice("mlx5_1", "native");
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ZERO);
		CounterSet storage = counterSet(second, "storage", 2);
		RdmaEndpoint endpoint = new RdmaEndpoint(
				new RdmaRegistry(List.of(new ManagedDevice(this.device, List.of(roce), null),
						new ManagedDevice(second, List.of(storage), null))));

		CounterSetDescriptor set = endpoint.counterSet("storage");

		assertThat(set).isNotNull();
		assertThat(set.device()).isEqualTo("mlx5_1");
		assertThat(set.port()).isEqualTo(2);
		assertThat(endpoint.counterSet("roce").device()).isEqualTo("mlx5_0");
	}

	@Test
	void deviceWithSetsOnTwoPortsQueriesBothPortsAndNoOther() {
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ZERO);
		CounterSet storage = counterSet(this.device, "storage", 2);
		RdmaEndpoint endpoint = endpoint(new ManagedDevice(this.device, List.of(roce, storage), null));

		DeviceDescriptor described = endpoint.rdma().devices().get("mlx5_0");

		assertThat(described.ports()).containsOnlyKeys(1, 2);
		assertThat(described.ports().get(2).state()).isEqualTo("ACTIVE");
		assertThat(described.ports().get(2).activeMtu()).isEqualTo(1024);
		assertThat(described.counterSets().get("storage").port()).isEqualTo(2);
	}

	@Test
	void hostWithAnEmptySysfsRootSaysWhyAndWhatToDoNext(@TempDir Path temp) throws IOException {
		// ib_core and ib_uverbs loaded, no RDMA device: class/infiniband exists and is
		// empty
		HostSysfs empty = HostSysfs.empty(temp);
		Files.createDirectories(empty.root().resolveSibling("infiniband_verbs"));
		try (SysfsHostPortCountersSource host = SysfsHostPortCountersSource.of(empty.root(), (name) -> true,
				(name) -> true, Duration.ZERO)) {
			RdmaDescriptor descriptor = new RdmaEndpoint(new RdmaRegistry(List.of()), host, "native").rdma();
			assertThat(descriptor.devices()).isEmpty();
			assertThat(descriptor.reason())
				.startsWith("No RDMA devices on this host: " + empty.root()
						+ " exists but holds no device: the RDMA stack (ib_core, ib_uverbs) is loaded")
				.contains("Next: load the RDMA modules", "rdma.backend=simulated");
		}
	}

	@Test
	void hostWithoutASysfsRootSaysItDoesNotExist(@TempDir Path temp) {
		Path root = temp.resolve("sys/class/infiniband");
		try (SysfsHostPortCountersSource host = SysfsHostPortCountersSource.of(root, (name) -> true, (name) -> true,
				Duration.ZERO)) {
			assertThat(new RdmaEndpoint(new RdmaRegistry(List.of()), host, "native").rdma().reason())
				.startsWith("No RDMA devices on this host: " + root + " does not exist");
		}
	}

	@Test
	void hostWithDevicesHasNoReason(@TempDir Path temp) {
		try (SysfsHostPortCountersSource host = SysfsHostPortCountersSource.of(HostSysfs.fourKinds(temp).root(),
				(name) -> true, (name) -> true, Duration.ZERO)) {
			RdmaDescriptor descriptor = new RdmaEndpoint(new RdmaRegistry(List.of()), host, "native").rdma();
			assertThat(descriptor.devices()).isNotEmpty();
			assertThat(descriptor.reason()).isNull();
		}
	}

	@Test
	void hostDevicesWithoutCounterSetsAreListedFromTheirPortCounters() {
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ZERO);
		PortStatus port = new PortStatus(1, "ACTIVE", "LinkUp", "25 Gb/sec (1X EDR)", "Ethernet",
				Map.of("port_rcv_data", 10L, "out_of_buffer", -1L),
				Map.of("port_rcv_data", "counters", "out_of_buffer", "hw_counters"), List.of());
		HostPortCountersSource host = () -> new HostPortCountersSnapshot(
				List.of(new PortCountersSnapshot("mlx5_0", "22.36.1010", null, null, null, List.of(port),
						Instant.now()),
						new PortCountersSnapshot("rxe0", null, null, null, null, List.of(port), Instant.now())),
				Instant.now());
		RdmaEndpoint endpoint = new RdmaEndpoint(
				new RdmaRegistry(List.of(new ManagedDevice(this.device, List.of(roce), null))), host, "native");

		Map<String, DeviceDescriptor> devices = endpoint.rdma().devices();

		assertThat(devices).containsOnlyKeys("mlx5_0", "rxe0");
		assertThat(devices.get("mlx5_0").counterSets()).containsOnlyKeys("roce");
		DeviceDescriptor sysfsOnly = devices.get("rxe0");
		assertThat(sysfsOnly.backend()).isEqualTo("native");
		assertThat(sysfsOnly.available()).isTrue();
		assertThat(sysfsOnly.counterSets()).isEmpty();
		assertThat(sysfsOnly.ports().get(1).counters()).containsEntry("port_rcv_data", 10L)
			.as("an unsigned 64-bit value is shown as such")
			.containsEntry("out_of_buffer", new BigInteger("18446744073709551615"));
	}

	private ScriptedCounters counters(int index) {
		return this.device.counters().get(index);
	}

	/**
	 * A set with a packets and a bytes counter fed by a RoCE flow on the given port.
	 */
	private static CounterSet counterSet(RdmaDevice device, String name, int port) {
		Counters handle = device.createCounters();
		handle.attach(CounterType.PACKETS, 0);
		handle.attach(CounterType.BYTES, 1);
		device.createFlow(port, ROCE, handle);
		return new CounterSet(name, device.name(), port, ROCE, Map.of(CounterType.PACKETS, 0, CounterType.BYTES, 1),
				ReadMode.FRESH, handle, Duration.ZERO, Clock.systemUTC());
	}

	private static RdmaEndpoint endpoint(ManagedDevice device) {
		return new RdmaEndpoint(new RdmaRegistry(List.of(device)));
	}

	private static PortCountersSource source(PortCountersSnapshot snapshot) {
		return new PortCountersSource() {

			@Override
			public String deviceName() {
				return snapshot.deviceName();
			}

			@Override
			public PortCountersSnapshot snapshot() {
				return snapshot;
			}

		};
	}

}
