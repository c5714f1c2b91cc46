package io.github.rdmacounters.ethtool;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.metrics.NetdevStatisticsMetrics;
import io.github.rdmacounters.simulated.RoceOperation;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;
import io.github.rdmacounters.testsupport.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link HostNetdevStatistics} on a simulated host: the netdev of each port of
 * a two-port device found from its GID 0 in sysfs, the port's pause counters and pause
 * storm verdict, and meters tagged with the port.
 *
 * @author rdma-counters
 */
class HostNetdevStatisticsTests {

	private static final String DUAL = "sim_mlx5_1";

	private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

	private final SimulatedBackend backend = new SimulatedBackend(List.of(
			SimulatedDeviceSpec.builder().name("sim_mlx5_0").netdevs(List.of("ens1f0np0")).build(),
			SimulatedDeviceSpec.builder()
				.name(DUAL)
				.portCount(2)
				.netdevs(List.of("ens2f0np0", "ens2f1np1"))
				.nodeGuid(0x0c42a10300650f3cL)
				.build(),
			SimulatedDeviceSpec.builder().name("sim_ib_0").linkLayer(LinkLayer.INFINIBAND).nodeGuid(0x1L).build()),
			this.clock);

	private final AtomicBoolean dualServed = new AtomicBoolean(true);

	private final HostPortCountersSource host = this.backend.hostPortCounters(Path.of("/sys/class/infiniband"),
			(device) -> device.equals(DUAL) ? this.dualServed.get() : !device.equals("sim_mlx5_0"), (counter) -> true,
			Duration.ZERO);

	private final HostNetdevStatistics statistics = new HostNetdevStatistics(this.host, this.backend.netdevStatistics(),
			Duration.ZERO, this.clock, new PauseStormDetector(0.2, Duration.ofSeconds(1)));

	@Test
	void onlyDevicesOfTheHostsFilterWithNetdevsAreListed() {
		assertThat(this.statistics.deviceNames()).containsExactly(DUAL);
	}

	@Test
	void eachPortHasTheNetdevItsGidNames() {
		assertThat(this.host.snapshot().device(DUAL).identity().netdevPorts())
			.isEqualTo(Map.of("ens2f0np0", 1, "ens2f1np1", 2));
		assertThat(this.statistics.port(DUAL, 1)).containsOnlyKeys("ens2f0np0");
		assertThat(this.statistics.port(DUAL, 2)).containsOnlyKeys("ens2f1np1");
	}

	@Test
	void congestedPortShowsPausesAndAStormOnceAWindowHasPassed() throws Exception {
		Packet roce = Packet.udp(InetAddress.getByName("192.0.2.1"), 50000, InetAddress.getByName("192.0.2.2"),
				Packet.ROCE_V2_PORT, 1024);
		assertThat(this.statistics.port(DUAL, 2).get("ens2f1np1").pauseStorm()).isNull();
		this.backend.setCongested(DUAL, 2, true);
		for (int i = 0; i < 1000; i++) {
			this.backend.transmit(DUAL, 2, roce);
			this.backend.deliverRoce(DUAL, 2, roce, RoceOperation.WRITE);
		}
		NetdevPortStatistics paused = this.statistics.port(DUAL, 2).get("ens2f1np1");
		assertThat(paused.statistics()).containsEntry("rx_prio3_pause", 1000L)
			.containsEntry("tx_prio3_pause", 1000L)
			.containsEntry("tx_vport_rdma_unicast_packets", 1000L)
			.doesNotContainKeys("rx_packets", "rx_prio0_buf_discard");
		assertThat(paused.pauseStorm()).as("not judged within the window").isNull();
		this.clock.advance(Duration.ofSeconds(1));
		PauseStorm storm = this.statistics.port(DUAL, 2).get("ens2f1np1").pauseStorm();
		assertThat(storm).isNotNull();
		assertThat(storm.reason()).isEqualTo("priority 3 paused 34% of 1 s (rx_prio3_pause_duration)");
		assertThat(this.statistics.port(DUAL, 1).get("ens2f0np0").pauseStorm()).isNull();
	}

	@Test
	void metersCarryThePortAndADeviceThatAppearsLaterGetsThem() {
		this.dualServed.set(false);
		MeterRegistry registry = new SimpleMeterRegistry();
		new NetdevStatisticsMetrics(this.statistics, List.of(), List.of(), Tags.empty()).bindTo(registry);
		assertThat(registry.find("rdma.ethtool.pause.frames").meters()).isEmpty();
		this.dualServed.set(true);
		assertThat(registry.get(NetdevStatisticsMetrics.NETDEVS).gauge().value()).isEqualTo(2);
		assertThat(registry.get("rdma.ethtool.pause.frames")
			.tags("device", DUAL, "port", "2", "netdev", "ens2f1np1", "direction", "received")
			.functionCounter()
			.count()).isZero();
		assertThat(registry.find("rdma.ethtool.pause.frames").tag("port", "1").meters()).hasSize(2);
	}

}
