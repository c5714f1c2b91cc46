package io.github.rdmacounters.sample;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real Prometheus (Debian's {@code /usr/bin/prometheus}) on loopback scrapes the
 * running sample every second with the mixin's rules loaded: every dashboard variable and
 * panel query and every recording rule returns series, and a second job with the
 * documented {@code metric_relabel_configs} rule shows node_exporter's names for every
 * port series.
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
			"port_state_last_change_seconds");

	private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\((.+),\\s*(\\w+)\\)");

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private final JsonMapper json = JsonMapper.builder().build();

	@LocalServerPort
	private int appPort;

	private String prometheus;

	@Test
	void dashboardQueriesRecordingRulesAndNodeExporterNamesReturnSeriesFromARealPrometheus(@TempDir Path temp)
			throws Exception {
		Path binary = PrometheusTools.require(PrometheusTools.PROMETHEUS);
		Path monitoring = PrometheusTools.monitoring();
		int port = PrometheusTools.freePort();
		this.prometheus = "http://127.0.0.1:" + port;
		Path config = temp.resolve("prometheus.yml");
		Files.writeString(config, config(monitoring));
		Path log = temp.resolve("prometheus.log");
		Process process = new ProcessBuilder(binary.toString(), "--config.file=" + config,
				"--storage.tsdb.path=" + temp.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		try {
			await("Prometheus ready (log: " + log + ")").atMost(Duration.ofSeconds(20))
				.pollInterval(Duration.ofMillis(250))
				.ignoreExceptions()
				.until(() -> get("/-/ready").statusCode() == 200);
			assertThat(process.isAlive()).as(() -> readLog(log)).isTrue();
			Map<String, String> variables = await("dashboard variables").atMost(Duration.ofSeconds(20))
				.pollInterval(Duration.ofMillis(500))
				.until(this::dashboardVariables, (values) -> values != null);
			assertThat(variables).containsEntry("device", "(sim_ib_0|sim_mlx5_0|sim_mlx5_1|sim_rxe_0)")
				.containsEntry("port", "(1|2)")
				.containsEntry("instance", "127.0.0.1:" + this.appPort)
				.containsEntry("set", "(https|nvme-tcp|storage)");
			List<String> panelQueries = panelQueries(monitoring, variables);
			List<String> records = MonitoringMixinTests
				.recordNames(Files.readString(monitoring.resolve("rdma-rules.yml")));
			List<String> queries = new ArrayList<>(panelQueries);
			queries.addAll(records);
			awaitSeries("every panel query and recording rule", queries);
			String received = "instance_device_port:rdma_port_data_received_bytes:rate1m{job=\"rdma\"} > 0";
			awaitSeries("traffic moves the received bytes rate", List.of(received));
			assertRulesHealthy(records.size());
			assertNodeExporterNames();
		}
		finally {
			process.destroy();
			if (!process.waitFor(10, TimeUnit.SECONDS)) {
				process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
			}
		}
		assertThat(process.isAlive()).isFalse();
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

	/**
	 * Resolve the dashboard's variables in order, as Grafana does: each
	 * {@code label_values(selector, label)} with the earlier variables substituted,
	 * multi-value variables as a regex alternation of all values.
	 */
	private Map<String, String> dashboardVariables() throws Exception {
		JsonNode dashboard = this.json.readTree(PrometheusTools.monitoring().resolve("rdma-dashboard.json").toFile());
		Map<String, String> values = new LinkedHashMap<>();
		for (JsonNode variable : dashboard.get("templating").get("list")) {
			if (!"query".equals(variable.get("type").asString())) {
				continue;
			}
			Matcher matcher = LABEL_VALUES.matcher(variable.get("definition").asString());
			assertThat(matcher.matches()).as(variable.get("definition").asString()).isTrue();
			String selector = substitute(matcher.group(1), values);
			JsonNode series = api("/api/v1/series?match[]=" + encode(selector));
			Set<String> found = new TreeSet<>();
			series.forEach((labels) -> found.add(labels.get(matcher.group(2)).asString()));
			if (found.isEmpty()) {
				return null;
			}
			String name = variable.get("name").asString();
			values.put(name,
					variable.get("multi").asBoolean() ? "(" + String.join("|", found) + ")" : found.iterator().next());
		}
		return values;
	}

	private List<String> panelQueries(Path monitoring, Map<String, String> variables) throws IOException {
		JsonNode dashboard = this.json.readTree(monitoring.resolve("rdma-dashboard.json").toFile());
		List<String> queries = new ArrayList<>();
		for (JsonNode panel : dashboard.get("panels")) {
			for (JsonNode target : panel.path("targets")) {
				String query = substitute(target.get("expr").asString(), variables);
				assertThat(query).as("every variable substituted").doesNotContain("$");
				queries.add(query);
			}
		}
		assertThat(queries).hasSizeGreaterThan(15);
		return queries;
	}

	private void assertRulesHealthy(int records) throws Exception {
		JsonNode groups = api("/api/v1/rules").get("groups");
		List<String> rules = new ArrayList<>();
		for (JsonNode group : groups) {
			for (JsonNode rule : group.get("rules")) {
				assertThat(rule.get("health").asString()).as(rule.get("name").asString()).isEqualTo("ok");
				rules.add(rule.get("type").asString());
			}
		}
		assertThat(rules.stream().filter("recording"::equals)).hasSize(records);
		assertThat(rules.stream().filter("alerting"::equals)).hasSize(7);
	}

	private void assertNodeExporterNames() throws Exception {
		Set<String> ours = names("{job=\"rdma\",__name__=~\"rdma_.+\",set=\"\"}");
		Set<String> renamed = names("{job=\"rdma-node-exporter-names\",__name__=~\"(rdma|node_infiniband)_.+\"}");
		assertThat(ours).contains("rdma_port_data_received_bytes_total", "rdma_link_downed_total",
				"rdma_symbol_error_total", "rdma_out_of_buffer_drops_total", "rdma_state_id", "rdma_info");
		Set<String> expected = ours.stream()
			.map((name) -> "node_infiniband_" + name.substring("rdma_".length()))
			.collect(Collectors.toCollection(TreeSet::new));
		expected.addAll(names("{job=\"rdma\",__name__=~\"rdma_flow_.+\"}"));
		assertThat(renamed).isEqualTo(expected);
		assertThat(renamed.stream()
			.filter((name) -> name.startsWith("node_infiniband_"))
			.map((name) -> name.substring("node_infiniband_".length()))
			.filter((name) -> !OURS_ONLY.contains(name))).as("node_exporter's names")
			.allMatch(NODE_EXPORTER_NAMES::contains);
		awaitSeries("a port series under node_exporter's name",
				List.of("node_infiniband_port_data_received_bytes_total{job=\"rdma-node-exporter-names\","
						+ "device=\"sim_mlx5_0\",port=\"1\"} > 0"));
	}

	/**
	 * Wait until each query has returned series at least once: on a loaded machine a
	 * scrape can time out now and then, and its staleness marker empties an instant query
	 * until the next scrape succeeds.
	 */
	private void awaitSeries(String description, List<String> queries) {
		Set<String> pending = new LinkedHashSet<>(queries);
		await(description).atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
			for (String query : List.copyOf(pending)) {
				if (!query(query).isEmpty()) {
					pending.remove(query);
				}
			}
			assertThat(pending).as(() -> "queries without series; targets: " + targets()).isEmpty();
		});
	}

	private String targets() {
		try {
			List<String> targets = new ArrayList<>();
			for (JsonNode target : api("/api/v1/targets").get("activeTargets")) {
				targets.add(target.get("scrapePool").asString() + " " + target.get("health").asString() + " "
						+ target.get("lastScrapeDuration").asString() + "s " + target.get("lastError").asString());
			}
			return targets.toString();
		}
		catch (Exception ex) {
			return "(unavailable: " + ex + ")";
		}
	}

	private Set<String> names(String selector) throws Exception {
		Set<String> names = new TreeSet<>();
		api("/api/v1/label/__name__/values?match[]=" + encode(selector)).forEach((name) -> names.add(name.asString()));
		return names;
	}

	private static String substitute(String text, Map<String, String> values) {
		String result = text;
		for (Map.Entry<String, String> entry : values.entrySet()) {
			result = result.replace("${" + entry.getKey() + "}", entry.getValue())
				.replace("$" + entry.getKey(), entry.getValue());
		}
		return result;
	}

	private JsonNode query(String promql) throws Exception {
		return api("/api/v1/query?query=" + encode(promql)).get("result");
	}

	private JsonNode api(String path) throws Exception {
		HttpResponse<String> response = get(path);
		JsonNode body = this.json.readTree(response.body());
		assertThat(body.get("status").asString()).as(path + ": " + response.body()).isEqualTo("success");
		return body.get("data");
	}

	private HttpResponse<String> get(String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create(this.prometheus + path))
			.timeout(Duration.ofSeconds(5))
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private static String encode(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8);
	}

	private static String readLog(Path log) {
		try {
			return Files.readString(log);
		}
		catch (IOException ex) {
			return "(no log: " + ex + ")";
		}
	}

}
