package io.github.rdmacounters.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The mixin at Prometheus's default scrape interval of 60 s, five minutes after the first
 * scrape, without waiting five minutes: six real scrapes of the running sample are
 * stamped 60 s apart (as a 60 s scrape would have stored them, the last one now), written
 * as OpenMetrics and loaded into a TSDB with {@code promtool tsdb create-blocks-from
 * openmetrics}; Debian's {@code prometheus} then serves that TSDB with the mixin's rules
 * loaded. Every board query and every recording rule returns series, and every family of
 * the scrape is on the board, in a rule or an alert, or listed in docs/monitoring.md as
 * deliberately not.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.traffic.interval-ms=50", PrometheusTools.NO_EXEMPLARS })
class MonitoringAtSixtySecondScrapeTests {

	private static final Duration SCRAPE_INTERVAL = Duration.ofSeconds(60);

	private static final int SCRAPES = 6;

	/** Grafana's $__rate_interval at a 60 s scrape: max($__interval + 60s, 4 * 60s). */
	private static final String RATE_INTERVAL = "4m";

	private static final Pattern SAMPLE = Pattern.compile("(rdma_[a-z0-9_]+)(?:\\{(.*)})? (\\S+)");

	private static final Pattern TRAFFIC = Pattern
		.compile("rdma_port_data_received_bytes_total\\{device=\"sim_mlx5_0\",port=\"1\"} (\\S+)");

	/**
	 * Families of the simulated devices' scrape that real mlx5 devices add; their panels
	 * have no series here.
	 */
	private static final Set<String> NOT_SIMULATED = Set.of("rdma_roce_slow_restart_used_total",
			"rdma_roce_slow_restart_cnps_total", "rdma_roce_slow_restart_total", "rdma_roce_adp_retransmits_total",
			"rdma_roce_adp_retransmits_timeout_total", "rdma_port_discards_received_total",
			"rdma_rx_icrc_encapsulated_errors_total");

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int appPort;

	@Test
	void everyBoardQueryAndRecordingRuleReturnsSeriesAtASixtySecondScrape(@TempDir Path temp) throws Exception {
		Path promtool = PrometheusTools.require(PrometheusTools.PROMTOOL);
		List<String> scrapes = scrapes();
		Path openMetrics = temp.resolve("scrapes.om");
		Files.writeString(openMetrics, openMetrics(scrapes, Instant.now()));
		Path storage = temp.resolve("data");
		PrometheusTools.Result blocks = PrometheusTools.run(null, temp, promtool.toString(), "tsdb",
				"create-blocks-from", "openmetrics", openMetrics.toString(), storage.toString());
		assertThat(blocks.exitCode()).as(blocks.output()).isZero();
		Path monitoring = PrometheusTools.monitoring();
		List<String> records = MonitoringMixinTests.recordNames(Files.readString(monitoring.resolve("rdma-rules.yml")));
		List<String> alerts = MonitoringMixinTests.alertNames(Files.readString(monitoring.resolve("rdma-alerts.yml")));
		// Rules are evaluated at the current time over the loaded range; a short
		// evaluation
		// interval only makes the first evaluation come sooner.
		try (PrometheusServer prometheus = PrometheusServer.start(temp, PrometheusServer.mixinRules("5s"),
				"--storage.tsdb.path=" + storage)) {
			Map<String, String> variables = prometheus.dashboardVariables();
			assertThat(variables).containsEntry("instance", "(127.0.0.1:" + this.appPort + ")")
				.containsEntry("device", "(sim_ib_0|sim_mlx5_0|sim_mlx5_1|sim_rxe_0)");
			Set<String> exported = families(scrapes.get(0));
			Map<String, Set<String>> absent = new LinkedHashMap<>();
			List<String> queries = new ArrayList<>();
			for (String query : PrometheusServer.panelQueries(variables, RATE_INTERVAL)) {
				Set<String> missing = new TreeSet<>(PrometheusServer.families(query));
				missing.removeAll(exported);
				if (missing.isEmpty()) {
					queries.add(query);
				}
				else {
					absent.put(query, missing);
				}
			}
			assertThat(absent.values().stream().flatMap(Set::stream)).as("families the simulator does not export")
				.containsOnly(NOT_SIMULATED.toArray(String[]::new));
			assertThat(queries).hasSizeGreaterThan(75);
			queries.addAll(records);
			prometheus.awaitSeries("every board query and recording rule at a 60 s scrape", queries,
					Duration.ofSeconds(60));
			for (String query : absent.keySet()) {
				assertThat(prometheus.query(query)).as(query).isEmpty();
			}
			prometheus.assertRulesHealthy(records.size(), alerts.size());
			// what the 1m windows of earlier versions showed at this scrape: nothing
			assertThat(prometheus.query("rate(rdma_port_data_received_bytes_total[1m])")).isEmpty();
			assertThat(prometheus.query("instance_device_port:rdma_port_data_received_bytes:rate5m > 0"))
				.as("the traffic between the scrapes")
				.isNotEmpty();
		}
	}

