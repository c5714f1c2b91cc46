package io.github.rdmacounters.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The monitoring mixin ({@code monitoring/}): {@code promtool check rules} and
 * {@code promtool test rules} pass, alerts name their source and a runbook step, rule
 * windows hold four scrape intervals, and the dashboard's fleet rows come first and its
 * rates use Grafana's {@code $__rate_interval} or recorded series.
 */
class MonitoringMixinTests {

	private static final Pattern RECORDED = Pattern.compile("\\b([a-z_]+:[a-z0-9_]+:[a-z0-9_]+)\\b");

	/**
	 * A range or subquery window: {@code [5m]}, {@code [24h:5m]},
	 * {@code [$__rate_interval]}.
	 */
	private static final Pattern WINDOW = Pattern.compile("\\[([^\\]:]+)(?::[^\\]]+)?\\]");

	@Test
	void recordingAndAlertRulesPassPromtoolCheckRules() throws Exception {
		Path promtool = PrometheusTools.require(PrometheusTools.PROMTOOL);
		PrometheusTools.Result result = PrometheusTools.run(null, PrometheusTools.monitoring(), promtool.toString(),
				"check", "rules", "rdma-rules.yml", "rdma-alerts.yml");
		assertThat(result.output()).contains("SUCCESS: 15 rules found")
			.contains("SUCCESS: 20 rules found")
			.doesNotContain("FAILED");
		assertThat(result.exitCode()).as(result.output()).isZero();
	}

	@Test
	void everyAlertHasAUnitTestAndTheUnitTestsOfAlertsAndRecordingRulesPassPromtoolTestRules() throws Exception {
		Path promtool = PrometheusTools.require(PrometheusTools.PROMTOOL);
		Path monitoring = PrometheusTools.monitoring();
		PrometheusTools.Result result = PrometheusTools.run(null, monitoring, promtool.toString(), "test", "rules",
				"tests/rdma-alerts-test.yml", "tests/rdma-rules-test.yml");
		assertThat(result.output()).contains("Unit Testing:  tests/rdma-alerts-test.yml")
			.contains("Unit Testing:  tests/rdma-rules-test.yml")
			.doesNotContain("FAILED");
		assertThat(result.exitCode()).as(result.output()).isZero();
		String tests = Files.readString(monitoring.resolve("tests/rdma-alerts-test.yml"));
		for (String alert : alertNames(Files.readString(monitoring.resolve("rdma-alerts.yml")))) {
			assertThat(tests).as("unit test of " + alert).contains("alertname: " + alert + "\n");
		}
	}

	@Test
	void promtoolTestRulesFailsWhenAnAlertDoesNotFireAsExpected(@org.junit.jupiter.api.io.TempDir Path temp)
			throws Exception {
		Path promtool = PrometheusTools.require(PrometheusTools.PROMTOOL);
		Path monitoring = PrometheusTools.monitoring();
		Files.copy(monitoring.resolve("rdma-alerts.yml"), temp.resolve("rdma-alerts.yml"));
		Files.copy(monitoring.resolve("rdma-rules.yml"), temp.resolve("rdma-rules.yml"));
		Files.createDirectory(temp.resolve("tests"));
		// 100 symbol errors an hour stay below the threshold of 120
		String broken = Files.readString(monitoring.resolve("tests/rdma-alerts-test.yml"))
			.replace("values: '0+3x90'", "values: '0+1.6x90'");
		Files.writeString(temp.resolve("tests/rdma-alerts-test.yml"), broken);
		PrometheusTools.Result result = PrometheusTools.run(null, temp, promtool.toString(), "test", "rules",
				"tests/rdma-alerts-test.yml");
		assertThat(result.exitCode()).isNotZero();
		assertThat(result.output()).contains("RdmaSymbolErrorsHigh");
	}

	@Test
	void everyAlertNamesItsSourceAndARunbookStep() throws Exception {
		String alerts = Files.readString(PrometheusTools.monitoring().resolve("rdma-alerts.yml"));
		List<Map<String, Object>> rules = rules(alerts, "alert");
		assertThat(rules).hasSize(20);
		for (Map<String, Object> rule : rules) {
			@SuppressWarnings("unchecked")
			Map<String, String> annotations = (Map<String, String>) rule.get("annotations");
			assertThat(annotations).as((String) rule.get("alert")).containsKeys("summary", "description");
			assertThat(annotations.get("source")).as((String) rule.get("alert"))
				.matches("(NVSentinel|rdma-counters).+");
			assertThat(annotations.get("runbook")).as((String) rule.get("alert")).isNotBlank();
		}
	}

