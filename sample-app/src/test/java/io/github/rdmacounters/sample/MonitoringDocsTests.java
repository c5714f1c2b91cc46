package io.github.rdmacounters.sample;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/monitoring.md} lists every alert of {@code monitoring/rdma-alerts.yml}, in
 * order, with the rule's expression, {@code for} and severity, and a source; and its
 * {@code promtool check rules} output counts the rules the files hold.
 */
class MonitoringDocsTests {

	/** A row of the alerts table: name, "fires when", severity, source. */
	private static final Pattern ROW = Pattern
		.compile("^\\| `(Rdma\\w+)` \\| `([^`]+)`( for (\\w+))? \\| (\\w+) \\| (.+) \\|$", Pattern.MULTILINE);

	@Test
	void everyAlertOfTheRuleFileIsInTheTableWithItsExpressionAndSeverity() throws Exception {
		Path monitoring = PrometheusTools.monitoring();
		List<Map<String, Object>> alerts = alerts(Files.readString(monitoring.resolve("rdma-alerts.yml")));
		Map<String, MatchResult> rows = new LinkedHashMap<>();
		Matcher row = ROW.matcher(page());
		while (row.find()) {
			rows.put(row.group(1), row.toMatchResult());
		}
		assertThat(rows.keySet()).as("alerts in docs/monitoring.md")
			.containsExactlyElementsOf(alerts.stream().map((alert) -> (String) alert.get("alert")).toList());
		for (Map<String, Object> alert : alerts) {
			MatchResult documented = rows.get(alert.get("alert"));
			String name = (String) alert.get("alert");
			assertThat(documented.group(2)).as("expression of %s", name)
				.isEqualTo(String.valueOf(alert.get("expr")).strip());
			assertThat(documented.group(4)).as("for of %s", name).isEqualTo(alert.get("for"));
			@SuppressWarnings("unchecked")
			Map<String, Object> labels = (Map<String, Object>) alert.get("labels");
			assertThat(documented.group(5)).as("severity of %s", name).isEqualTo(labels.get("severity"));
			assertThat(documented.group(6)).as("source of %s", name).isNotBlank();
		}
	}

	@Test
	void promtoolOutputOfThePageCountsTheRulesOfEachFile() throws Exception {
		Path monitoring = PrometheusTools.monitoring();
		String page = page();
		for (String file : List.of("rdma-rules.yml", "rdma-alerts.yml")) {
			String rules = Files.readString(monitoring.resolve(file));
			int count = MonitoringMixinTests.recordNames(rules).size() + MonitoringMixinTests.alertNames(rules).size();
			assertThat(page).as("promtool's count for %s in docs/monitoring.md", file)
				.contains("Checking " + file + "\n  SUCCESS: " + count + " rules found");
		}
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> alerts(String rules) {
		Map<String, Object> document = new Yaml().load(rules);
		List<Map<String, Object>> alerts = new ArrayList<>();
		for (Map<String, Object> group : (List<Map<String, Object>>) document.get("groups")) {
			for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
				if (rule.get("alert") != null) {
					alerts.add(rule);
				}
			}
		}
		return alerts;
	}

	private static String page() throws Exception {
		Path page = PrometheusTools.monitoring().resolveSibling("docs").resolve("monitoring.md");
		return Files.readString(page, StandardCharsets.UTF_8);
	}

}
