package io.github.rdmacounters.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real Prometheus (Debian's {@code /usr/bin/prometheus}) on loopback scrapes the
 * running sample every second with the mixin's rules loaded: every dashboard variable,
 * every panel query of a family the sample exports and every recording rule returns
 * series, and a second job with the documented {@code metric_relabel_configs} rule shows
 * node_exporter's names for every port series.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.traffic.interval-ms=50", PrometheusTools.NO_EXEMPLARS })
class PrometheusEndToEndTests {

	/**
	 * node_exporter 1.12.1's infiniband series (collector/infiniband_linux.go), after
	 * {@code node_infiniband_}.
	 */
	private static final Set<String> NODE_EXPORTER_NAMES = Set.of("info", "state_id", "physical_state_id",
			"rate_bytes_per_second", "legacy_multicast_packets_received_total",
			"legacy_multicast_packets_transmitted_total", "legacy_data_received_bytes_total",
			"legacy_packets_received_total", "legacy_unicast_packets_received_total",
			"legacy_unicast_packets_transmitted_total", "legacy_data_transmitted_bytes_total",
			"legacy_packets_transmitted_total", "excessive_buffer_overrun_errors_total", "link_downed_total",
			"link_error_recovery_total", "local_link_integrity_errors_total", "multicast_packets_received_total",
			"multicast_packets_transmitted_total", "port_constraint_errors_received_total",
			"port_constraint_errors_transmitted_total", "port_data_received_bytes_total",
			"port_data_transmitted_bytes_total", "port_discards_received_total", "port_discards_transmitted_total",
			"port_errors_received_total", "port_packets_received_total", "port_packets_transmitted_total",
			"port_transmit_wait_total", "unicast_packets_received_total", "unicast_packets_transmitted_total",
			"port_receive_remote_physical_errors_total", "port_receive_switch_relay_errors_total", "symbol_error_total",
			"vl15_dropped_total", "lifespan_seconds", "duplicate_requests_packets_total",
			"implied_nak_seq_errors_total", "local_ack_timeout_errors_total", "np_cnp_packets_sent_total",
			"np_ecn_marked_roce_packets_received_total", "out_of_buffer_drops_total",
			"out_of_sequence_packets_received_total", "packet_sequence_errors_total", "req_cqes_errors_total",
			"req_cqes_flush_errors_total", "req_remote_access_errors_total", "req_remote_invalid_request_errors_total",
			"resp_cqes_errors_total", "resp_cqes_flush_errors_total", "resp_local_length_errors_total",
			"resp_remote_access_errors_total", "rnr_nak_retry_packets_received_total", "roce_adp_retransmits_total",
			"roce_adp_retransmits_timeout_total", "roce_slow_restart_used_total", "roce_slow_restart_cnps_total",
			"roce_slow_restart_total", "rp_cnp_packets_handled_total", "rp_cnp_ignored_packets_received_total",
			"rx_atomic_requests_total", "rx_dct_connect_requests_total", "rx_read_requests_total",
			"rx_write_requests_total", "rx_icrc_encapsulated_errors_total");

	/** Ours alone: sysfs files skipped in the last read. */
	private static final Set<String> OURS_ONLY = Set.of("port_unreadable_files", "port_missing_files", "port_present",
			"device_present", "devices", "device_failed", "device_reopens_total", "port_events_total",
			"port_state_last_change_seconds", "device_info", "cc_ce_packets_received_total",
			"cc_cnp_packets_received_total", "cc_cnp_packets_transmitted_total", "roce_data_received_bytes_total",
			"roce_data_transmitted_bytes_total", "roce_packets_received_total", "roce_packets_transmitted_total",
			"optional_enabled", "optional_ports", "process_queue_pairs", "process_queue_pairs_error",
			"read_duration_seconds", "read_stalls_total", "read_success");

	@LocalServerPort
	private int appPort;

	@Test
	void dashboardQueriesRecordingRulesAndNodeExporterNamesReturnSeriesFromARealPrometheus(@TempDir Path temp)
			throws Exception {
		Path monitoring = PrometheusTools.monitoring();
		try (PrometheusServer prometheus = PrometheusServer.start(temp, config(monitoring),
				"--storage.tsdb.path=" + temp.resolve("data"))) {
			Map<String, String> variables = await("dashboard variables").atMost(Duration.ofSeconds(20))
				.pollInterval(Duration.ofMillis(500))
				.until(prometheus::dashboardVariables, (values) -> values != null);
			assertThat(variables).containsEntry("cluster", ".*")
				.containsEntry("device", "(sim_ib_0|sim_mlx5_0|sim_mlx5_1|sim_rxe_0)")
				.containsEntry("port", "(1|2)")
				.containsEntry("instance", "(127.0.0.1:" + this.appPort + ")")
				.containsEntry("set", "(https|nvme-tcp|storage)");
			// Grafana's $__rate_interval at a 1s scrape: four scrape intervals
			List<String> panelQueries = PrometheusServer.panelQueries(variables, "4s");
			Set<String> exported = prometheus.names("{job=\"rdma\",__name__=~\"rdma_.+\"}");
			List<String> records = MonitoringMixinTests
				.recordNames(Files.readString(monitoring.resolve("rdma-rules.yml")));
			List<String> queries = new ArrayList<>(panelQueries.stream()
				.filter((query) -> exported.containsAll(PrometheusServer.families(query)))
				.toList());
			assertThat(queries).as("panel queries of families the sample exports").hasSizeGreaterThan(70);
			queries.addAll(records);
			prometheus.awaitSeries("every panel query and recording rule", queries, Duration.ofSeconds(40));
			String received = "instance_device_port:rdma_port_data_received_bytes:rate5m{job=\"rdma\"} > 0";
			prometheus.awaitSeries("traffic moves the received bytes rate", List.of(received), Duration.ofSeconds(40));
			prometheus.assertRulesHealthy(records.size(),
					MonitoringMixinTests.alertNames(Files.readString(monitoring.resolve("rdma-alerts.yml"))).size());
			assertNodeExporterNames(prometheus);
		}
	}

	private String config(Path monitoring) throws IOException {
		String relabel = Files.readString(monitoring.resolve("node-exporter-names.yml"))
			.lines()
			.filter((line) -> !line.startsWith("#") && !line.isBlank())
			.map((line) -> "      " + line)
			.collect(Collectors.joining("\n"));
		String target = "['127.0.0.1:" + this.appPort + "']";
		return """
				global:
				  scrape_interval: 1s
				  scrape_timeout: 1s
				  evaluation_interval: 1s
				rule_files:
				  - %s
				  - %s
				scrape_configs:
				  - job_name: rdma
				    metrics_path: /actuator/prometheus
				    static_configs:
				      - targets: %s
				  - job_name: rdma-node-exporter-names
				    metrics_path: /actuator/prometheus
				    static_configs:
				      - targets: %s
				    metric_relabel_configs:
				%s
				""".formatted(monitoring.resolve("rdma-rules.yml"), monitoring.resolve("rdma-alerts.yml"), target,
				target, relabel);
	}

	private void assertNodeExporterNames(PrometheusServer prometheus) throws Exception {
		Set<String> ours = prometheus.names("{job=\"rdma\",__name__=~\"rdma_.+\",set=\"\"}");
		Set<String> renamed = prometheus
			.names("{job=\"rdma-node-exporter-names\",__name__=~\"(rdma|node_infiniband)_.+\"}");
		assertThat(ours).contains("rdma_port_data_received_bytes_total", "rdma_link_downed_total",
				"rdma_symbol_error_total", "rdma_out_of_buffer_drops_total", "rdma_state_id", "rdma_info");
		Set<String> expected = ours.stream()
			.filter((name) -> !name.startsWith("rdma_ethtool_"))
			.map((name) -> "node_infiniband_" + name.substring("rdma_".length()))
			.collect(Collectors.toCollection(TreeSet::new));
		expected.addAll(prometheus.names("{job=\"rdma\",__name__=~\"rdma_flow_.+\"}"));
		// the netdevs' driver statistics are no infiniband series: they keep their names
		Set<String> ethtool = prometheus.names("{job=\"rdma\",__name__=~\"rdma_ethtool_.+\"}");
		assertThat(ethtool).contains("rdma_ethtool_pause_frames_total");
		expected.addAll(ethtool);
		assertThat(renamed).isEqualTo(expected);
		assertThat(renamed.stream()
			.filter((name) -> name.startsWith("node_infiniband_"))
			.map((name) -> name.substring("node_infiniband_".length()))
			.filter((name) -> !OURS_ONLY.contains(name))
			// the counters of this process's queue pairs have no node_exporter
			// counterpart
			.filter((name) -> !name.startsWith("process_qp_"))).as("node_exporter's names")
			.allMatch(NODE_EXPORTER_NAMES::contains);
		prometheus.awaitSeries("a port series under node_exporter's name",
				List.of("node_infiniband_port_data_received_bytes_total{job=\"rdma-node-exporter-names\","
						+ "device=\"sim_mlx5_0\",port=\"1\"} > 0"),
				Duration.ofSeconds(40));
	}

}
