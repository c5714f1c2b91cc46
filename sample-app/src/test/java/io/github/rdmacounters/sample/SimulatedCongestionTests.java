package io.github.rdmacounters.sample;

import java.time.Duration;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint;
import io.github.rdmacounters.ethtool.NetdevPortStatistics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample's RoCE traffic moves the vport RDMA counters of every simulated RoCE port's
 * netdev, and {@link SimulatedCongestion} makes the congested port pause while the other
 * RoCE port, never congested, does not.
 */
@ActiveProfiles("faults")
@SpringBootTest(properties = { "sample.traffic.interval-ms=50", "rdma.read-cache-ttl=100ms",
		"sample.link-flap.enabled=false", "sample.congestion.initial-delay-ms=500",
		"sample.congestion.interval-ms=2000", "sample.congestion.congested-ms=1000" })
class SimulatedCongestionTests {

	@Autowired
	private MeterRegistry registry;

	@Autowired
	private RdmaEndpoint endpoint;

	@Test
	void roceTrafficMovesTheVportCountersAndCongestionThePauseCounters() {
		await("pause frames of the congested port").atMost(Duration.ofSeconds(20))
			.until(() -> counter("rdma.ethtool.pause.frames", "sim_mlx5_0", "received") > 0
					&& counter("rdma.ethtool.pause.frames", "sim_mlx5_0", "transmitted") > 0);
		double bytes = counter("rdma.ethtool.vport.rdma.unicast", "sim_mlx5_1", "received");
		double sent = counter("rdma.ethtool.vport.rdma.unicast", "sim_mlx5_1", "transmitted");
		await("RDMA bytes of the other port").atMost(Duration.ofSeconds(10))
			.until(() -> counter("rdma.ethtool.vport.rdma.unicast", "sim_mlx5_1", "received") > bytes
					&& counter("rdma.ethtool.vport.rdma.unicast", "sim_mlx5_1", "transmitted") > sent);
		assertThat(counter("rdma.ethtool.pause.frames", "sim_mlx5_1", "received")).as("never congested").isZero();
		assertThat(counter("rdma.ethtool.pause.duration", "sim_mlx5_0", "received")).isPositive();
		NetdevPortStatistics netdev = this.endpoint.rdma()
			.devices()
			.get("sim_mlx5_0")
			.ports()
			.get(1)
			.ethtool()
			.get("ens1f0np0");
		assertThat(netdev.statistics().get("rx_prio3_pause").longValue()).isPositive();
		assertThat(netdev.statistics().get("rx_vport_rdma_unicast_bytes").longValue()).isPositive();
	}

	private double counter(String name, String device, String direction) {
		FunctionCounter counter = this.registry.find(name)
			.tags("device", device, "port", "1", "direction", direction)
			.functionCounter();
		assertThat(counter).as(name + " of " + device).isNotNull();
		return counter.count();
	}

}
