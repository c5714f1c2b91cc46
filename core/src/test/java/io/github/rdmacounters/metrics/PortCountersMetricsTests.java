package io.github.rdmacounters.metrics;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.PortCountersSource;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.sysfs.FileSystemSysfsTree;
import io.github.rdmacounters.sysfs.SysfsFixtures;
import io.github.rdmacounters.sysfs.SysfsPortCountersSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link PortCountersMetrics}.
 */
class PortCountersMetricsTests {

	private static final Predicate<String> ALL = (name) -> true;

	private final SimulatedBackend backend = SimulatedBackend.withDefaultDevice();

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private RdmaRegistry registry = new RdmaRegistry(List.of());

	@AfterEach
	void close() {
		this.registry.devices().forEach(ManagedDevice::close);
	}

	private RdmaRegistry registryWith(PortCountersSource source) {
		this.registry = new RdmaRegistry(
				List.of(new ManagedDevice(this.backend.open("sim_mlx5_0"), 1, List.of(), source)));
		return this.registry;
	}

	private static SysfsPortCountersSource fixture(String fixture, String device, Duration ttl) {
		return new SysfsPortCountersSource(device, new FileSystemSysfsTree(SysfsFixtures.root(fixture)), ttl,
				Clock.systemUTC());
	}

	private double counter(String name, String... tags) {
		return this.meters.get(name).tags(tags).functionCounter().count();
	}

	private double gauge(String name, String... tags) {
		return this.meters.get(name).tags(tags).gauge().value();
	}

	@Test
	void countersOfAnMlx5RocePortAreBoundWithNodeExporterNames() {
		new PortCountersMetrics(registryWith(fixture("mlx5-roce", "mlx5_1", Duration.ZERO)), ALL).bindTo(this.meters);
		assertThat(counter("rdma.port.data.received", "device", "mlx5_1", "port", "1")).isEqualTo(3e9);
		assertThat(counter("rdma.port.data.transmitted", "device", "mlx5_1", "port", "1")).isEqualTo(2e9);
		assertThat(counter("rdma.port.packets.received", "device", "mlx5_1", "port", "1")).isEqualTo(1_500_000);
		assertThat(counter("rdma.port.errors.received", "device", "mlx5_1", "port", "1")).isEqualTo(3);
		assertThat(counter("rdma.port.discards.transmitted", "device", "mlx5_1", "port", "1")).isEqualTo(4);
		assertThat(counter("rdma.port.link.downed", "device", "mlx5_1", "port", "2")).isEqualTo(1);
		assertThat(counter(PortCountersMetrics.HW_COUNTER, "device", "mlx5_1", "port", "1", "group", "hw_counters",
				"counter", "out_of_buffer"))
			.isEqualTo(5);
		assertThat(counter(PortCountersMetrics.HW_COUNTER, "port", "1", "counter", "np_cnp_sent")).isEqualTo(42);
		assertThat(this.meters.get("rdma.port.data.received").meter().getId().getBaseUnit()).isEqualTo("bytes");
	}

	@Test
	void portStateRateAndDeviceInformationAreGauges() {
		new PortCountersMetrics(registryWith(fixture("mlx5-roce", "mlx5_1", Duration.ZERO)), ALL).bindTo(this.meters);
		assertThat(gauge(PortCountersMetrics.STATE, "device", "mlx5_1", "port", "1")).isEqualTo(4);
		assertThat(gauge(PortCountersMetrics.STATE, "device", "mlx5_1", "port", "2")).isEqualTo(1);
		assertThat(gauge(PortCountersMetrics.PHYSICAL_STATE, "port", "1")).isEqualTo(5);
		assertThat(gauge(PortCountersMetrics.PHYSICAL_STATE, "port", "2")).isEqualTo(3);
		assertThat(gauge(PortCountersMetrics.RATE, "port", "1")).isEqualTo(12.5e9);
		assertThat(gauge(PortCountersMetrics.RATE, "port", "2")).isEqualTo(5e9);
		assertThat(gauge(PortCountersMetrics.UNREADABLE, "port", "1")).isZero();
		assertThat(gauge(PortCountersMetrics.INFO, "device", "mlx5_1", "firmware_version", "22.36.1010", "board_id",
				"MT_0000000359", "hca_type", "MT4125", "node_guid", "0c42:a103:0065:0f2c"))
			.isEqualTo(1);
	}

	@Test
	void everyMeterHasADescription() {
		new PortCountersMetrics(registryWith(fixture("mlx4-counters-ext", "mlx4_0", Duration.ZERO)), ALL)
			.bindTo(this.meters);
		assertThat(this.meters.getMeters()).isNotEmpty()
			.allSatisfy(
					(meter) -> assertThat(meter.getId().getDescription()).as(meter.getId().toString()).isNotBlank());
		assertThat(counter("rdma.port.legacy.data.received", "port", "1")).isEqualTo(123_456_789_012.0 * 4);
		assertThat(gauge(PortCountersMetrics.STATE, "port", "2")).isEqualTo(2);
	}

