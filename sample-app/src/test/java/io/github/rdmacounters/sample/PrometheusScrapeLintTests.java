package io.github.rdmacounters.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The rdma families of the sample's scrape, with the simulated traffic running, pass
 * {@code promtool check metrics} with no finding.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.traffic.interval-ms=50", PrometheusTools.NO_EXEMPLARS })
class PrometheusScrapeLintTests {

	@LocalServerPort
	private int port;

	@Test
	void rdmaFamiliesOfTheSampleScrapePassPromtoolCheckMetricsWithNoFinding() throws Exception {
		Path promtool = PrometheusTools.require(PrometheusTools.PROMTOOL);
		HttpClient client = HttpClient.newHttpClient();
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/actuator/prometheus"))
			.build();
		String[] scrape = new String[1];
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			scrape[0] = client.send(request, HttpResponse.BodyHandlers.ofString()).body();
			assertThat(scrape[0]).containsPattern("rdma_flow_packets_total\\{[^}]*set=\"nvme-tcp\"} [1-9]");
		});
		String families = PrometheusTools.rdmaFamilies(scrape[0]);
		assertThat(families).contains("# TYPE rdma_port_data_received_bytes_total counter")
			.contains("# TYPE rdma_out_of_buffer_drops_total counter")
			.contains("# TYPE rdma_state_id gauge")
			.doesNotContain("rdma_port_hw_counter_total");
		PrometheusTools.Result result = PrometheusTools.run(families, Path.of("."), promtool.toString(), "check",
				"metrics");
		assertThat(result.output()).as("promtool check metrics findings").isEmpty();
		assertThat(result.exitCode()).isZero();
	}

	@Test
	void promtoolFlagsTheSharedHwCounterFamilyOfEarlierVersions() throws Exception {
		Path promtool = PrometheusTools.require(PrometheusTools.PROMTOOL);
		String shared = """
				# HELP rdma_port_hw_counter_total Port counter without a node_exporter name
				# TYPE rdma_port_hw_counter_total counter
				rdma_port_hw_counter_total{counter="out_of_buffer",device="mlx5_0",port="1"} 0.0
				""";
		PrometheusTools.Result result = PrometheusTools.run(shared, Path.of("."), promtool.toString(), "check",
				"metrics");
		assertThat(result.output()).contains("metric name should not include type 'counter'");
		assertThat(result.exitCode()).isNotZero();
	}

}
