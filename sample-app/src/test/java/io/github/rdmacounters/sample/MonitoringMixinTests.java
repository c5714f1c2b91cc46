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
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The monitoring mixin ({@code monitoring/}): {@code promtool check rules} and
 * {@code promtool test rules} pass, and the dashboard only queries what the rules record
 * or the application exports.
 */
class MonitoringMixinTests {

	private static final Pattern RECORDED = Pattern.compile("\\b([a-z_]+:[a-z0-9_]+:[a-z0-9_]+)\\b");

	@Test
	void recordingAndAlertRulesPassPromtoolCheckRules() throws Exception {
		Path promtool = PrometheusTools.require(PrometheusTools.PROMTOOL);
		PrometheusTools.Result result = PrometheusTools.run(null, PrometheusTools.monitoring(), promtool.toString(),
				"check", "rules", "rdma-rules.yml", "rdma-alerts.yml");
		assertThat(result.output()).contains("SUCCESS: 20 rules found")
			.contains("SUCCESS: 7 rules found")
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
	void dashboardPanelsQueryOnlyRecordedSeriesOrExportedGauges() throws Exception {
		Path monitoring = PrometheusTools.monitoring();
		Set<String> recorded = Set.copyOf(recordNames(Files.readString(monitoring.resolve("rdma-rules.yml"))));
		JsonNode dashboard = JsonMapper.builder().build().readTree(monitoring.resolve("rdma-dashboard.json").toFile());
		List<String> rows = new ArrayList<>();
		List<String> exprs = new ArrayList<>();
		for (JsonNode panel : dashboard.get("panels")) {
			if ("row".equals(panel.get("type").asString())) {
				rows.add(panel.get("title").asString());
			}
			for (JsonNode target : panel.path("targets")) {
				exprs.add(target.get("expr").asString());
			}
		}
		assertThat(rows).containsExactly("Port state overview", "Throughput", "Congestion and errors",
				"Flow counter sets", "Read failures");
		List<String> variables = new ArrayList<>();
		dashboard.get("templating").get("list").forEach((variable) -> variables.add(variable.get("name").asString()));
		assertThat(variables).containsExactly("datasource", "instance", "device", "port", "set");
		assertThat(exprs).hasSizeGreaterThan(15).allSatisfy((expr) -> {
			Matcher matcher = RECORDED.matcher(expr);
			while (matcher.find()) {
				assertThat(recorded).as(expr).contains(matcher.group(1));
			}
			assertThat(expr).as("panels query recorded rates, not raw counters").doesNotContain("rate(");
		});
		assertThat(exprs.stream().flatMap((expr) -> RECORDED.matcher(expr).results().map((m) -> m.group(1))))
			.as("every recording rule is shown")
			.containsAll(recorded);
	}

	static List<String> recordNames(String rules) {
		return ruleValues(rules, "record");
	}

	static List<String> alertNames(String rules) {
		return ruleValues(rules, "alert");
	}

	@SuppressWarnings("unchecked")
	private static List<String> ruleValues(String rules, String key) {
		Map<String, Object> document = new org.yaml.snakeyaml.Yaml().load(rules);
		List<String> values = new ArrayList<>();
		for (Map<String, Object> group : (List<Map<String, Object>>) document.get("groups")) {
			for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
				if (rule.get(key) != null) {
					values.add((String) rule.get(key));
				}
			}
		}
		return values;
	}

}