	@Test
	void iwarpCountersWithoutPmaGetNoMeterAndAreCountedAsUnreadable() {
		new PortCountersMetrics(registryWith(fixture("irdma-iwarp", "irdma0", Duration.ZERO)), ALL).bindTo(this.meters);
		assertThat(this.meters.find("rdma.port.data.received").meters()).isEmpty();
		assertThat(gauge(PortCountersMetrics.UNREADABLE, "device", "irdma0", "port", "1")).isEqualTo(21);
		assertThat(counter(PortCountersMetrics.HW_COUNTER, "counter", "tcpRetransSegs")).isEqualTo(12);
		assertThat(gauge(PortCountersMetrics.STATE, "device", "irdma0", "port", "1")).isEqualTo(4);
	}

	@Test
	void filterDecidesWhichCountersGetAMeterButNotTheStateGauges() {
		Predicate<String> filter = PortCountersMetrics.filter(List.of("port_*", "out_of_buffer"),
				List.of("port_xmit_*"));
		new PortCountersMetrics(registryWith(fixture("mlx5-roce", "mlx5_1", Duration.ZERO)), filter)
			.bindTo(this.meters);
		assertThat(this.meters.find("rdma.port.data.received").meters()).hasSize(2);
		assertThat(this.meters.find("rdma.port.data.transmitted").meters()).isEmpty();
		assertThat(this.meters.find("rdma.port.link.downed").meters()).isEmpty();
		assertThat(this.meters.find(PortCountersMetrics.HW_COUNTER).meters()).hasSize(2)
			.allSatisfy((meter) -> assertThat(meter.getId().getTag("counter")).isEqualTo("out_of_buffer"));
		assertThat(this.meters.find(PortCountersMetrics.STATE).meters()).hasSize(2);
	}

	@Test
	void filterMatchesExactNamesAndGlobsAndExcludeWins() {
		Predicate<String> all = PortCountersMetrics.filter(List.of(), List.of());
		assertThat(all.test("anything")).isTrue();
		Predicate<String> filter = PortCountersMetrics.filter(List.of("port_rcv_data", "rx_?ead_requests", " ", "np_*"),
				List.of("np_ecn_*"));
		assertThat(filter.test("port_rcv_data")).isTrue();
		assertThat(filter.test("port_rcv_data_64")).isFalse();
		assertThat(filter.test("rx_read_requests")).isTrue();
		assertThat(filter.test("rx_write_requests")).isFalse();
		assertThat(filter.test("np_cnp_sent")).isTrue();
		assertThat(filter.test("np_ecn_marked_roce_packets")).isFalse();
		Predicate<String> literal = PortCountersMetrics.filter(List.of("a.b"), List.of());
		assertThat(literal.test("a.b")).isTrue();
		assertThat(literal.test("aXb")).isFalse();
		Predicate<String> excludeOnly = PortCountersMetrics.filter(List.of(), List.of("*_errors"));
		assertThat(excludeOnly.test("port_rcv_errors")).isFalse();
		assertThat(excludeOnly.test("port_rcv_data")).isTrue();
	}

	@Test
	void simulatedTrafficMovesTheMeters() throws Exception {
		new PortCountersMetrics(registryWith(this.backend.portCounters("sim_mlx5_0")), ALL).bindTo(this.meters);
		assertThat(counter("rdma.port.data.received", "device", "sim_mlx5_0", "port", "1")).isZero();
		Packet packet = Packet.udp(InetAddress.getByName("10.0.0.1"), 1000, InetAddress.getByName("10.0.0.2"), 4791,
				1000);
		for (int i = 0; i < 3; i++) {
			this.backend.deliver("sim_mlx5_0", 1, packet);
		}
		this.backend.transmit("sim_mlx5_0", 1, packet);
		assertThat(counter("rdma.port.data.received", "device", "sim_mlx5_0", "port", "1")).isEqualTo(3000);
		assertThat(counter("rdma.port.packets.received", "device", "sim_mlx5_0", "port", "1")).isEqualTo(3);
		assertThat(counter("rdma.port.data.transmitted", "device", "sim_mlx5_0", "port", "1")).isEqualTo(1000);
		assertThat(counter(PortCountersMetrics.HW_COUNTER, "counter", "rnr_nak_retry_err")).isZero();
		this.backend.setPortState("sim_mlx5_0", 1, PortState.DOWN);
		assertThat(gauge(PortCountersMetrics.STATE, "device", "sim_mlx5_0", "port", "1")).isEqualTo(1);
		assertThat(counter("rdma.port.link.downed", "device", "sim_mlx5_0", "port", "1")).isEqualTo(1);
	}

