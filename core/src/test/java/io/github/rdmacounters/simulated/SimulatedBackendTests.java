package io.github.rdmacounters.simulated;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.CounterPoint;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.CountersSnapshot;
import io.github.rdmacounters.core.DeviceAttributes;
import io.github.rdmacounters.core.DeviceId;
import io.github.rdmacounters.core.DeviceNotFoundException;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.Flow;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.IpPrefix;
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

	private static final FlowSpec ROCE = FlowSpec.builder()
		.protocol(L4Protocol.UDP)
		.destinationPort(Packet.ROCE_V2_PORT)
		.build();

	private final SimulatedBackend backend = SimulatedBackend.withDefaultDevice();

	private final RdmaDevice device = this.backend.open(DEVICE);

	@AfterEach
	void closeDevice() {
		this.backend.clearFaults();
		this.device.close();
	}

	static Packet udp(String source, String destination, int destinationPort, int length) throws Exception {
		return Packet.udp(InetAddress.getByName(source), 49152, InetAddress.getByName(destination), destinationPort,
				length);
	}

	private Counters packetsAndBytes() {
		Counters counters = this.device.createCounters();
		counters.attach(CounterType.PACKETS, 0);
		counters.attach(CounterType.BYTES, 1);
		return counters;
	}

	@Test
	void devicesListsTheConfiguredDevicesWithTheirGuids() {
		SimulatedBackend two = new SimulatedBackend(List.of(SimulatedDeviceSpec.defaults(),
				SimulatedDeviceSpec.builder().name("sim_rxe_0").nodeGuid(0x1234L).countersSupported(false).build()));
		assertThat(two.name()).isEqualTo("simulated");
		assertThat(two.devices()).containsExactly(new DeviceId("sim_mlx5_0", 0x0c42_a103_0065_0f2cL),
				new DeviceId("sim_rxe_0", 0x1234L));
	}

	@Test
	void openUnknownDeviceThrowsDeviceNotFoundListingTheDevices() {
		assertThatExceptionOfType(DeviceNotFoundException.class).isThrownBy(() -> this.backend.open("mlx5_9"))
			.withMessage("No RDMA device named 'mlx5_9'; devices found: sim_mlx5_0")
			.satisfies((ex) -> assertThat(ex.available()).containsExactly("sim_mlx5_0"));
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
	void queryPortOfMissingPortFailsWithEinval() {
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(() -> this.device.queryPort(2))
			.satisfies((ex) -> assertThat(ex.errno()).isEqualTo(Errno.EINVAL))
			.withMessageContaining("ibv_query_port failed: EINVAL (22)")
			.withMessageContaining("has ports 1 to 1");
	}

	@Test
	void createCountersOnProviderWithoutCountersFailsWithEopnotsupp() {
		SimulatedBackend rxe = new SimulatedBackend(
				List.of(SimulatedDeviceSpec.builder().name("sim_rxe_0").countersSupported(false).build()));
		try (RdmaDevice opened = rxe.open("sim_rxe_0")) {
			assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(opened::createCounters)
				.withMessage("ibv_create_counters failed: EOPNOTSUPP (95) Operation not supported: "
						+ "only the mlx5 provider implements flow counters")
				.satisfies((ex) -> assertThat(ex.verb()).isEqualTo("ibv_create_counters"));
		}
		assertThat(rxe.liveObjects()).isZero();
	}

	@Test
	void deliverCountsPacketsAndBytesOfMatchingPacketsOnly() throws Exception {
		Counters counters = packetsAndBytes();
		this.device.createFlow(1, ROCE, counters);
		assertThat(this.backend.deliver(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 4791, 1024))).isEqualTo(1);
		this.backend.deliver(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 4791, 512));
		assertThat(this.backend.deliver(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 53, 100))).isZero();
		long[] values = new long[2];
		counters.read(values, ReadMode.FRESH);
		assertThat(values).containsExactly(2, 1536);
	}

	@Test
	void deliverMatchesPrefixesOfTheFlowSpec() throws Exception {
		Counters counters = packetsAndBytes();
		FlowSpec subnet = FlowSpec.builder().destinationIp(IpPrefix.parse("192.168.10.0/24")).build();
		this.device.createFlow(1, subnet, counters);
		this.backend.deliver(DEVICE, 1, udp("10.0.0.1", "192.168.10.7", 4791, 100));
		this.backend.deliver(DEVICE, 1, udp("10.0.0.1", "192.168.11.7", 4791, 100));
		this.backend.deliver(DEVICE, 1, udp("fd00::1", "fd00::2", 4791, 100));
		assertThat(counters.read(ReadMode.FRESH).values()).containsExactly(1, 100);
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
			clocked.deliver(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 4791, 64));
			CountersSnapshot snapshot = counters.read(ReadMode.PREFER_CACHED);
			assertThat(snapshot.values()).containsExactly(0, 0, 64);
			assertThat(snapshot.readAt()).isEqualTo(now);
		}
	}

	@Test
	void attachingTheSameIndexTwiceAggregatesTheValues() throws Exception {
		Counters counters = this.device.createCounters();
		counters.attach(CounterType.PACKETS, 0);
		counters.attach(CounterType.BYTES, 0);
		this.device.createFlow(1, FlowSpec.any(), counters);
		this.backend.deliver(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 4791, 100));
		assertThat(counters.size()).isEqualTo(1);
		assertThat(counters.points()).containsExactly(new CounterPoint(CounterType.PACKETS, 0),
				new CounterPoint(CounterType.BYTES, 0));
		assertThat(counters.read(ReadMode.FRESH).values()).containsExactly(101);
	}

	@Test
	void attachAfterBindingFailsWithEbusy() {
		Counters counters = packetsAndBytes();
		this.device.createFlow(1, ROCE, counters);
		assertThatExceptionOfType(RdmaOperationException.class)
			.isThrownBy(() -> counters.attach(CounterType.PACKETS, 2))
			.satisfies((ex) -> assertThat(ex.errno()).isEqualTo(Errno.EBUSY))
			.withMessageContaining("ibv_attach_counters_point_flow failed: EBUSY (16)");
		assertThat(counters.size()).isEqualTo(2);
	}

	@Test
	void readingAnUnboundHandleFailsWithEinval() {
		Counters counters = packetsAndBytes();
		assertThat(counters.isBound()).isFalse();
		assertThatExceptionOfType(RdmaOperationException.class)
			.isThrownBy(() -> counters.read(new long[2], ReadMode.FRESH))
			.satisfies((ex) -> assertThat(ex.errno()).isEqualTo(Errno.EINVAL))
			.withMessageContaining("ibv_read_counters failed: EINVAL (22)")
			.withMessageContaining("bound to no flow");
	}

	@Test
	void readingIntoTooFewSlotsFailsWithEinval() {
		Counters counters = packetsAndBytes();
		this.device.createFlow(1, ROCE, counters);
		assertThatExceptionOfType(RdmaOperationException.class)
			.isThrownBy(() -> counters.read(new long[1], ReadMode.FRESH))
			.satisfies((ex) -> assertThat(ex.errno()).isEqualTo(Errno.EINVAL));
	}

	@Test
	void readingIntoALongerArrayFillsSizeSlotsAndLeavesTheOthersUntouched() throws Exception {
		Counters counters = packetsAndBytes();
		this.device.createFlow(1, ROCE, counters);
		this.backend.deliver(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 4791, 300));
		long[] values = { -1, -1, -1, -1 };
		counters.read(values, ReadMode.FRESH);
		assertThat(values).containsExactly(1, 300, -1, -1);
	}

	@Test
	void createFlowWithoutAttachedPointFailsWithEinval() {
		Counters counters = this.device.createCounters();
		assertThatExceptionOfType(RdmaOperationException.class)
			.isThrownBy(() -> this.device.createFlow(1, ROCE, counters))
			.satisfies((ex) -> assertThat(ex.errno()).isEqualTo(Errno.EINVAL))
			.withMessageContaining("ibv_create_flow failed: EINVAL (22)")
			.withMessageContaining("no point attached");
	}

	@Test
	void aSecondFlowOnBoundCountersFailsWithEbusy() {
		Counters counters = packetsAndBytes();
		this.device.createFlow(1, ROCE, counters);
		int live = this.backend.liveObjects();
		assertThatExceptionOfType(RdmaOperationException.class)
			.isThrownBy(() -> this.device.createFlow(1, FlowSpec.any(), counters))
			.satisfies((ex) -> assertThat(ex.errno()).isEqualTo(Errno.EBUSY))
			.withMessageContaining("ibv_create_flow failed: EBUSY (16)");
		assertThat(this.backend.liveObjects()).isEqualTo(live);
	}

	@Test
	void afterItsFlowIsDestroyedAHandleIsUnboundAndCanBeBoundAgainKeepingItsValues() throws Exception {
		Counters counters = packetsAndBytes();
		Flow flow = this.device.createFlow(1, ROCE, counters);
		this.backend.deliver(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 4791, 100));
		flow.close();
		assertThat(counters.isBound()).isFalse();
		assertThatExceptionOfType(RdmaOperationException.class)
			.isThrownBy(() -> counters.read(new long[2], ReadMode.FRESH))
			.satisfies((ex) -> assertThat(ex.errno()).isEqualTo(Errno.EINVAL));
		this.device.createFlow(1, FlowSpec.any(), counters);
		assertThat(counters.isBound()).isTrue();
		this.backend.deliver(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 53, 50));
		assertThat(counters.read(ReadMode.FRESH).values()).containsExactly(2, 150);
	}

	@Test
	void attachIsAllowedAgainOnceTheBoundFlowIsDestroyed() throws Exception {
		Counters counters = this.device.createCounters();
		counters.attach(CounterType.PACKETS, 0);
		Flow flow = this.device.createFlow(1, FlowSpec.any(), counters);
		this.backend.deliver(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 4791, 100));
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(() -> counters.attach(CounterType.BYTES, 1))
			.satisfies((ex) -> assertThat(ex.errno()).isEqualTo(Errno.EBUSY));
		flow.close();
		counters.attach(CounterType.BYTES, 1);
		assertThat(counters.size()).isEqualTo(2);
		this.device.createFlow(1, FlowSpec.any(), counters);
		this.backend.deliver(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 4791, 40));
		assertThat(counters.read(ReadMode.FRESH).values()).containsExactly(2, 40);
	}

	@Test
	void createFlowOnMissingPortFailsInModifyQpToInitWithEinvalAndLeavesNothingBehind() {
		Counters counters = packetsAndBytes();
		int before = this.backend.liveObjects();
		this.backend.clearVerbCalls();
		assertThatExceptionOfType(RdmaOperationException.class)
			.isThrownBy(() -> this.device.createFlow(3, ROCE, counters))
			.satisfies((ex) -> assertThat(ex.verb()).isEqualTo("ibv_modify_qp"))
			.satisfies((ex) -> assertThat(ex.errno()).isEqualTo(Errno.EINVAL))
			.withMessage("ibv_modify_qp failed: EINVAL (22) Invalid argument: "
					+ "moving the raw packet queue pair of sim_mlx5_0 port 3 to INIT");
		assertThat(this.backend.verbCalls()).containsExactly("ibv_alloc_pd", "ibv_create_cq", "ibv_create_qp",
				"ibv_modify_qp", "ibv_destroy_qp", "ibv_destroy_cq", "ibv_dealloc_pd");
		assertThat(this.backend.liveObjects()).as(this.backend.liveObjectDescriptions().toString()).isEqualTo(before);
		assertThat(counters.isBound()).isFalse();
	}

	@Test
	void createFlowOnPortOutsideOneTo255IsRejectedBeforeAnyVerb() {
		Counters counters = packetsAndBytes();
		this.backend.clearVerbCalls();
		assertThatIllegalArgumentException().isThrownBy(() -> this.device.createFlow(0, ROCE, counters))
			.withMessage("Port numbers start at 1 and end at 255, but was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> this.device.createFlow(256, ROCE, counters));
		assertThat(this.backend.verbCalls()).isEmpty();
	}

	@Test
	void createFlowWithoutManagedFlowSteeringFailsWithEopnotsupp() {
		SimulatedBackend noSteering = new SimulatedBackend(
				List.of(SimulatedDeviceSpec.builder().managedFlowSteering(false).build()));
		try (RdmaDevice opened = noSteering.open(DEVICE)) {
			assertThat(opened.queryDevice().managedFlowSteering()).isFalse();
			Counters counters = opened.createCounters();
			counters.attach(CounterType.PACKETS, 0);
			assertThatExceptionOfType(RdmaOperationException.class)
				.isThrownBy(() -> opened.createFlow(1, ROCE, counters))
				.satisfies((ex) -> assertThat(ex.errno()).isEqualTo(Errno.EOPNOTSUPP))
				.withMessageContaining("IBV_DEVICE_MANAGED_FLOW_STEERING");
		}
	}

	@Test
	void createFlowWithCountersOfAnotherDeviceIsRejected() {
		try (RdmaDevice other = this.backend.open(DEVICE)) {
			Counters foreign = other.createCounters();
			foreign.attach(CounterType.PACKETS, 0);
			assertThatIllegalArgumentException().isThrownBy(() -> this.device.createFlow(1, ROCE, foreign))
				.withMessageContaining("not created by this device");
		}
	}

	@Test
	void withDontTrapEveryMatchingFlowCounts() throws Exception {
		Counters roce = packetsAndBytes();
		Counters all = packetsAndBytes();
		this.device.createFlow(1, ROCE, roce);
		this.device.createFlow(1, FlowSpec.any(), all);
		assertThat(this.backend.deliver(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 4791, 200))).isEqualTo(2);
		assertThat(this.backend.deliver(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 80, 300))).isEqualTo(1);
		assertThat(roce.read(ReadMode.FRESH).values()).containsExactly(1, 200);
		assertThat(all.read(ReadMode.FRESH).values()).containsExactly(2, 500);
	}

	@Test
	void aTrappingFlowTakesThePacketFromFlowsOfLowerPriority() throws Exception {
		Counters trapping = packetsAndBytes();
		Counters later = packetsAndBytes();
		Counters lowPriority = packetsAndBytes();
		this.device.createFlow(1, FlowSpec.builder().priority(5).build(), lowPriority);
		this.device.createFlow(1, FlowSpec.builder().protocol(L4Protocol.UDP).priority(1).dontTrap(false).build(),
				trapping);
		this.device.createFlow(1, FlowSpec.builder().priority(1).build(), later);
		assertThat(this.backend.deliver(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 4791, 100))).isEqualTo(1);
		Packet tcp = Packet.tcp(InetAddress.getByName("10.0.0.1"), 1000, InetAddress.getByName("10.0.0.2"), 80, 60);
		assertThat(this.backend.deliver(DEVICE, 1, tcp)).isEqualTo(2);
		assertThat(trapping.read(ReadMode.FRESH).get(0)).isEqualTo(1);
		assertThat(later.read(ReadMode.FRESH).get(0)).isEqualTo(1);
		assertThat(lowPriority.read(ReadMode.FRESH).get(0)).isEqualTo(1);
	}

	@Test
	void flowsCountOnlyTrafficOfTheirPort() throws Exception {
		SimulatedBackend twoPorts = new SimulatedBackend(List.of(SimulatedDeviceSpec.builder().portCount(2).build()));
		try (RdmaDevice opened = twoPorts.open(DEVICE)) {
			Counters counters = opened.createCounters();
			counters.attach(CounterType.PACKETS, 0);
			opened.createFlow(2, FlowSpec.any(), counters);
			twoPorts.deliver(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 4791, 100));
			twoPorts.deliver(DEVICE, 2, udp("10.0.0.1", "10.0.0.2", 4791, 100));
			assertThat(counters.read(ReadMode.FRESH).values()).containsExactly(1);
		}
	}

	@Test
	void aPortThatIsDownDropsPacketsAndCountsALinkDown() throws Exception {
		Counters counters = packetsAndBytes();
		this.device.createFlow(1, FlowSpec.any(), counters);
		this.backend.setPortState(DEVICE, 1, PortState.DOWN);
		assertThat(this.device.queryPort(1).state()).isEqualTo(PortState.DOWN);
		assertThat(this.device.queryPort(1).physicalStateName()).isEqualTo("Disabled");
		assertThat(this.backend.deliver(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 4791, 100))).isZero();
		assertThat(this.backend.transmit(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 4791, 100))).isFalse();
		assertThat(counters.read(ReadMode.FRESH).values()).containsExactly(0, 0);
		this.backend.setPortState(DEVICE, 1, PortState.ACTIVE);
		assertThat(this.backend.deliver(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 4791, 100))).isEqualTo(1);
		assertThat(this.backend.portCounters(DEVICE).snapshot().port(1).counters()).containsEntry("link_downed", 1L);
	}

	@Test
	void controlApiRejectsUnknownDevicesAndPorts() throws Exception {
		Packet packet = udp("10.0.0.1", "10.0.0.2", 4791, 100);
		assertThatExceptionOfType(DeviceNotFoundException.class)
			.isThrownBy(() -> this.backend.deliver("nope", 1, packet));
		assertThatIllegalArgumentException().isThrownBy(() -> this.backend.deliver(DEVICE, 2, packet))
			.withMessageContaining("has ports 1 to 1");
		assertThatIllegalArgumentException().isThrownBy(() -> this.backend.setPortState(DEVICE, 0, PortState.DOWN));
	}

	@Test
	void closingCountersDestroysTheBoundFlowFirstAndFreesBoth() {
		int before = this.backend.liveObjects();
		Counters counters = packetsAndBytes();
		Flow flow = this.device.createFlow(1, ROCE, counters);
		assertThat(this.backend.liveObjects()).isEqualTo(before + 5);
		counters.close();
		assertThat(flow.isClosed()).isTrue();
		assertThat(counters.isClosed()).isTrue();
		assertThat(this.backend.liveObjects()).as(this.backend.liveObjectDescriptions().toString())
			.isEqualTo(before + 3);
		counters.close();
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(() -> counters.read(ReadMode.FRESH))
			.withMessage("Counters on sim_mlx5_0 is closed");
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(() -> counters.attach(CounterType.BYTES, 3));
		assertThatExceptionOfType(RdmaClosedException.class)
			.isThrownBy(() -> this.device.createFlow(1, ROCE, counters));
	}

	@Test
	void closingTheDeviceClosesEveryChildAndLeavesNothingLive() {
		Counters first = packetsAndBytes();
		Counters second = packetsAndBytes();
		Flow flow = this.device.createFlow(1, ROCE, first);
		this.device.createFlow(1, FlowSpec.any(), second);
		Counters unbound = this.device.createCounters();
		this.device.close();
		this.device.close();
		assertThat(this.device.isClosed()).isTrue();
		assertThat(flow.isClosed()).isTrue();
		assertThat(first.isClosed()).isTrue();
		assertThat(second.isClosed()).isTrue();
		assertThat(unbound.isClosed()).isTrue();
		assertThat(this.backend.liveObjects()).as(this.backend.liveObjectDescriptions().toString()).isZero();
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(this.device::createCounters)
			.withMessage("Device sim_mlx5_0 is closed");
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(this.device::queryDevice);
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(() -> this.device.queryPort(1));
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(() -> first.read(ReadMode.FRESH));
		first.close();
		flow.close();
	}

	@Test
	void closingTheDeviceDestroysInTheOrderRdmaCoreNeeds() {
		Counters counters = packetsAndBytes();
		this.device.createFlow(1, ROCE, counters);
		Counters unbound = this.device.createCounters();
		assertThat(unbound.isBound()).isFalse();
		this.backend.clearVerbCalls();
		this.device.close();
		assertThat(this.backend.verbCalls()).containsExactly("ibv_destroy_flow", "ibv_destroy_counters",
				"ibv_destroy_counters", "ibv_destroy_qp", "ibv_destroy_cq", "ibv_dealloc_pd", "ibv_close_device");
	}

	@Test
	void verbCallsRecordTheCallsThatReachedTheDeviceButNotThoseRefusedAfterClose() {
		this.backend.clearVerbCalls();
		Counters counters = packetsAndBytes();
		this.device.createFlow(1, ROCE, counters);
		counters.read(ReadMode.FRESH);
		assertThat(this.backend.verbCalls()).containsExactly("ibv_create_counters", "ibv_attach_counters_point_flow",
				"ibv_attach_counters_point_flow", "ibv_alloc_pd", "ibv_create_cq", "ibv_create_qp", "ibv_modify_qp",
				"ibv_modify_qp", "ibv_create_flow", "ibv_read_counters");
		counters.close();
		this.backend.clearVerbCalls();
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(() -> counters.read(ReadMode.FRESH));
		assertThat(this.backend.verbCalls()).isEmpty();
	}

	@Test
	void eachPortGetsOneQueuePairMovedToInitThenRtrBeforeItsFirstFlow() {
		SimulatedBackend twoPorts = new SimulatedBackend(List.of(SimulatedDeviceSpec.builder().portCount(2).build()));
		try (RdmaDevice opened = twoPorts.open(DEVICE)) {
			twoPorts.clearVerbCalls();
			opened.createFlow(1, ROCE, packetsAndBytesOn(opened));
			opened.createFlow(1, FlowSpec.any(), packetsAndBytesOn(opened));
			opened.createFlow(2, ROCE, packetsAndBytesOn(opened));
			assertThat(twoPorts.verbCalls().stream().filter((verb) -> verb.contains("_qp")).toList()).containsExactly(
					"ibv_create_qp", "ibv_modify_qp", "ibv_modify_qp", "ibv_create_qp", "ibv_modify_qp",
					"ibv_modify_qp");
			assertThat(twoPorts.liveObjectDescriptions()).filteredOn((object) -> object.contains("QP"))
				.containsExactly("raw packet QP on sim_mlx5_0 port 1", "raw packet QP on sim_mlx5_0 port 2");
			twoPorts.clearVerbCalls();
			opened.close();
			assertThat(twoPorts.verbCalls()).filteredOn((verb) -> verb.contains("_qp"))
				.containsExactly("ibv_destroy_qp", "ibv_destroy_qp");
		}
		assertThat(twoPorts.liveObjects()).isZero();
	}

	private static Counters packetsAndBytesOn(RdmaDevice opened) {
		Counters counters = opened.createCounters();
		counters.attach(CounterType.PACKETS, 0);
		counters.attach(CounterType.BYTES, 1);
		return counters;
	}

	@Test
	void failNextFailsOneCallWithTheInjectedErrno() {
		Counters counters = packetsAndBytes();
		this.device.createFlow(1, ROCE, counters);
		this.backend.failNext("ibv_read_counters", Errno.EIO);
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(() -> counters.read(ReadMode.FRESH))
			.withMessage(
					"ibv_read_counters failed: EIO (5) Input/output error: fault injected into the simulated device");
		assertThat(counters.read(ReadMode.FRESH).values()).containsExactly(0, 0);
	}

	@Test
	void failAlwaysFailsEveryCallUntilTheFaultsAreCleared() {
		this.backend.failAlways("ibv_create_counters", Errno.ENOMEM);
		for (int i = 0; i < 3; i++) {
			assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(this.device::createCounters)
				.satisfies((ex) -> assertThat(ex.errnoName()).isEqualTo("ENOMEM"));
		}
		this.backend.clearFaults();
		assertThat(this.device.createCounters().isClosed()).isFalse();
	}

	@Test
	void faultsInOpenAndListingReachTheCaller() {
		this.backend.failNext("ibv_open_device", Errno.EPERM);
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(() -> this.backend.open(DEVICE))
			.satisfies((ex) -> assertThat(ex.verb()).isEqualTo("ibv_open_device"));
		this.backend.failNext("ibv_get_device_list", Errno.ENOSYS);
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(this.backend::devices)
			.satisfies((ex) -> assertThat(ex.errno()).isEqualTo(Errno.ENOSYS));
		assertThat(this.backend.devices()).hasSize(1);
	}

	@Test
	void aFailedQueuePairSetupLeavesNoQueuePairBehind() {
		Counters counters = packetsAndBytes();
		int before = this.backend.liveObjects();
		this.backend.failNext("ibv_modify_qp", Errno.EPERM);
		this.backend.clearVerbCalls();
		assertThatExceptionOfType(RdmaOperationException.class)
			.isThrownBy(() -> this.device.createFlow(1, ROCE, counters))
			.satisfies((ex) -> assertThat(ex.verb()).isEqualTo("ibv_modify_qp"));
		assertThat(this.backend.verbCalls()).containsExactly("ibv_alloc_pd", "ibv_create_cq", "ibv_create_qp",
				"ibv_modify_qp", "ibv_destroy_qp", "ibv_destroy_cq", "ibv_dealloc_pd");
		assertThat(counters.isBound()).isFalse();
		assertThat(this.backend.liveObjects()).as(this.backend.liveObjectDescriptions().toString()).isEqualTo(before);
		this.device.createFlow(1, ROCE, counters);
		assertThat(this.backend.liveObjects()).isEqualTo(before + 4);
	}

	@Test
	void aFailedQueuePairCreationFreesTheProtectionDomainAndCompletionQueue() {
		Counters counters = packetsAndBytes();
		int before = this.backend.liveObjects();
		this.backend.failNext("ibv_create_qp", Errno.EPERM);
		this.backend.clearVerbCalls();
		assertThatExceptionOfType(RdmaOperationException.class)
			.isThrownBy(() -> this.device.createFlow(1, ROCE, counters))
			.satisfies((ex) -> assertThat(ex.verb()).isEqualTo("ibv_create_qp"));
		assertThat(this.backend.verbCalls()).containsExactly("ibv_alloc_pd", "ibv_create_cq", "ibv_create_qp",
				"ibv_destroy_cq", "ibv_dealloc_pd");
		assertThat(this.backend.liveObjects()).as(this.backend.liveObjectDescriptions().toString()).isEqualTo(before);
	}

	@Test
	void aFailedCompletionQueueCreationFreesTheProtectionDomain() {
		Counters counters = packetsAndBytes();
		int before = this.backend.liveObjects();
		this.backend.failNext("ibv_create_cq", Errno.ENOMEM);
		this.backend.clearVerbCalls();
		assertThatExceptionOfType(RdmaOperationException.class)
			.isThrownBy(() -> this.device.createFlow(1, ROCE, counters))
			.satisfies((ex) -> assertThat(ex.verb()).isEqualTo("ibv_create_cq"));
		assertThat(this.backend.verbCalls()).containsExactly("ibv_alloc_pd", "ibv_create_cq", "ibv_dealloc_pd");
		assertThat(this.backend.liveObjects()).isEqualTo(before);
	}

	@Test
	void aFailedQueuePairOnASecondPortKeepsTheSharedObjectsTheFirstPortUses() {
		SimulatedBackend twoPorts = new SimulatedBackend(List.of(SimulatedDeviceSpec.builder().portCount(2).build()));
		try (RdmaDevice opened = twoPorts.open(DEVICE)) {
			opened.createFlow(1, ROCE, packetsAndBytesOn(opened));
			int before = twoPorts.liveObjects();
			twoPorts.failNext("ibv_create_qp", Errno.ENOMEM);
			twoPorts.clearVerbCalls();
			Counters counters = packetsAndBytesOn(opened);
			assertThatExceptionOfType(RdmaOperationException.class)
				.isThrownBy(() -> opened.createFlow(2, ROCE, counters));
			assertThat(twoPorts.verbCalls()).doesNotContain("ibv_destroy_cq", "ibv_dealloc_pd");
			assertThat(twoPorts.liveObjects()).isEqualTo(before + 1);
		}
		assertThat(twoPorts.liveObjects()).isZero();
	}

	@Test
	void whenFreeingTheSharedObjectsFailsTheFailureIsSuppressedAndDeviceCloseFreesThem() {
		Counters counters = packetsAndBytes();
		this.backend.failNext("ibv_create_qp", Errno.EPERM);
		this.backend.failNext("ibv_destroy_cq", Errno.EIO);
		this.backend.clearVerbCalls();
		assertThatExceptionOfType(RdmaOperationException.class)
			.isThrownBy(() -> this.device.createFlow(1, ROCE, counters))
			.satisfies((ex) -> assertThat(ex.verb()).isEqualTo("ibv_create_qp"))
			.satisfies((ex) -> assertThat(ex.getSuppressed()).singleElement()
				.satisfies((suppressed) -> assertThat(((RdmaOperationException) suppressed).verb())
					.isEqualTo("ibv_destroy_cq")));
		assertThat(this.backend.verbCalls()).containsExactly("ibv_alloc_pd", "ibv_create_cq", "ibv_create_qp",
				"ibv_destroy_cq");
		assertThat(this.backend.liveObjectDescriptions()).contains("PD on sim_mlx5_0", "CQ on sim_mlx5_0");
		this.device.createFlow(1, ROCE, counters);
		this.device.close();
		assertThat(this.backend.liveObjects()).isZero();
	}

	@Test
	void unknownVerbIsRejectedWhenInjectingAFault() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.backend.failNext("ibv_read_counter", Errno.EIO))
			.withMessageContaining("Unknown verb 'ibv_read_counter'")
			.withMessageContaining("ibv_read_counters");
	}

	@Test
	void aFlowThatFailsToBeDestroyedIsClosedForJavaKeepsCountingAndIsRemovedByTheNextClose() throws Exception {
		Counters counters = packetsAndBytes();
		Flow flow = this.device.createFlow(1, ROCE, counters);
		int live = this.backend.liveObjects();
		this.backend.failNext("ibv_destroy_flow", Errno.EIO);
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(flow::close)
			.satisfies((ex) -> assertThat(ex.verb()).isEqualTo("ibv_destroy_flow"));
		assertThat(flow.isClosed()).isTrue();
		assertThat(counters.isBound()).isFalse();
		assertThat(this.backend.liveObjects()).isEqualTo(live);
		this.backend.deliver(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 4791, 100));
		assertThat(counters.read(ReadMode.FRESH).values()).containsExactly(1, 100);
		this.backend.clearVerbCalls();
		flow.close();
		assertThat(this.backend.verbCalls()).containsExactly("ibv_destroy_flow");
		assertThat(this.backend.liveObjects()).isEqualTo(live - 1);
		this.backend.deliver(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 4791, 100));
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(() -> counters.read(ReadMode.FRESH))
			.satisfies((ex) -> assertThat(ex.errno()).isEqualTo(Errno.EINVAL));
		this.backend.clearVerbCalls();
		flow.close();
		assertThat(this.backend.verbCalls()).isEmpty();
	}

	@Test
	void closingCountersAfterTheirFlowFailedToBeDestroyedRetriesTheFlowAndFreesBoth() {
		Counters counters = packetsAndBytes();
		int before = this.backend.liveObjects();
		Flow flow = this.device.createFlow(1, ROCE, counters);
		this.backend.failNext("ibv_destroy_flow", Errno.EIO);
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(flow::close);
		this.backend.clearVerbCalls();
		counters.close();
		assertThat(this.backend.verbCalls()).containsExactly("ibv_destroy_flow", "ibv_destroy_counters");
		assertThat(counters.isClosed()).isTrue();
		assertThat(this.backend.liveObjects()).as(this.backend.liveObjectDescriptions().toString())
			.isEqualTo(before + 2);
	}

	@Test
	void closingCountersWhoseFlowFailsToBeDestroyedThrowsAndTheNextCloseRetriesBoth() {
		Counters counters = packetsAndBytes();
		int before = this.backend.liveObjects();
		Flow flow = this.device.createFlow(1, ROCE, counters);
		this.backend.failNext("ibv_destroy_flow", Errno.EIO);
		this.backend.clearVerbCalls();
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(counters::close)
			.satisfies((ex) -> assertThat(ex.verb()).isEqualTo("ibv_destroy_flow"));
		assertThat(this.backend.verbCalls()).containsExactly("ibv_destroy_flow");
		assertThat(counters.isClosed()).isTrue();
		assertThat(flow.isClosed()).isTrue();
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(() -> counters.read(ReadMode.FRESH));
		this.backend.clearVerbCalls();
		counters.close();
		assertThat(this.backend.verbCalls()).containsExactly("ibv_destroy_flow", "ibv_destroy_counters");
		assertThat(this.backend.liveObjects()).isEqualTo(before + 2);
		this.backend.clearVerbCalls();
		counters.close();
		flow.close();
		assertThat(this.backend.verbCalls()).isEmpty();
	}

	@Test
	void closingCountersAgainAfterAFailedCountersDestroyRetriesIt() {
		Counters counters = this.device.createCounters();
		int live = this.backend.liveObjects();
		this.backend.failNext("ibv_destroy_counters", Errno.EIO);
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(counters::close)
			.withMessageStartingWith("ibv_destroy_counters failed: EIO (5)");
		assertThat(counters.isClosed()).isTrue();
		assertThat(this.backend.liveObjects()).isEqualTo(live);
		this.backend.clearVerbCalls();
		counters.close();
		assertThat(this.backend.verbCalls()).containsExactly("ibv_destroy_counters");
		assertThat(this.backend.liveObjects()).isEqualTo(live - 1);
	}

	@Test
	void aFlowLeftInstalledByAFailedDestroyIsFreedWhenTheDeviceCloses() {
		Counters counters = packetsAndBytes();
		Flow flow = this.device.createFlow(1, ROCE, counters);
		this.backend.failNext("ibv_destroy_flow", Errno.EIO);
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(flow::close);
		this.device.close();
		assertThat(this.backend.liveObjects()).isZero();
		this.backend.clearVerbCalls();
		flow.close();
		counters.close();
		assertThat(this.backend.verbCalls()).isEmpty();
	}

	@Test
	void deviceCloseReportsADestroyFaultButStillFreesEverything() {
		Counters counters = packetsAndBytes();
		this.device.createFlow(1, ROCE, counters);
		this.backend.failAlways("ibv_destroy_counters", Errno.EIO);
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(this.device::close)
			.satisfies((ex) -> assertThat(ex.verb()).isEqualTo("ibv_destroy_counters"));
		assertThat(this.device.isClosed()).isTrue();
		assertThat(this.backend.liveObjects()).isZero();
	}

	@Test
	void twoContextsOnOneDeviceShareTheTraffic() throws Exception {
		try (RdmaDevice second = this.backend.open(DEVICE)) {
			Counters mine = packetsAndBytes();
			Counters theirs = second.createCounters();
			theirs.attach(CounterType.PACKETS, 0);
			this.device.createFlow(1, ROCE, mine);
			second.createFlow(1, ROCE, theirs);
			this.backend.deliver(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 4791, 100));
			assertThat(mine.read(ReadMode.FRESH).get(0)).isEqualTo(1);
			assertThat(theirs.read(ReadMode.FRESH).get(0)).isEqualTo(1);
		}
		this.backend.deliver(DEVICE, 1, udp("10.0.0.1", "10.0.0.2", 4791, 100));
		assertThat(this.backend.liveObjects()).isEqualTo(6);
	}

}