	@Test
	void recordingRulesAndTheirTestsUseWindowsOfFourScrapeIntervalsOrMore() throws Exception {
		Path monitoring = PrometheusTools.monitoring();
		String rules = Files.readString(monitoring.resolve("rdma-rules.yml"));
		for (Map<String, Object> rule : rules(rules, "record")) {
			Matcher window = WINDOW.matcher((String) rule.get("expr"));
			while (window.find()) {
				assertThat(minutes(window.group(1))).as(rule.get("record") + ": " + window.group())
					.isGreaterThanOrEqualTo(5);
			}
		}
		assertThat(rules).contains("Supported: scrape intervals from 1s to 60s");
		String tests = Files.readString(monitoring.resolve("tests/rdma-rules-test.yml"));
		assertThat(tests).contains("interval: 15s").contains("interval: 1m");
	}

	@Test
	void dashboardHasFleetRowsFirstAndQueriesRatesOverRateIntervalOrRecordedSeries() throws Exception {
		Path monitoring = PrometheusTools.monitoring();
		Set<String> recorded = Set.copyOf(recordNames(Files.readString(monitoring.resolve("rdma-rules.yml"))));
		JsonNode dashboard = PrometheusServer.dashboard();
		List<String> rows = new ArrayList<>();
		for (JsonNode panel : dashboard.get("panels")) {
			if ("row".equals(panel.get("type").asString())) {
				rows.add(panel.get("title").asString());
			}
		}
		assertThat(rows).containsExactly("Fleet", "Host: ports and devices", "Host: throughput",
				"Host: RoCE operations and transport", "Host: congestion", "Host: link errors",
				"Host: events and recovery", "Application: counter sets", "Host: optional counters (RDMA netlink)",
				"Host: PFC and drops", "Host: reads of the hardware");
		Map<String, JsonNode> variables = new java.util.LinkedHashMap<>();
		dashboard.get("templating")
			.get("list")
			.forEach((variable) -> variables.put(variable.get("name").asString(), variable));
		assertThat(variables).containsOnlyKeys("datasource", "cluster", "instance", "device", "port", "set");
		assertThat(variables.get("instance").get("multi").asBoolean()).as("instance is multi-select").isTrue();
		assertThat(variables.get("cluster").get("allValue").asString()).as("no cluster label: all").isEqualTo(".*");
		List<String> exprs = PrometheusServer.panelExpressions();
		assertThat(exprs).hasSizeGreaterThan(80).allSatisfy((expr) -> {
			Matcher matcher = RECORDED.matcher(expr);
			while (matcher.find()) {
				assertThat(recorded).as(expr).contains(matcher.group(1));
			}
			Matcher window = WINDOW.matcher(expr);
			while (window.find()) {
				assertThat(window.group(1)).as(expr).isIn("$__rate_interval", "1h");
			}
		});
		assertThat(String.join("\n", exprs)).contains("[$__rate_interval]");
		Set<String> used = new java.util.TreeSet<>();
		String readers = String.join("\n", exprs) + Files.readString(monitoring.resolve("rdma-alerts.yml"))
				+ Files.readString(monitoring.resolve("rdma-rules.yml")).replaceAll("record: \\S+", "");
		RECORDED.matcher(readers).results().forEach((match) -> used.add(match.group(1)));
		assertThat(used).as("every recording rule is read by the board, an alert or another rule")
			.containsAll(recorded);
	}

	private static double minutes(String window) {
		double value = Double.parseDouble(window.replaceAll("[a-z]+$", ""));
		return switch (window.replaceAll("^[0-9.]+", "")) {
			case "s" -> value / 60;
			case "m" -> value;
			case "h" -> value * 60;
			case "d" -> value * 24 * 60;
			default -> throw new IllegalArgumentException(window);
		};
	}

	static List<String> recordNames(String rules) {
		return ruleValues(rules, "record");
	}

	static List<String> alertNames(String rules) {
		return ruleValues(rules, "alert");
	}

	private static List<String> ruleValues(String rules, String key) {
		return rules(rules, key).stream().map((rule) -> (String) rule.get(key)).toList();
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> rules(String rules, String key) {
		Map<String, Object> document = new org.yaml.snakeyaml.Yaml().load(rules);
		List<Map<String, Object>> found = new ArrayList<>();
		for (Map<String, Object> group : (List<Map<String, Object>>) document.get("groups")) {
			for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
				if (rule.get(key) != null) {
					found.add(rule);
				}
			}
		}
		return found;
	}

}
