package io.github.rdmacounters.metrics;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.ethtool.NetdevStatisticsSource;
import io.github.rdmacounters.simulated.RoceOperation;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The ethtool meters of a simulated mlx5 device: its netdev found through its simulated
 * sysfs ({@code device/net}), RoCE traffic moving the vport RDMA counters and a congested
 * port pausing.
 *
 * @author rdma-counters
 */
class SimulatedNetdevStatisticsMetricsTests {

	private static final String DEVICE = "sim_mlx5_0";

	private static final String NETDEV = "ens1f0np0";

	private final SimulatedBackend backend = new SimulatedBackend(
			List.of(SimulatedDeviceSpec.builder().name(DEVICE).netdevs(List.of(NETDEV)).build()));

	private final NetdevStatisticsSource source = NetdevStatisticsSource.of(this.backend.portCounters(DEVICE),
			this.backend.netdevStatistics(), Duration.ZERO, Clock.systemUTC());

	private final MeterRegistry registry = new SimpleMeterRegistry();

	SimulatedNetdevStatisticsMetricsTests() {
		new NetdevStatisticsMetrics(List.of(this.source), Tags.empty()).bindTo(this.registry);
	}

	@Test
	void defaultAddsAtMostFortySeriesPerPort() {
		List<Meter> series = this.registry.getMeters()
			.stream()
			.filter((m) -> NETDEV.equals(m.getId().getTag("netdev")))
			.toList();
		assertThat(series).hasSizeGreaterThan(10).hasSizeLessThanOrEqualTo(40);
		assertThat(series).allMatch((m) -> DEVICE.equals(m.getId().getTag("device")));
	}

	@Test
	void roceTrafficMovesTheVportRdmaCountersAndOtherTrafficDoesNot() throws Exception {
		Packet roce = Packet.udp(InetAddress.getByName("192.0.2.1"), 50000, InetAddress.getByName("192.0.2.2"),
				Packet.ROCE_V2_PORT, 1024);
		Packet other = Packet.udp(InetAddress.getByName("192.0.2.1"), 50000, InetAddress.getByName("192.0.2.2"), 9,
				100);
		for (int i = 0; i < 7; i++) {
			this.backend.deliverRoce(DEVICE, 1, roce, RoceOperation.WRITE);
		}
		for (int i = 0; i < 3; i++) {
			this.backend.transmit(DEVICE, 1, roce);
			this.backend.deliver(DEVICE, 1, other);
		}
		assertThat(counter("rdma.ethtool.vport.rdma.unicast.packets", "received")).isEqualTo(7);
		assertThat(counter("rdma.ethtool.vport.rdma.unicast", "received")).isEqualTo(7 * 1024);
		assertThat(counter("rdma.ethtool.vport.rdma.unicast.packets", "transmitted")).isEqualTo(3);
		assertThat(counter("rdma.ethtool.vport.rdma.unicast", "transmitted")).isEqualTo(3 * 1024);
		assertThat(this.source.snapshot().netdev(NETDEV).value("rx_packets")).isEqualTo(3);
		assertThat(this.source.snapshot().netdev(NETDEV).value("rx_packets_phy")).isEqualTo(10);
		assertThat(pause("received")).isZero();
	}

	@Test
	void congestedPortPauses() throws Exception {
		Packet roce = Packet.udp(InetAddress.getByName("192.0.2.1"), 50000, InetAddress.getByName("192.0.2.2"),
				Packet.ROCE_V2_PORT, 1024);
		this.backend.deliverRoce(DEVICE, 1, roce, RoceOperation.SEND);
		assertThat(pause("transmitted")).isZero();
		this.backend.setCongested(DEVICE, 1, true);
		for (int i = 0; i < 5; i++) {
			this.backend.deliverRoce(DEVICE, 1, roce, RoceOperation.SEND);
		}
		this.backend.transmit(DEVICE, 1, roce);
		this.backend.transmit(DEVICE, 1, roce);
		this.backend.setCongested(DEVICE, 1, false);
		this.backend.transmit(DEVICE, 1, roce);
		assertThat(pause("transmitted")).isEqualTo(5);
		assertThat(pause("received")).isEqualTo(2);
		double duration = this.registry.get("rdma.ethtool.pause.duration")
			.tags("priority", "3")
			.functionCounter()
			.count();
		assertThat(duration).as("seconds")
			.isEqualTo(this.source.snapshot().netdev(NETDEV).value("rx_prio3_pause_duration") / 1e6)
			.isPositive();
		assertThat(this.registry.get("rdma.ethtool.pause.transitions").functionCounter().count()).isEqualTo(1);
	}

	@Test
	void unknownNetdevFailsAsTheKernelDoes() {
		assertThatExceptionOfType(RdmaOperationException.class)
			.isThrownBy(() -> this.backend.netdevStatistics().read("eth9"))
			.satisfies((ex) -> assertThat(ex.errno()).isEqualTo(Errno.ENODEV));
	}

	private double counter(String name, String direction) {
		return this.registry.get(name).tags("direction", direction).functionCounter().count();
	}

	private double pause(String direction) {
		return this.registry.get("rdma.ethtool.pause.frames")
			.tags("direction", direction, "priority", "3")
			.functionCounter()
			.count();
	}

}
