package io.github.rdmacounters.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.simulated.SimulatedBackend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three sample applications as three hosts (each with a simulated device of its own, on
 * random loopback ports), a Prometheus in agent mode scraping them and remote-writing to
 * a central Prometheus ({@code --web.enable-remote-write-receiver}) that loads the mixin:
 * every board query and recording rule returns series for all three hosts, and a link
 * flap on one host fires that host's {@code RdmaLinkDowned} alone. Both are Debian's
 * {@code /usr/bin/prometheus} on {@code 127.0.0.1}, stopped by the test. Scrape and
 * evaluation run every second to keep the wall time short; the default 60 s scrape is
 * {@link MonitoringAtSixtySecondScrapeTests}'s.
 */
class FleetRemoteWriteTests {

	private static final List<String> HOSTS = List.of("host-a", "host-b", "host-c");

	/** Grafana's $__rate_interval at a 1 s scrape: four scrape intervals. */
	private static final String RATE_INTERVAL = "4s";

	private static final Pattern TOPK = Pattern.compile("topk\\(10, (.+)\\)");

	@Test
	void everyBoardQueryReturnsSeriesForEveryHostAndAFaultOnOneHostAlertsForThatHostOnly(@TempDir Path temp)
			throws Exception {
		List<ConfigurableApplicationContext> hosts = new ArrayList<>();
		try {
			List<String> targets = new ArrayList<>();
			for (String host : HOSTS) {
				ConfigurableApplicationContext context = startHost(host);
				hosts.add(context);
				targets.add("127.0.0.1:" + context.getEnvironment().getRequiredProperty("local.server.port"));
			}
			Path monitoring = PrometheusTools.monitoring();
			List<String> records = MonitoringMixinTests
				.recordNames(Files.readString(monitoring.resolve("rdma-rules.yml")));
			List<String> alerts = MonitoringMixinTests
				.alertNames(Files.readString(monitoring.resolve("rdma-alerts.yml")));
			try (PrometheusServer central = PrometheusServer.start(temp, PrometheusServer.mixinRules("1s"),
					"--storage.tsdb.path=" + temp.resolve("central"), "--web.enable-remote-write-receiver");
					PrometheusServer agent = PrometheusServer.start(temp, agentConfig(targets, central.url()),
							"--enable-feature=agent", "--storage.agent.path=" + temp.resolve("agent"))) {
				Map<String, String> variables = await("dashboard variables of three hosts")
					.atMost(Duration.ofSeconds(60))
					.pollInterval(Duration.ofSeconds(1))
					.until(central::dashboardVariables,
							(values) -> values != null && values.get("instance").split("\\|").length == 3);
				assertThat(variables).containsEntry("cluster", "(lab)")
					.containsEntry("instance", "(" + String.join("|", new TreeSet<>(targets)) + ")");
				for (int i = 0; i < HOSTS.size(); i++) {
					String device = "sim_" + HOSTS.get(i).replace('-', '_');
					JsonNode own = central.query("rdma_device_present{device=\"" + device + "\"}");
					assertThat(own).as(device).hasSize(1);
					assertThat(own.get(0).get("metric").get("instance").asString()).isEqualTo(targets.get(i));
				}
				Set<String> exported = central.names("{job=\"rdma\",__name__=~\"rdma_.+\"}");
				List<String> queries = new ArrayList<>(PrometheusServer.panelQueries(variables, RATE_INTERVAL)
					.stream()
					.filter((query) -> exported.containsAll(PrometheusServer.families(query)))
					.toList());
				assertThat(queries).hasSizeGreaterThan(75);
				queries.addAll(records);
				await("every board query and recording rule with series of all three hosts")
					.atMost(Duration.ofSeconds(90))
					.pollInterval(Duration.ofSeconds(2))
					.untilAsserted(() -> {
						List<String> missing = new ArrayList<>();
						for (String query : queries) {
							if (!allHosts(central, query, targets)) {
								missing.add(query);
							}
						}
						assertThat(missing).as("queries without series of every host; agent: " + agent.targets())
							.isEmpty();
					});
				central.assertRulesHealthy(records.size(), alerts.size());
				assertThat(firingInstances(central)).as("no alert before the fault").isEmpty();
				// the fault: host-b's link goes down and comes back, counting a
				// link_downed
				SimulatedBackend faulty = (SimulatedBackend) hosts.get(1).getBean(RdmaBackend.class);
				faulty.setPortState("sim_mlx5_0", 1, PortState.DOWN);
				faulty.setPortState("sim_mlx5_0", 1, PortState.ACTIVE);
				String faultyHost = targets.get(1);
				await("RdmaLinkDowned of host-b").atMost(Duration.ofSeconds(60))
					.pollInterval(Duration.ofSeconds(1))
					.untilAsserted(() -> {
						JsonNode firing = central.query("ALERTS{alertname=\"RdmaLinkDowned\",alertstate=\"firing\"}");
						assertThat(firing).hasSize(1);
						assertThat(firing.get(0).get("metric").get("instance").asString()).isEqualTo(faultyHost);
						assertThat(firing.get(0).get("metric").get("device").asString()).isEqualTo("sim_mlx5_0");
					});
				assertThat(firingInstances(central)).as("hosts with a firing alert").containsExactly(faultyHost);
			}
		}
		finally {
			hosts.forEach(ConfigurableApplicationContext::close);
		}
	}

	/**
	 * Start a sample application as a host: the sample's simulated devices plus one named
	 * after the host, on a random loopback port, without the sample's periodic link flap.
	 */
	private static ConfigurableApplicationContext startHost(String host) {
		// arguments, not default properties: they override the sample's application.yml
		return new SpringApplicationBuilder(SampleApplication.class).run("--server.port=0",
				"--server.address=127.0.0.1", "--sample.link-flap.enabled=false", "--sample.traffic.interval-ms=50",
				"--" + PrometheusTools.NO_EXEMPLARS,
				"--rdma.simulated.devices.sim_" + host.replace('-', '_') + ".ports=1");
	}

	private static String agentConfig(List<String> targets, String central) {
		return """
				global:
				  scrape_interval: 1s
				  scrape_timeout: 1s
				  external_labels:
				    cluster: lab
				scrape_configs:
				  - job_name: rdma
				    metrics_path: /actuator/prometheus
				    static_configs:
				      - targets: ['%s']
				remote_write:
				  - url: %s/api/v1/write
				    queue_config:
				      batch_send_deadline: 1s
				""".formatted(String.join("', '", targets), central);
	}

	/**
	 * Whether a query returns series, and of every host where its series carry an
	 * {@code instance} (a top 10 is checked without its limit).
	 */
	private static boolean allHosts(PrometheusServer central, String query, List<String> targets) throws Exception {
		Matcher topk = TOPK.matcher(query);
		JsonNode result = central.query(topk.matches() ? topk.group(1) : query);
		if (result.isEmpty()) {
			return false;
		}
		Set<String> instances = new TreeSet<>();
		result.forEach((series) -> {
			if (series.get("metric").has("instance")) {
				instances.add(series.get("metric").get("instance").asString());
			}
		});
		return instances.isEmpty() || instances.containsAll(targets);
	}

	private static Set<String> firingInstances(PrometheusServer central) throws Exception {
		Set<String> instances = new TreeSet<>();
		central.query("ALERTS{alertstate=\"firing\"}")
			.forEach((series) -> instances.add(series.get("metric").get("instance").asString()));
		return instances;
	}

}
