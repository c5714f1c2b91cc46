package io.github.rdmacounters.simulated;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.CountersSnapshot;
import io.github.rdmacounters.core.DeviceAttributes;
import io.github.rdmacounters.core.DeviceNotFoundException;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.Flow;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.core.ReadMode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link SimulatedBackend}: verbs semantics, traffic, faults and lifecycle.
 */
class SimulatedBackendTests {

	private static final String DEVICE = SimulatedDeviceSpec.DEFAULT_NAME;

	private static final FlowSpec NVME_TCP = FlowSpec.builder().protocol(L4Protocol.TCP).destinationPort(4420).build();

	private final SimulatedBackend backend = SimulatedBackend.withDefaultDevice();

	private final SimulatedBackendControl control = SimulatedBackendControl.of(this.backend);

	private final RdmaDevice device = this.backend.open(DEVICE);

	@AfterEach
	void closeDevice() {
		this.control.clearFaults();
		this.device.close();
	}

	static Packet tcp(String source, String destination, int destinationPort, int length) throws Exception {
		return Packet.tcp(InetAddress.getByName(source), 49152, InetAddress.getByName(destination), destinationPort,
				length);
	}

	private Counters packetsAndBytes() {
		Counters counters = this.device.createCounters();
		counters.attach(CounterType.PACKETS, 0);
		counters.attach(CounterType.BYTES, 1);
		return counters;
	}

