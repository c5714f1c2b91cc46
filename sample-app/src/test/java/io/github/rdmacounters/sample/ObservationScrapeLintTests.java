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
 * The observation families (flow, port counter and queue pair counter deltas of the
 * sample's observed checkpoint) pass {@code promtool check metrics} with no finding, as
 * the default scrape does ({@link PrometheusScrapeLintTests}): a summary named
 * {@code ..._counter} was flagged ("metric name should not include type 'counter'").
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "rdma.observations.enabled=true", "rdma.observations.names=" + SimulatedCheckpoint.OBSERVATION,
				"rdma.observations.sets=nvme-tcp", "rdma.observations.port-counters=rx_write_requests",
				"rdma.observations.queue-pair-counters=out_of_sequence", "sample.checkpoint.interval-ms=200",
				PrometheusTools.NO_EXEMPLARS })
class ObservationScrapeLintTests {

	@LocalServerPort
	private int port;

	@Test
	void observationFamiliesPassPromtoolCheckMetricsWithNoFinding() throws Exception {
		Path promtool = PrometheusTools.require(PrometheusTools.PROMTOOL);
		HttpClient client = HttpClient.newHttpClient();
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/actuator/prometheus"))
			.build();
		String[] scrape = new String[1];
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			scrape[0] = client.send(request, HttpResponse.BodyHandlers.ofString()).body();
			assertThat(scrape[0])
				.containsPattern("rdma_observation_packets_count\\{[^}]*overlapped=\"false\"[^}]*} [1-9]")
				.containsPattern("rdma_observation_port_delta_count\\{[^}]*overlapped=\"false\"[^}]*} [1-9]")
				.containsPattern("rdma_observation_queue_pair_delta_count\\{[^}]*overlapped=\"false\"[^}]*} [1-9]");
		});
		String families = PrometheusTools.rdmaFamilies(scrape[0]);
		assertThat(families).contains("# TYPE rdma_observation_port_delta summary")
			.contains("# TYPE rdma_observation_queue_pair_delta summary")
			.doesNotContain("_counter_count");
		PrometheusTools.Result result = PrometheusTools.run(families, Path.of("."), promtool.toString(), "check",
				"metrics");
		assertThat(result.output()).as("promtool check metrics findings").isEmpty();
		assertThat(result.exitCode()).isZero();
	}

}
