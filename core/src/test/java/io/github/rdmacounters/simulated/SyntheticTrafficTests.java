package io.github.rdmacounters.simulated;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.IpPrefix;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.MacAddress;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.ReadMode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link SyntheticTraffic}.
 *
 * @author rdma-counters
 */
class SyntheticTrafficTests {

	private static final FlowSpec VXLAN = FlowSpec.builder().protocol(L4Protocol.UDP).destinationPort(4789).build();

	private final SimulatedBackend backend = SimulatedBackend.withDefaultDevice();

	private final RdmaDevice device = this.backend.open(SimulatedDeviceSpec.DEFAULT_NAME);

	@AfterEach
	void close() {
		this.device.close();
	}

	static Stream<FlowSpec> specs() {
		return Stream.of(FlowSpec.any(), VXLAN,
				FlowSpec.builder().protocol(L4Protocol.TCP).destinationPort(443).build(),
				FlowSpec.builder().sourceIp(IpPrefix.parse("fd00:1::/64")).protocol(L4Protocol.TCP).build(),
				FlowSpec.builder()
					.destinationIp(IpPrefix.parse("10.20.0.0/16"))
					.sourceMac(MacAddress.parse("02:00:00:00:00:aa"))
					.vlanId(7)
					.protocol(L4Protocol.UDP)
					.sourcePort(5000)
					.build(),
				FlowSpec.builder().etherType(0x8915).build());
	}

	@ParameterizedTest
	@MethodSource("specs")
	void matchingBuildsAPacketTheSpecMatches(FlowSpec spec) {
		assertThat(spec.matches(SyntheticTraffic.matching(spec, 512))).isTrue();
		assertThat(SyntheticTraffic.matching(spec, 512).length()).isEqualTo(512);
	}

	@Test
	void tickDeliversWhatTheRateOwesToTheStreamsFlow() {
		Counters counters = this.device.createCounters();
		counters.attach(CounterType.PACKETS, 0);
		counters.attach(CounterType.BYTES, 1);
		this.device.createFlow(1, VXLAN, counters);
		SyntheticTraffic traffic = SyntheticTraffic.start(this.backend,
				List.of(new SyntheticTraffic.Stream(SimulatedDeviceSpec.DEFAULT_NAME, "vxlan", 1, VXLAN, 250, 1000)),
				Duration.ofHours(1));
		try {
			traffic.tick();
			traffic.tick();
		}
		finally {
			traffic.close();
		}
		// 250 packets per second for a tick of one hour is 900,000 packets per tick
		assertThat(counters.read(ReadMode.FRESH).values()).containsExactly(1_800_000L, 1_800_000_000L);
	}

	@Test
	void tickDeliversEachStreamToItsOwnDeviceAndPort() {
		SimulatedBackend host = new SimulatedBackend(List.of(SimulatedDeviceSpec.defaults(),
				SimulatedDeviceSpec.builder()
					.name("sim_mlx5_1")
					.nodeGuid(0x0c42_a103_0065_102cL)
					.portCount(2)
					.build()));
		try (RdmaDevice first = host.open(SimulatedDeviceSpec.DEFAULT_NAME);
				RdmaDevice second = host.open("sim_mlx5_1")) {
			Counters onFirst = first.createCounters();
			onFirst.attach(CounterType.PACKETS, 0);
			first.createFlow(1, VXLAN, onFirst);
			Counters onSecondPort2 = second.createCounters();
			onSecondPort2.attach(CounterType.PACKETS, 0);
			second.createFlow(2, VXLAN, onSecondPort2);
			Counters onSecondPort1 = second.createCounters();
			onSecondPort1.attach(CounterType.PACKETS, 0);
			second.createFlow(1, VXLAN, onSecondPort1);
			SyntheticTraffic traffic = SyntheticTraffic.start(host,
					List.of(new SyntheticTraffic.Stream(SimulatedDeviceSpec.DEFAULT_NAME, "vxlan", 1, VXLAN, 1, 100),
							new SyntheticTraffic.Stream("sim_mlx5_1", "vxlan", 2, VXLAN, 2, 100)),
					Duration.ofHours(1));
			try {
				traffic.tick();
			}
			finally {
				traffic.close();
			}
			// one hour per tick: 3,600 and 7,200 packets, none on the port no stream
			// names
			assertThat(onFirst.read(ReadMode.FRESH).get(0)).isEqualTo(3_600);
			assertThat(onSecondPort2.read(ReadMode.FRESH).get(0)).isEqualTo(7_200);
			assertThat(onSecondPort1.read(ReadMode.FRESH).get(0)).isZero();
		}
	}

	@Test
	void runningTrafficMovesCountersAndCloseStopsIt() {
		Counters counters = this.device.createCounters();
		counters.attach(CounterType.PACKETS, 0);
		this.device.createFlow(1, VXLAN, counters);
		SyntheticTraffic traffic = SyntheticTraffic.start(this.backend,
				List.of(new SyntheticTraffic.Stream(SimulatedDeviceSpec.DEFAULT_NAME, "vxlan", 1, VXLAN, 1000, 128)),
				Duration.ofMillis(10));
		Awaitility.await("packets after up to 5s of traffic")
			.atMost(Duration.ofSeconds(5))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> counters.read(ReadMode.FRESH).get(0) > 0);
		traffic.close();
		assertThat(traffic.isClosed()).isTrue();
		long stopped = counters.read(ReadMode.FRESH).get(0);
		assertThat(counters.read(ReadMode.FRESH).get(0)).isEqualTo(stopped);
	}

	@Test
	void streamRejectsNegativeRatesAndImpossiblePacketSizesNamingTheField() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new SyntheticTraffic.Stream("sim_mlx5_0", "x", 1, VXLAN, -1, 100))
			.withMessage("packetsPerSecond must be 0 to 1000000, but was -1.0");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new SyntheticTraffic.Stream("sim_mlx5_0", "x", 1, VXLAN, 1_000_001, 100))
			.withMessage("packetsPerSecond must be 0 to 1000000, but was 1000001.0");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new SyntheticTraffic.Stream("sim_mlx5_0", "x", 1, VXLAN, 1, 10))
			.withMessage("packetSize must be 60 to 9000, but was 10");
	}

}
