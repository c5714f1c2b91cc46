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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Debian's {@code /usr/bin/prometheus} on a free loopback port with a temporary
 * configuration and storage, its HTTP API, and the dashboard's queries resolved against
 * it as Grafana resolves them. Closing stops the process.
 */
final class PrometheusServer implements AutoCloseable {

	private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\((.+),\\s*(\\w+)\\)");

	/** A family name of the exporter, not a recorded name ({@code level:rdma_...:op}). */
	private static final Pattern FAMILY = Pattern.compile("(?<![:\\w])rdma_[a-z0-9_]+(?![:\\w])");

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private final JsonMapper json = JsonMapper.builder().build();

	private final Process process;

	private final Path log;

	private final String url;

	private PrometheusServer(Process process, Path log, String url) {
		this.process = process;
		this.log = log;
		this.url = url;
	}

	/**
	 * Start Prometheus and wait until it is ready.
	 * @param directory the directory for its configuration and log
	 * @param config the configuration ({@code prometheus.yml})
	 * @param flags further command-line flags, among them its storage
	 * ({@code --storage.tsdb.path}, or {@code --storage.agent.path} in agent mode)
	 * @return the running server
	 * @throws Exception if it cannot be started
	 */
	static PrometheusServer start(Path directory, String config, String... flags) throws Exception {
		Path binary = PrometheusTools.require(PrometheusTools.PROMETHEUS);
		int port = PrometheusTools.freePort();
		Path file = directory.resolve("prometheus-" + port + ".yml");
		Files.writeString(file, config);
		Path log = directory.resolve("prometheus-" + port + ".log");
		List<String> command = new ArrayList<>(
				List.of(binary.toString(), "--config.file=" + file, "--web.listen-address=127.0.0.1:" + port));
		command.addAll(List.of(flags));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		PrometheusServer server = new PrometheusServer(process, log, "http://127.0.0.1:" + port);
		try {
			await("Prometheus ready (log: " + log + ")").atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(250))
				.ignoreExceptions()
				.until(() -> !process.isAlive() || server.get("/-/ready").statusCode() == 200);
			assertThat(process.isAlive()).as(server::log).isTrue();
			return server;
		}
		catch (RuntimeException | Error ex) {
			server.close();
			throw ex;
		}
	}

	/**
	 * Return a rule-files section and an evaluation interval for the mixin's rules.
	 * @param evaluationInterval the evaluation interval
	 * @return the lines of {@code prometheus.yml}
	 */
	static String mixinRules(String evaluationInterval) {
		Path monitoring = PrometheusTools.monitoring();
		return """
				global:
				  evaluation_interval: %s
				rule_files:
				  - %s
				  - %s
				""".formatted(evaluationInterval, monitoring.resolve("rdma-rules.yml"),
				monitoring.resolve("rdma-alerts.yml"));
	}

	/**
	 * Resolve the dashboard's variables in order, as Grafana does: each
	 * {@code label_values(selector, label)} with the earlier variables substituted,
	 * multi-value variables as a regex alternation of all values, a variable with an
	 * "All" value and no values (the {@code cluster} label of a Prometheus without one)
	 * as its {@code allValue}.
	 * @return the values, or {@code null} while a variable has no value
	 * @throws Exception if the API fails
	 */
	Map<String, String> dashboardVariables() throws Exception {
		Map<String, String> values = new LinkedHashMap<>();
		for (JsonNode variable : dashboard().get("templating").get("list")) {
			if (!"query".equals(variable.get("type").asString())) {
				continue;
			}
			Matcher matcher = LABEL_VALUES.matcher(variable.get("definition").asString());
			assertThat(matcher.matches()).as(variable.get("definition").asString()).isTrue();
			String selector = substitute(matcher.group(1), values);
			Set<String> found = new TreeSet<>();
			JsonNode series = api("/api/v1/series?match[]=" + encode(selector));
			series.forEach((labels) -> {
				if (labels.has(matcher.group(2))) {
					found.add(labels.get(matcher.group(2)).asString());
				}
			});
			String name = variable.get("name").asString();
			if (found.isEmpty() && !series.isEmpty() && variable.path("includeAll").asBoolean()
					&& variable.has("allValue")) {
				values.put(name, variable.get("allValue").asString());
			}
			else if (found.isEmpty()) {
				return null;
			}
			else {
				values.put(name, variable.get("multi").asBoolean() ? "(" + String.join("|", found) + ")"
						: found.iterator().next());
			}
		}
		return values;
	}

	/**
	 * Return every panel query of the dashboard with the variables substituted.
	 * @param variables the variables' values
	 * @param rateInterval the value of Grafana's {@code $__rate_interval}
	 * @return the queries
	 */
	static List<String> panelQueries(Map<String, String> variables, String rateInterval) {
		List<String> queries = new ArrayList<>();
		for (String expression : panelExpressions()) {
			String query = substitute(expression.replace("$__rate_interval", rateInterval), variables);
			assertThat(query).as("every variable substituted").doesNotContain("$");
			queries.add(query);
		}
		return queries;
	}

	/**
	 * Return every panel query of the dashboard as written.
	 * @return the queries
	 */
	static List<String> panelExpressions() {
		List<String> expressions = new ArrayList<>();
		for (JsonNode panel : dashboard().get("panels")) {
			for (JsonNode target : panel.path("targets")) {
				expressions.add(target.get("expr").asString());
			}
		}
		return expressions;
	}

	/**
	 * Return the exporter's family names a query or a rules file reads (not the recorded
	 * names, not in YAML comments).
	 * @param query the query or rules
	 * @return the family names
	 */
	static Set<String> families(String query) {
		return FAMILY.matcher(query.replaceAll("(?m)^\\s*#.*$", ""))
			.results()
			.map(MatchResult::group)
			.collect(Collectors.toCollection(TreeSet::new));
	}

	static JsonNode dashboard() {
		return JsonMapper.builder()
			.build()
			.readTree(PrometheusTools.monitoring().resolve("rdma-dashboard.json").toFile());
	}

	/**
	 * Wait until each query has returned series at least once: on a loaded machine a
	 * scrape can time out now and then, and its staleness marker empties an instant query
	 * until the next scrape succeeds.
	 * @param description what the queries show
	 * @param queries the queries
	 * @param timeout how long to wait
	 */
	void awaitSeries(String description, List<String> queries, Duration timeout) {
		Set<String> pending = new java.util.LinkedHashSet<>(queries);
		await(description).atMost(timeout).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
			for (String query : List.copyOf(pending)) {
				if (!query(query).isEmpty()) {
					pending.remove(query);
				}
			}
			assertThat(pending).as(() -> "queries without series; targets: " + targets()).isEmpty();
		});
	}

	/**
	 * Wait until every rule has been evaluated and is healthy, and count them by type.
	 * @param records the expected number of recording rules
	 * @param alerts the expected number of alerting rules
	 */
	void assertRulesHealthy(int records, int alerts) {
		await("every rule evaluated and healthy").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofSeconds(1))
			.untilAsserted(() -> {
				List<String> types = new ArrayList<>();
				for (JsonNode group : api("/api/v1/rules").get("groups")) {
					for (JsonNode rule : group.get("rules")) {
						assertThat(rule.get("health").asString())
							.as(rule.get("name").asString() + ": " + rule.path("lastError"))
							.isEqualTo("ok");
						types.add(rule.get("type").asString());
					}
				}
				assertThat(types.stream().filter("recording"::equals)).hasSize(records);
				assertThat(types.stream().filter("alerting"::equals)).hasSize(alerts);
			});
	}

	JsonNode query(String promql) throws Exception {
		return api("/api/v1/query?query=" + encode(promql)).get("result");
	}

	Set<String> names(String selector) throws Exception {
		Set<String> names = new TreeSet<>();
		api("/api/v1/label/__name__/values?match[]=" + encode(selector)).forEach((name) -> names.add(name.asString()));
		return names;
	}

	String targets() {
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

	JsonNode api(String path) throws Exception {
		HttpResponse<String> response = get(path);
		JsonNode body = this.json.readTree(response.body());
		assertThat(body.get("status").asString()).as(path + ": " + response.body()).isEqualTo("success");
		return body.get("data");
	}

	String url() {
		return this.url;
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	String log() {
		try {
			return Files.readString(this.log);
		}
		catch (IOException ex) {
			return "(no log: " + ex + ")";
		}
	}

	private HttpResponse<String> get(String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create(this.url + path))
			.timeout(Duration.ofSeconds(5))
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
			this.process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
		}
		assertThat(this.process.isAlive()).as("Prometheus stopped").isFalse();
	}

	static String substitute(String text, Map<String, String> values) {
		String result = text;
		for (Map.Entry<String, String> entry : values.entrySet()) {
			result = result.replace("${" + entry.getKey() + "}", entry.getValue())
				.replace("$" + entry.getKey(), entry.getValue());
		}
		return result;
	}

	static String encode(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8);
	}

}