	@Test
	void aCounterThatBecomesUnreadableKeepsItsLastValue(@TempDir Path temp) throws IOException {
		Path root = SysfsFixtures.copy("mlx5-roce", temp);
		SysfsPortCountersSource source = new SysfsPortCountersSource("mlx5_1", new FileSystemSysfsTree(root),
				Duration.ZERO, Clock.systemUTC());
		new PortCountersMetrics(registryWith(source), ALL).bindTo(this.meters);
		assertThat(counter("rdma.port.packets.received", "port", "1")).isEqualTo(1_500_000);
		Files.writeString(root.resolve("mlx5_1/ports/1/counters/port_rcv_packets"), "N/A (no PMA)\n");
		assertThat(counter("rdma.port.packets.received", "port", "1")).isEqualTo(1_500_000);
		assertThat(gauge(PortCountersMetrics.UNREADABLE, "port", "1")).isEqualTo(1);
		Files.writeString(root.resolve("mlx5_1/ports/1/counters/port_rcv_packets"), "1500100\n");
		assertThat(counter("rdma.port.packets.received", "port", "1")).isEqualTo(1_500_100);
	}

	@Test
	void aScrapeOfEveryMeterReadsOneSnapshotWhenTheSourceCachesIt() {
		SysfsPortCountersSource source = fixture("mlx5-roce", "mlx5_1", Duration.ofMinutes(1));
		new PortCountersMetrics(registryWith(source), ALL).bindTo(this.meters);
		for (Meter meter : this.meters.getMeters()) {
			meter.measure().forEach((measurement) -> measurement.getValue());
		}
		assertThat(this.meters.getMeters()).hasSizeGreaterThan(100);
		assertThat(source.snapshotsRead()).isOne();
	}

	@Test
	void metersSurviveGarbageCollectionBecauseTheBinderHoldsItsSources() {
		PortCountersMetrics binder = new PortCountersMetrics(
				registryWith(fixture("mlx5-roce", "mlx5_1", Duration.ZERO)), ALL);
		binder.bindTo(this.meters);
		this.registry = new RdmaRegistry(List.of());
		for (int i = 0; i < 3; i++) {
			System.gc();
		}
		assertThat(counter("rdma.port.data.received", "port", "1")).isEqualTo(3e9);
		assertThat(counter(PortCountersMetrics.HW_COUNTER, "port", "1", "counter", "out_of_buffer")).isEqualTo(5);
		assertThat(gauge(PortCountersMetrics.STATE, "port", "1")).isEqualTo(4);
		assertThat(binder).isNotNull();
	}

	@Test
	void closeRemovesTheMetersFromEveryRegistry() {
		PortCountersMetrics binder = new PortCountersMetrics(
				registryWith(fixture("mlx5-roce", "mlx5_1", Duration.ZERO)), ALL);
		MeterRegistry other = new SimpleMeterRegistry();
		binder.bindTo(this.meters);
		binder.bindTo(other);
		assertThat(this.meters.getMeters()).isNotEmpty();
		binder.close();
		assertThat(this.meters.getMeters()).isEmpty();
		assertThat(other.getMeters()).isEmpty();
		binder.close();
	}

	@Test
	void devicesWithoutPortCountersGetNoMeters() {
		RdmaRegistry withoutSource = new RdmaRegistry(
				List.of(ManagedDevice.unavailable("mlx5_0", "native", 1, new IllegalStateException("no device")),
						new ManagedDevice(this.backend.open("sim_mlx5_0"), 1, List.of(), null)));
		this.registry = withoutSource;
		new PortCountersMetrics(withoutSource, ALL).bindTo(this.meters);
		assertThat(this.meters.getMeters()).isEmpty();
	}

	@Test
	void prometheusNamesMatchTheNodeExporterInfinibandCollector() {
		PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		new PortCountersMetrics(registryWith(fixture("mlx5-roce", "mlx5_1", Duration.ofSeconds(1))), ALL)
			.bindTo(prometheus);
		String scrape = prometheus.scrape();
		assertThat(scrape).contains("rdma_port_data_received_bytes_total{device=\"mlx5_1\",port=\"1\"} 3.0E9")
			.contains("rdma_port_data_transmitted_bytes_total{device=\"mlx5_1\",port=\"1\"}")
			.contains("rdma_port_packets_received_total{device=\"mlx5_1\",port=\"1\"} 1500000")
			.contains("rdma_port_packets_transmitted_total{")
			.contains("rdma_port_errors_received_total{")
			.contains("rdma_port_link_downed_total{device=\"mlx5_1\",port=\"2\"} 1")
			.contains("rdma_port_state_id{device=\"mlx5_1\",port=\"1\"} 4")
			.contains("rdma_port_physical_state_id{device=\"mlx5_1\",port=\"2\"} 3")
			.contains("rdma_port_rate_bytes_per_second{device=\"mlx5_1\",port=\"1\"} 1.25E10")
			.contains(
					"rdma_port_hw_counter_total{counter=\"out_of_buffer\",device=\"mlx5_1\",group=\"hw_counters\",port=\"1\"} 5")
			.contains("# HELP rdma_port_data_received_bytes_total Data octets received on all links");
	}

}