	@Test
	void everyExportedFamilyIsOnTheBoardInARuleOrAnAlertOrListedInTheReadme() throws Exception {
		Set<String> exported = families(scrape());
		assertThat(exported).hasSizeGreaterThan(50);
		Path monitoring = PrometheusTools.monitoring();
		Set<String> used = new TreeSet<>();
		for (String query : PrometheusServer.panelExpressions()) {
			used.addAll(PrometheusServer.families(query));
		}
		used.addAll(PrometheusServer.families(Files.readString(monitoring.resolve("rdma-rules.yml"))));
		used.addAll(PrometheusServer.families(Files.readString(monitoring.resolve("rdma-alerts.yml"))));
		Set<String> deliberatelyNot = readmeDeliberatelyNot();
		assertThat(deliberatelyNot).as("listed as not used, yet used").doesNotContainAnyElementsOf(used);
		Set<String> uncovered = new TreeSet<>(exported);
		uncovered.removeAll(used);
		uncovered.removeAll(deliberatelyNot);
		assertThat(uncovered).as("families of the scrape on no panel, rule or alert and not in the README").isEmpty();
	}

	/**
	 * The names in the "Deliberately not on the board" paragraph of docs/monitoring.md.
	 */
	private static Set<String> readmeDeliberatelyNot() throws Exception {
		String readme = Files.readString(PrometheusTools.monitoring().getParent().resolve("docs/monitoring.md"));
		int start = readme.indexOf("**Deliberately not on the board");
		assertThat(start).as("docs/monitoring.md's list of families deliberately not on the board").isNotNegative();
		String paragraph = readme.substring(start, readme.indexOf("\n\n", start));
		Set<String> names = PrometheusServer.families(paragraph);
		assertThat(names).isNotEmpty();
		return names;
	}

	/**
	 * Take {@link #SCRAPES} scrapes, each after the sample's traffic moved the counters
	 * (the sample reads the devices at most once a second).
	 */
	private List<String> scrapes() {
		List<String> scrapes = new ArrayList<>();
		String[] last = { null };
		for (int i = 0; i < SCRAPES; i++) {
			String scrape = await("a scrape with new counter values").atMost(Duration.ofSeconds(20))
				.pollInterval(Duration.ofMillis(200))
				.until(this::scrape, (body) -> {
					Matcher traffic = TRAFFIC.matcher(body);
					return traffic.find() && !traffic.group(1).equals(last[0]);
				});
			Matcher traffic = TRAFFIC.matcher(scrape);
			assertThat(traffic.find()).isTrue();
			last[0] = traffic.group(1);
			scrapes.add(scrape);
		}
		return scrapes;
	}

	/**
	 * The rdma samples of the scrapes as OpenMetrics, one scrape interval apart and the
	 * last at {@code now}, with the target labels Prometheus adds.
	 */
	private String openMetrics(List<String> scrapes, Instant now) {
		String target = "instance=\"127.0.0.1:" + this.appPort + "\",job=\"rdma\"";
		Map<String, List<String>> series = new LinkedHashMap<>();
		for (int i = 0; i < scrapes.size(); i++) {
			long timestamp = now.minus(SCRAPE_INTERVAL.multipliedBy(scrapes.size() - 1 - i)).getEpochSecond();
			for (String line : scrapes.get(i).lines().toList()) {
				Matcher sample = SAMPLE.matcher(line);
				if (sample.matches()) {
					String labels = (sample.group(2) != null && !sample.group(2).isEmpty())
							? target + "," + sample.group(2) : target;
					series.computeIfAbsent(sample.group(1) + "{" + labels + "}", (key) -> new ArrayList<>())
						.add(sample.group(3) + " " + timestamp);
				}
			}
		}
		// OpenMetrics: the samples of a series together, in time order
		return series.entrySet()
			.stream()
			.flatMap((entry) -> entry.getValue().stream().map((value) -> entry.getKey() + " " + value))
			.collect(Collectors.joining("\n", "", "\n# EOF\n"));
	}

	private static Set<String> families(String scrape) {
		return scrape.lines()
			.filter((line) -> line.startsWith("# TYPE rdma_"))
			.map((line) -> line.split(" ")[2])
			.collect(Collectors.toCollection(TreeSet::new));
	}

	private String scrape() throws Exception {
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + this.appPort + "/actuator/prometheus"))
			.timeout(Duration.ofSeconds(5))
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString()).body();
	}

}
