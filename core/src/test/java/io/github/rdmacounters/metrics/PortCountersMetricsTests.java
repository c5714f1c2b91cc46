package io.github.rdmacounters.metrics;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.PortCountersSource;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.sysfs.CountingSysfsTree;
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
				List.of(new ManagedDevice(this.backend.open("sim_mlx5_0"), List.of(), source)));
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
		assertThat(counter("rdma.link.downed", "device", "mlx5_1", "port", "2")).isEqualTo(1);
		assertThat(counter("rdma.out.of.buffer.drops", "device", "mlx5_1", "port", "1")).isEqualTo(5);
		assertThat(counter("rdma.np.cnp.packets.sent", "port", "1")).isEqualTo(42);
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
				"MT_0000000359", "hca_type", "MT4125"))
			.isEqualTo(1);
		assertThat(this.meters.get(PortCountersMetrics.INFO).gauge().getId().getTags()).as("node_exporter's labels")
			.extracting(Tag::getKey)
			.containsExactly("board_id", "device", "firmware_version", "hca_type");
		assertThat(gauge(PortCountersMetrics.DEVICE_INFO, "device", "mlx5_1", "node_guid", "0c42:a103:0065:0f2c"))
			.isEqualTo(1);
	}

	@Test
	void everyMeterHasADescription() {
		new PortCountersMetrics(registryWith(fixture("mlx4-counters-ext", "mlx4_0", Duration.ZERO)), ALL)
			.bindTo(this.meters);
		assertThat(this.meters.getMeters()).isNotEmpty()
			.allSatisfy(
					(meter) -> assertThat(meter.getId().getDescription()).as(meter.getId().toString()).isNotBlank());
		assertThat(counter("rdma.legacy.data.received", "port", "1")).isEqualTo(123_456_789_012.0 * 4);
		assertThat(gauge(PortCountersMetrics.STATE, "port", "2")).isEqualTo(2);
	}

	@Test
	void iwarpCountersWithoutPmaGetNoMeterAndAreCountedAsUnreadable() {
		new PortCountersMetrics(registryWith(fixture("irdma-iwarp", "irdma0", Duration.ZERO)), ALL).bindTo(this.meters);
		assertThat(this.meters.find("rdma.port.data.received").meters()).isEmpty();
		assertThat(gauge(PortCountersMetrics.UNREADABLE, "device", "irdma0", "port", "1")).isEqualTo(21);
		assertThat(counter("rdma.tcp.retrans.segs", "device", "irdma0", "port", "1")).isEqualTo(12);
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
		assertThat(this.meters.find("rdma.link.downed").meters()).isEmpty();
		assertThat(this.meters.find("rdma.out.of.buffer.drops").meters()).hasSize(2);
		assertThat(this.meters.find("rdma.np.cnp.packets.sent").meters()).isEmpty();
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
		assertThat(counter("rdma.rnr.nak.retry.packets.received", "port", "1")).isZero();
		this.backend.setPortState("sim_mlx5_0", 1, PortState.DOWN);
		assertThat(gauge(PortCountersMetrics.STATE, "device", "sim_mlx5_0", "port", "1")).isEqualTo(1);
		assertThat(counter("rdma.link.downed", "device", "sim_mlx5_0", "port", "1")).isEqualTo(1);
	}

	@Test
	void aCounterThatBecomesUnreadableHasNoValueUntilItIsReadableAgain(@TempDir Path temp) throws IOException {
		Path root = SysfsFixtures.copy("mlx5-roce", temp);
		SysfsPortCountersSource source = new SysfsPortCountersSource("mlx5_1", new FileSystemSysfsTree(root),
				Duration.ZERO, Clock.systemUTC());
		new PortCountersMetrics(registryWith(source), ALL).bindTo(this.meters);
		assertThat(counter("rdma.port.packets.received", "port", "1")).isEqualTo(1_500_000);
		Files.writeString(root.resolve("mlx5_1/ports/1/counters/port_rcv_packets"), "N/A (no PMA)\n");
		assertThat(counter("rdma.port.packets.received", "port", "1")).isNaN();
		assertThat(gauge(PortCountersMetrics.UNREADABLE, "port", "1")).isEqualTo(1);
		Files.writeString(root.resolve("mlx5_1/ports/1/counters/port_rcv_packets"), "1500100\n");
		assertThat(counter("rdma.port.packets.received", "port", "1")).isEqualTo(1_500_100);
	}

	@Test
	void aScrapeOfEveryMeterReadsOneSnapshotWhenTheSourceCachesIt() {
		CountingSysfsTree tree = new CountingSysfsTree(new FileSystemSysfsTree(SysfsFixtures.root("mlx5-roce")));
		SysfsPortCountersSource source = new SysfsPortCountersSource("mlx5_1", tree, Duration.ofMinutes(1),
				Clock.systemUTC());
		new PortCountersMetrics(registryWith(source), ALL).bindTo(this.meters);
		for (Meter meter : this.meters.getMeters()) {
			meter.measure().forEach((measurement) -> measurement.getValue());
		}
		assertThat(this.meters.getMeters()).hasSizeGreaterThan(100);
		assertThat(tree.listings("mlx5_1/ports")).as("snapshots read").isOne();
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
		assertThat(counter("rdma.out.of.buffer.drops", "port", "1")).isEqualTo(5);
		assertThat(gauge(PortCountersMetrics.STATE, "port", "1")).isEqualTo(4);
		assertThat(binder).isNotNull();
	}

	@Test
	void closeRemovesTheMetersFromEveryRegistryAndNoOtherMeter() {
		PortCountersMetrics binder = new PortCountersMetrics(
				registryWith(fixture("mlx5-roce", "mlx5_1", Duration.ZERO)), ALL);
		MeterRegistry other = new SimpleMeterRegistry();
		Meter unrelated = Counter.builder("other.meter").register(this.meters);
		binder.bindTo(this.meters);
		binder.bindTo(other);
		for (MeterRegistry registry : List.of(this.meters, other)) {
			assertThat(registry.find("rdma.port.data.received").tag("device", "mlx5_1").meters())
				.extracting((meter) -> meter.getId().getTag("port"))
				.containsExactlyInAnyOrder("1", "2");
			assertThat(registry.find(PortCountersMetrics.STATE).tag("device", "mlx5_1").meters()).hasSize(2);
			assertThat(registry.find(PortCountersMetrics.INFO).tag("device", "mlx5_1").meters()).hasSize(1);
		}
		assertThat(other.getMeters()).hasSize(this.meters.getMeters().size() - 1).hasSizeGreaterThan(100);
		binder.close();
		assertThat(this.meters.getMeters()).containsExactly(unrelated);
		assertThat(other.getMeters()).isEmpty();
		binder.close();
	}

	@Test
	void devicesWithoutPortCountersGetNoMetersNextToOneThatHasThem() {
		RdmaRegistry registry = new RdmaRegistry(
				List.of(ManagedDevice.unavailable("mlx5_0", "native", new IllegalStateException("no device")),
						new ManagedDevice(this.backend.open("sim_mlx5_0"), List.of(), null),
						new ManagedDevice(this.backend.open("sim_mlx5_0"), List.of(),
								fixture("mlx5-roce", "mlx5_1", Duration.ZERO))));
		this.registry = registry;
		new PortCountersMetrics(registry, ALL).bindTo(this.meters);
		assertThat(this.meters.find(PortCountersMetrics.STATE).meters()).hasSize(2);
		assertThat(this.meters.getMeters()).hasSizeGreaterThan(100)
			.allSatisfy((meter) -> assertThat(meter.getId().getTag("device")).as(meter.getId().toString())
				.isEqualTo("mlx5_1"));
	}

	@Test
	void prometheusNamesAreTheNodeExporterInfinibandCollectorNamesWithTheRdmaPrefix() {
		// file -> name after node_infiniband_, as node_exporter 1.12.1's
		// collector/infiniband_linux.go pushes them from procfs's class_infiniband.go
		// fields
		Map<String, String> nodeExporter = new LinkedHashMap<>();
		nodeExporter.put("counters/excessive_buffer_overrun_errors", "excessive_buffer_overrun_errors_total");
		nodeExporter.put("counters/link_downed", "link_downed_total");
		nodeExporter.put("counters/link_error_recovery", "link_error_recovery_total");
		nodeExporter.put("counters/local_link_integrity_errors", "local_link_integrity_errors_total");
		nodeExporter.put("counters/multicast_rcv_packets", "multicast_packets_received_total");
		nodeExporter.put("counters/multicast_xmit_packets", "multicast_packets_transmitted_total");
		nodeExporter.put("counters/port_rcv_constraint_errors", "port_constraint_errors_received_total");
		nodeExporter.put("counters/port_rcv_data", "port_data_received_bytes_total");
		nodeExporter.put("counters/port_rcv_discards", "port_discards_received_total");
		nodeExporter.put("counters/port_rcv_errors", "port_errors_received_total");
		nodeExporter.put("counters/port_rcv_packets", "port_packets_received_total");
		nodeExporter.put("counters/port_rcv_remote_physical_errors", "port_receive_remote_physical_errors_total");
		nodeExporter.put("counters/port_rcv_switch_relay_errors", "port_receive_switch_relay_errors_total");
		nodeExporter.put("counters/port_xmit_constraint_errors", "port_constraint_errors_transmitted_total");
		nodeExporter.put("counters/port_xmit_data", "port_data_transmitted_bytes_total");
		nodeExporter.put("counters/port_xmit_discards", "port_discards_transmitted_total");
		nodeExporter.put("counters/port_xmit_packets", "port_packets_transmitted_total");
		nodeExporter.put("counters/port_xmit_wait", "port_transmit_wait_total");
		nodeExporter.put("counters/symbol_error", "symbol_error_total");
		nodeExporter.put("counters/unicast_rcv_packets", "unicast_packets_received_total");
		nodeExporter.put("counters/unicast_xmit_packets", "unicast_packets_transmitted_total");
		nodeExporter.put("counters/VL15_dropped", "vl15_dropped_total");
		nodeExporter.put("counters_ext/port_multicast_rcv_packets", "legacy_multicast_packets_received_total");
		nodeExporter.put("counters_ext/port_multicast_xmit_packets", "legacy_multicast_packets_transmitted_total");
		nodeExporter.put("counters_ext/port_rcv_data_64", "legacy_data_received_bytes_total");
		nodeExporter.put("counters_ext/port_rcv_packets_64", "legacy_packets_received_total");
		nodeExporter.put("counters_ext/port_unicast_rcv_packets", "legacy_unicast_packets_received_total");
		nodeExporter.put("counters_ext/port_unicast_xmit_packets", "legacy_unicast_packets_transmitted_total");
		nodeExporter.put("counters_ext/port_xmit_data_64", "legacy_data_transmitted_bytes_total");
		nodeExporter.put("counters_ext/port_xmit_packets_64", "legacy_packets_transmitted_total");
		nodeExporter.put("hw_counters/duplicate_request", "duplicate_requests_packets_total");
		nodeExporter.put("hw_counters/implied_nak_seq_err", "implied_nak_seq_errors_total");
		nodeExporter.put("hw_counters/local_ack_timeout_err", "local_ack_timeout_errors_total");
		nodeExporter.put("hw_counters/np_cnp_sent", "np_cnp_packets_sent_total");
		nodeExporter.put("hw_counters/np_ecn_marked_roce_packets", "np_ecn_marked_roce_packets_received_total");
		nodeExporter.put("hw_counters/out_of_buffer", "out_of_buffer_drops_total");
		nodeExporter.put("hw_counters/out_of_sequence", "out_of_sequence_packets_received_total");
		nodeExporter.put("hw_counters/packet_seq_err", "packet_sequence_errors_total");
		nodeExporter.put("hw_counters/req_cqe_error", "req_cqes_errors_total");
		nodeExporter.put("hw_counters/req_cqe_flush_error", "req_cqes_flush_errors_total");
		nodeExporter.put("hw_counters/req_remote_access_errors", "req_remote_access_errors_total");
		nodeExporter.put("hw_counters/req_remote_invalid_request", "req_remote_invalid_request_errors_total");
		nodeExporter.put("hw_counters/resp_cqe_error", "resp_cqes_errors_total");
		nodeExporter.put("hw_counters/resp_cqe_flush_error", "resp_cqes_flush_errors_total");
		nodeExporter.put("hw_counters/resp_local_length_error", "resp_local_length_errors_total");
		nodeExporter.put("hw_counters/resp_remote_access_errors", "resp_remote_access_errors_total");
		nodeExporter.put("hw_counters/rnr_nak_retry_err", "rnr_nak_retry_packets_received_total");
		nodeExporter.put("hw_counters/roce_adp_retrans", "roce_adp_retransmits_total");
		nodeExporter.put("hw_counters/roce_adp_retrans_to", "roce_adp_retransmits_timeout_total");
		nodeExporter.put("hw_counters/roce_slow_restart", "roce_slow_restart_used_total");
		nodeExporter.put("hw_counters/roce_slow_restart_cnps", "roce_slow_restart_cnps_total");
		nodeExporter.put("hw_counters/roce_slow_restart_trans", "roce_slow_restart_total");
		nodeExporter.put("hw_counters/rp_cnp_handled", "rp_cnp_packets_handled_total");
		nodeExporter.put("hw_counters/rp_cnp_ignored", "rp_cnp_ignored_packets_received_total");
		nodeExporter.put("hw_counters/rx_atomic_requests", "rx_atomic_requests_total");
		nodeExporter.put("hw_counters/rx_dct_connect", "rx_dct_connect_requests_total");
		nodeExporter.put("hw_counters/rx_icrc_encapsulated", "rx_icrc_encapsulated_errors_total");
		nodeExporter.put("hw_counters/rx_read_requests", "rx_read_requests_total");
		nodeExporter.put("hw_counters/rx_write_requests", "rx_write_requests_total");
		Map<String, Long> counters = new LinkedHashMap<>();
		Map<String, String> groups = new LinkedHashMap<>();
		long value = 1;
		for (String file : nodeExporter.keySet()) {
			String name = file.substring(file.indexOf('/') + 1);
			counters.put(name, value++);
			groups.put(name, file.substring(0, file.indexOf('/')));
		}
		PortStatus port = new PortStatus(1, "ACTIVE", "LinkUp", "100 Gb/sec (4X EDR)", "InfiniBand", counters, groups,
				List.of());
		PortCountersSnapshot snapshot = new PortCountersSnapshot("mlx5_0", "22.36.1010", "MT_0000000222", "MT4125",
				"0c42:a103:0065:0f2c", List.of(port), Instant.now());
		PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		new PortCountersMetrics(registryWith(fixed(snapshot)), ALL).bindTo(prometheus);
		String scrape = prometheus.scrape();
		value = 1;
		for (String name : nodeExporter.values()) {
			assertThat(scrape).as(name)
				.containsPattern("(?m)^# TYPE rdma_" + name + " counter$")
				.contains("rdma_" + name + "{device=\"mlx5_0\",port=\"1\"} " + (value++) + ".0\n");
		}
		assertThat(scrape).contains("rdma_state_id{device=\"mlx5_0\",port=\"1\"} 4")
			.contains("rdma_physical_state_id{device=\"mlx5_0\",port=\"1\"} 5")
			.contains("rdma_rate_bytes_per_second{device=\"mlx5_0\",port=\"1\"} 1.25E10")
			.contains("rdma_info{board_id=\"MT_0000000222\",device=\"mlx5_0\",firmware_version=\"22.36.1010\","
					+ "hca_type=\"MT4125\"} 1")
			.contains("rdma_device_info{device=\"mlx5_0\",netdev=\"\",node_guid=\"0c42:a103:0065:0f2c\","
					+ "pci_address=\"\",virtual_function=\"false\"} 1");
		assertThat(scrape.lines().filter((line) -> line.startsWith("# TYPE rdma_") && line.endsWith(" counter")))
			.hasSize(nodeExporter.size());
		assertThat(this.meters.getMeters()).isEmpty();
	}

	@Test
	void countersWithoutANodeExporterNameGetAFamilyEachInSnakeCase() {
		PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		new PortCountersMetrics(registryWith(fixture("irdma-iwarp", "irdma0", Duration.ofSeconds(1))), ALL)
			.bindTo(prometheus);
		String scrape = prometheus.scrape();
		assertThat(scrape).contains("rdma_tcp_retrans_segs_total{device=\"irdma0\",port=\"1\"} 12")
			.contains("# TYPE rdma_rx_ecn_mrkd_total counter")
			.contains("# TYPE rdma_ip4_in_octets_total counter")
			.contains("# TYPE rdma_iw_in_rdma_reads_total counter")
			.contains("# HELP rdma_tcp_retrans_segs_total Provider counter hw_counters/tcpRetransSegs of the port")
			.doesNotContain("hw_counter_total")
			.doesNotContain("counter=");
		assertThat(scrape.lines().filter((line) -> line.startsWith("rdma_")))
			.allSatisfy((line) -> assertThat(line).matches("rdma_[a-z0-9_]+\\{.*"));
	}

	@Test
	void generatedNamesAvoidTheNamesOfNodeExporterCountersAndOfOtherMeters() {
		assertThat(PortCountersMetrics.generatedName("hw_counters", "rnr_naks_rcvd")).isEqualTo("rdma.rnr.naks.rcvd");
		assertThat(PortCountersMetrics.generatedName("hw_counters", "RxECNMrkd")).isEqualTo("rdma.rx.ecn.mrkd");
		assertThat(PortCountersMetrics.generatedName("hw_counters", "ip4InMcastPkts"))
			.isEqualTo("rdma.ip4.in.mcast.pkts");
		assertThat(PortCountersMetrics.generatedName("hw_counters", "link_downed"))
			.isEqualTo("rdma.hw.counters.link.downed");
		assertThat(PortCountersMetrics.generatedName("hw_counters", "rate")).isEqualTo("rdma.hw.counters.rate");
		assertThat(PortCountersMetrics.generatedName("hw_counters", "flow_packets"))
			.isEqualTo("rdma.hw.counters.flow.packets");
		assertThat(PortCountersMetrics.generatedName("hw_counters", "sent_total")).isEqualTo("rdma.sent");
		assertThat(PortCountersMetrics.generatedName("hw_counters", "a-b.c")).isEqualTo("rdma.a.b.c");
	}

	@Test
	void aProviderCounterNamedLikeAPmaCounterKeepsItsOwnFamily() {
		// rxe has hw_counters/link_downed; with counters/link_downed the source keys it
		// by group
		PortStatus port = new PortStatus(1, "ACTIVE", "LinkUp", "10 Gb/sec (1X QDR)", "Ethernet",
				Map.of("link_downed", 2L, "hw_counters/link_downed", 7L),
				Map.of("link_downed", "counters", "hw_counters/link_downed", "hw_counters"), List.of());
		PortCountersSnapshot snapshot = new PortCountersSnapshot("rxe0", null, null, null, null, List.of(port),
				Instant.now());
		new PortCountersMetrics(registryWith(fixed(snapshot)), ALL).bindTo(this.meters);
		assertThat(counter("rdma.link.downed", "device", "rxe0", "port", "1")).isEqualTo(2);
		assertThat(counter("rdma.hw.counters.link.downed", "device", "rxe0", "port", "1")).isEqualTo(7);
		// empty, as node_exporter leaves a missing file: Prometheus drops the label
		assertThat(gauge(PortCountersMetrics.INFO, "device", "rxe0", "firmware_version", "")).isEqualTo(1);
	}

	private static PortCountersSource fixed(PortCountersSnapshot snapshot) {
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
