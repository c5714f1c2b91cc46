package io.github.rdmacounters.core;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedBackendControl;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for how {@link ManagedDeviceFactory} checks and places counter sets: no trapping
 * flow, overlapping sets at distinct priorities.
 *
 * @author rdma-counters
 */
class ManagedDeviceFactoryPlacementTests {

	private static final String DEVICE = SimulatedDeviceSpec.DEFAULT_NAME;

	private final SimulatedBackend backend = SimulatedBackend.withDefaultDevice();

	private final ManagedDeviceFactory factory = new ManagedDeviceFactory(this.backend, Duration.ZERO,
			Clock.systemUTC(), (name) -> null);

	private static CounterSetDefinition set(String name, FlowSpec spec) {
		return new CounterSetDefinition(name, 1, Map.of(CounterType.PACKETS, 0, CounterType.BYTES, 1), ReadMode.FRESH,
				spec);
	}

	private static DeviceDefinition plan(CounterSetDefinition... sets) {
		return new DeviceDefinition(DEVICE, List.of(sets), "rdma");
	}

	private static Packet tcp(String destination, int port, int length) throws Exception {
		return Packet.tcp(InetAddress.getByName("192.0.2.1"), 40000, InetAddress.getByName(destination), port, length);
	}

	private static long[] values(ManagedDevice device, String set) {
		return device.counterSets()
			.stream()
			.filter((s) -> s.name().equals(set))
			.findFirst()
			.orElseThrow()
			.read()
			.rawValues();
	}

	private static CounterSet counterSet(ManagedDevice device, String set) {
		return device.counterSets().stream().filter((s) -> s.name().equals(set)).findFirst().orElseThrow();
	}

	@Test
	void aSetWithoutDontTrapIsRefusedNamingThePropertyAndWhyBeforeAnythingIsOpened() {
		DeviceDefinition plan = plan(set("steal", FlowSpec.builder().dontTrap(false).build()));
		for (boolean failOnUnavailable : new boolean[] { true, false }) {
			assertThatExceptionOfType(InvalidRdmaConfigurationException.class)
				.isThrownBy(() -> this.factory.create(plan, failOnUnavailable))
				.satisfies((ex) -> assertThat(ex.problems()).singleElement()
					.satisfies((problem) -> assertThat(problem.property())
						.isEqualTo("rdma.counter-sets.steal.flow.dont-trap")))
				.withMessageContaining("away from the kernel")
				.withMessageContaining("no receive buffers");
			assertThat(SimulatedBackendControl.of(this.backend).liveObjects()).isZero();
		}
	}

	@Test
	void aPortOnASubnetIsPlacedBelowTheSubnetSoBothCountEveryPacketTheyMatch() throws Exception {
		DeviceDefinition plan = plan(
				set("tenant", FlowSpec.builder().destinationIp(IpPrefix.parse("198.51.100.0/24")).build()),
				set("nvme", FlowSpec.builder().protocol(L4Protocol.TCP).destinationPort(4420).build()));
		try (ManagedDevice device = this.factory.create(plan, true)) {
			assertThat(counterSet(device, "tenant").priority()).isZero();
			assertThat(counterSet(device, "nvme").priority()).isOne();
			this.backend.deliver(DEVICE, 1, tcp("198.51.100.7", 4420, 1000));
			this.backend.deliver(DEVICE, 1, tcp("198.51.100.7", 443, 100));
			this.backend.deliver(DEVICE, 1, tcp("203.0.113.9", 4420, 10));
			assertThat(values(device, "tenant")).containsExactly(2, 1100);
			assertThat(values(device, "nvme")).containsExactly(2, 1010);
		}
	}

	@Test
	void setsThatCannotMatchTheSamePacketShareTheirPriority() {
		// nvme and https share 0; both prefixes overlap nvme (any address) but not each
		// other, so they share 1
		DeviceDefinition plan = plan(
				set("nvme", FlowSpec.builder().protocol(L4Protocol.TCP).destinationPort(4420).build()),
				set("https", FlowSpec.builder().protocol(L4Protocol.TCP).destinationPort(443).build()),
				set("v6", FlowSpec.builder().destinationIp(IpPrefix.parse("fd00::/8")).build()),
				set("v4", FlowSpec.builder().destinationIp(IpPrefix.parse("10.0.0.0/8")).build()));
		try (ManagedDevice device = this.factory.create(plan, true)) {
			assertThat(device.counterSets()).extracting(CounterSet::priority).containsExactly(0, 0, 1, 1);
		}
	}

	@Test
	void aPriorityBeyondMlx5sUserPrioritiesIsRefusedNamingThePropertyAndTheLimit() {
		DeviceDefinition plan = plan(set("late", FlowSpec.builder().priority(16).build()));
		assertThatExceptionOfType(InvalidRdmaConfigurationException.class)
			.isThrownBy(() -> this.factory.create(plan, false))
			.satisfies((ex) -> assertThat(ex.problems()).singleElement()
				.satisfies(
						(problem) -> assertThat(problem.property()).isEqualTo("rdma.counter-sets.late.flow.priority")))
			.withMessageContaining("must be 0 to 15")
			.withMessageContaining("ENOMEM");
	}

	@Test
	void overlappingSetsBeyondTheLastUserPriorityAreRefusedNamingTheSets() {
		List<CounterSetDefinition> sets = new ArrayList<>();
		for (int i = 0; i < 17; i++) {
			sets.add(set("s" + i, FlowSpec.builder().protocol(L4Protocol.TCP).build()));
		}
		DeviceDefinition plan = new DeviceDefinition(DEVICE, sets, "rdma");
		assertThatExceptionOfType(InvalidRdmaConfigurationException.class)
			.isThrownBy(() -> this.factory.create(plan, true))
			.satisfies((ex) -> assertThat(ex.problems()).singleElement()
				.satisfies(
						(problem) -> assertThat(problem.property()).isEqualTo("rdma.counter-sets.s16.flow.priority")))
			.withMessageContaining("s0")
			.withMessageContaining("s15")
			.withMessageContaining("15");
		assertThat(SimulatedBackendControl.of(this.backend).liveObjects()).isZero();
	}

}