	@Test
	void duplicateDeviceNamesAreRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(
					() -> new SimulatedBackend(List.of(SimulatedDeviceSpec.defaults(), SimulatedDeviceSpec.defaults())))
			.withMessageContaining("sim_mlx5_0");
	}

	@Test
	void queryDeviceReportsTheSpecAndManagedFlowSteering() {
		DeviceAttributes attributes = this.device.queryDevice();
		assertThat(attributes.firmwareVersion()).isEqualTo("22.36.1010");
		assertThat(attributes.formattedNodeGuid()).isEqualTo("0c42:a103:0065:0f2c");
		assertThat(attributes.vendorId()).isEqualTo(0x02c9);
		assertThat(attributes.physicalPortCount()).isEqualTo(1);
		assertThat(attributes.managedFlowSteering()).isTrue();
		assertThat(this.device.backend()).isEqualTo("simulated");
		assertThat(this.device.name()).isEqualTo(DEVICE);
	}

	@Test
	void queryPortReportsAnActiveRocePortAt100Gbps() {
		PortAttributes port = this.device.queryPort(1);
		assertThat(port.state()).isEqualTo(PortState.ACTIVE);
		assertThat(port.physicalStateName()).isEqualTo("LinkUp");
		assertThat(port.linkLayer()).isEqualTo(LinkLayer.ETHERNET);
		assertThat(port.activeMtu()).isEqualTo(4096);
		assertThat(port.rateGbps()).isEqualTo(100.0);
	}

	@Test
	void readSnapshotIsStampedByTheBackendClock() throws Exception {
		Instant now = Instant.parse("2026-11-29T15:00:00Z");
		SimulatedBackend clocked = new SimulatedBackend(List.of(SimulatedDeviceSpec.defaults()),
				Clock.fixed(now, ZoneOffset.UTC));
		try (RdmaDevice opened = clocked.open(DEVICE)) {
			Counters counters = opened.createCounters();
			counters.attach(CounterType.BYTES, 2);
			opened.createFlow(1, FlowSpec.any(), counters);
			clocked.deliver(DEVICE, 1, tcp("10.0.0.1", "10.0.0.2", 4420, 64));
			CountersSnapshot snapshot = counters.read(ReadMode.PREFER_CACHED);
			assertThat(snapshot.values()).containsExactly(0, 0, 64);
			assertThat(snapshot.readAt()).isEqualTo(now);
		}
	}

	@Test
	void aPortThatIsDownDropsPacketsAndCountsALinkDown() throws Exception {
		Counters counters = packetsAndBytes();
		this.device.createFlow(1, FlowSpec.any(), counters);
		this.backend.setPortState(DEVICE, 1, PortState.DOWN);
		assertThat(this.device.queryPort(1).state()).isEqualTo(PortState.DOWN);
		assertThat(this.device.queryPort(1).physicalStateName()).isEqualTo("Disabled");
		assertThat(this.backend.deliver(DEVICE, 1, tcp("10.0.0.1", "10.0.0.2", 4420, 100))).isZero();
		assertThat(this.backend.transmit(DEVICE, 1, tcp("10.0.0.1", "10.0.0.2", 4420, 100))).isFalse();
		assertThat(counters.read(ReadMode.FRESH).values()).containsExactly(0, 0);
		this.backend.setPortState(DEVICE, 1, PortState.ACTIVE);
		assertThat(this.backend.deliver(DEVICE, 1, tcp("10.0.0.1", "10.0.0.2", 4420, 100))).isEqualTo(1);
		assertThat(this.backend.portCounters(DEVICE).snapshot().port(1).counters()).containsEntry("link_downed", 1L);
	}

	@Test
	void controlApiRejectsUnknownDevicesAndPorts() throws Exception {
		Packet packet = tcp("10.0.0.1", "10.0.0.2", 4420, 100);
		assertThatExceptionOfType(DeviceNotFoundException.class)
			.isThrownBy(() -> this.backend.deliver("nope", 1, packet));
		assertThatIllegalArgumentException().isThrownBy(() -> this.backend.deliver(DEVICE, 2, packet))
			.withMessageContaining("has ports 1 to 1");
		assertThatIllegalArgumentException().isThrownBy(() -> this.backend.setPortState(DEVICE, 0, PortState.DOWN));
	}

	@Test
	void openingADeviceThatIsNotThereListsTheDevicesOnce() {
		this.control.clearVerbCalls();
		assertThatExceptionOfType(DeviceNotFoundException.class).isThrownBy(() -> this.backend.open("mlx5_9"))
			.satisfies((ex) -> assertThat(ex.available()).containsExactly(DEVICE));
		assertThat(this.control.verbCalls()).containsExactly("ibv_get_device_list");
	}

	@Test
	void closingTheDeviceDestroysInTheOrderRdmaCoreNeeds() {
		Counters counters = packetsAndBytes();
		this.device.createFlow(1, NVME_TCP, counters);
		Counters unbound = this.device.createCounters();
		assertThat(unbound.isBound()).isFalse();
		this.control.clearVerbCalls();
		this.device.close();
		assertThat(this.control.verbCalls()).containsExactly("ibv_destroy_flow", "ibv_destroy_counters",
				"ibv_destroy_counters", "ibv_destroy_qp", "ibv_destroy_cq", "ibv_dealloc_pd", "ibv_close_device");
	}

	@Test
	void verbCallsRecordTheCallsThatReachedTheDeviceButNotThoseRefusedAfterClose() {
		this.control.clearVerbCalls();
		Counters counters = packetsAndBytes();
		this.device.createFlow(1, NVME_TCP, counters);
		counters.read(ReadMode.FRESH);
		assertThat(this.control.verbCalls()).containsExactly("ibv_create_counters", "ibv_attach_counters_point_flow",
				"ibv_attach_counters_point_flow", "ibv_alloc_pd", "ibv_create_cq", "ibv_create_qp", "ibv_modify_qp",
				"ibv_modify_qp", "ibv_create_flow", "ibv_read_counters");
		counters.close();
		this.control.clearVerbCalls();
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(() -> counters.read(ReadMode.FRESH));
		assertThat(this.control.verbCalls()).isEmpty();
	}

	@Test
	void eachPortGetsOneQueuePairMovedToInitThenRtrBeforeItsFirstFlow() {
		SimulatedBackend twoPorts = new SimulatedBackend(List.of(SimulatedDeviceSpec.builder().portCount(2).build()));
		SimulatedBackendControl twoPortsControl = SimulatedBackendControl.of(twoPorts);
		try (RdmaDevice opened = twoPorts.open(DEVICE)) {
			twoPortsControl.clearVerbCalls();
			opened.createFlow(1, NVME_TCP, packetsAndBytesOn(opened));
			opened.createFlow(1, FlowSpec.any(), packetsAndBytesOn(opened));
			opened.createFlow(2, NVME_TCP, packetsAndBytesOn(opened));
			assertThat(twoPortsControl.verbCalls().stream().filter((verb) -> verb.contains("_qp")).toList())
				.containsExactly("ibv_create_qp", "ibv_modify_qp", "ibv_modify_qp", "ibv_create_qp", "ibv_modify_qp",
						"ibv_modify_qp");
			assertThat(twoPortsControl.liveObjectDescriptions()).filteredOn((object) -> object.contains("QP"))
				.containsExactly("raw packet QP on sim_mlx5_0 port 1", "raw packet QP on sim_mlx5_0 port 2");
			twoPortsControl.clearVerbCalls();
			opened.close();
			assertThat(twoPortsControl.verbCalls()).filteredOn((verb) -> verb.contains("_qp"))
				.containsExactly("ibv_destroy_qp", "ibv_destroy_qp");
		}
		assertThat(twoPortsControl.liveObjects()).isZero();
	}

	private static Counters packetsAndBytesOn(RdmaDevice opened) {
		Counters counters = opened.createCounters();
		counters.attach(CounterType.PACKETS, 0);
		counters.attach(CounterType.BYTES, 1);
		return counters;
	}

	@Test
	void whenFreeingTheSharedObjectsFailsTheFailureIsSuppressedAndDeviceCloseFreesThem() {
		Counters counters = packetsAndBytes();
		this.control.failNext("ibv_create_qp", Errno.EPERM);
		this.control.failNext("ibv_destroy_cq", Errno.EIO);
		this.control.clearVerbCalls();
		assertThatExceptionOfType(RdmaOperationException.class)
			.isThrownBy(() -> this.device.createFlow(1, NVME_TCP, counters))
			.satisfies((ex) -> assertThat(ex.verb()).isEqualTo("ibv_create_qp"))
			.satisfies((ex) -> assertThat(ex.getSuppressed()).singleElement()
				.satisfies((suppressed) -> assertThat(((RdmaOperationException) suppressed).verb())
					.isEqualTo("ibv_destroy_cq")));
		assertThat(this.control.verbCalls()).containsExactly("ibv_alloc_pd", "ibv_create_cq", "ibv_create_qp",
				"ibv_destroy_cq");
		assertThat(this.control.liveObjectDescriptions()).contains("PD on sim_mlx5_0", "CQ on sim_mlx5_0");
		this.device.createFlow(1, NVME_TCP, counters);
		this.device.close();
		assertThat(this.control.liveObjects()).isZero();
	}

	@Test
	void unknownVerbIsRejectedWhenInjectingAFault() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.control.failNext("ibv_read_counter", Errno.EIO))
			.withMessageContaining("Unknown verb 'ibv_read_counter'")
			.withMessageContaining("ibv_read_counters");
	}

	@Test
	void closingCountersWhoseFlowFailsToBeDestroyedThrowsAndTheNextCloseRetriesBoth() {
		Counters counters = packetsAndBytes();
		int before = this.control.liveObjects();
		Flow flow = this.device.createFlow(1, NVME_TCP, counters);
		this.control.failNext("ibv_destroy_flow", Errno.EIO);
		this.control.clearVerbCalls();
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(counters::close)
			.satisfies((ex) -> assertThat(ex.verb()).isEqualTo("ibv_destroy_flow"));
		assertThat(this.control.verbCalls()).containsExactly("ibv_destroy_flow");
		assertThat(counters.isClosed()).isTrue();
		assertThat(flow.isClosed()).isTrue();
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(() -> counters.read(ReadMode.FRESH));
		this.control.clearVerbCalls();
		counters.close();
		assertThat(this.control.verbCalls()).containsExactly("ibv_destroy_flow", "ibv_destroy_counters");
		assertThat(this.control.liveObjects()).isEqualTo(before + 2);
		this.control.clearVerbCalls();
		counters.close();
		flow.close();
		assertThat(this.control.verbCalls()).isEmpty();
	}

	@Test
	void deviceCloseReportsADestroyFaultButStillFreesEverything() {
		Counters counters = packetsAndBytes();
		this.device.createFlow(1, NVME_TCP, counters);
		this.control.failAlways("ibv_destroy_counters", Errno.EIO);
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(this.device::close)
			.satisfies((ex) -> assertThat(ex.verb()).isEqualTo("ibv_destroy_counters"));
		assertThat(this.device.isClosed()).isTrue();
		assertThat(this.control.liveObjects()).isZero();
	}

}
