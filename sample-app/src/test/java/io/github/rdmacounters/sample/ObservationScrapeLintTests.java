package io.github.rdmacounters.sample;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

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
		String scrape = PrometheusTools.scrapeUntil(this.port, (text) -> assertThat(text)
			.containsPattern("rdma_observation_packets_count\\{[^}]*overlapped=\"false\"[^}]*} [1-9]")
			.containsPattern("rdma_observation_port_delta_count\\{[^}]*overlapped=\"false\"[^}]*} [1-9]")
			.containsPattern("rdma_observation_queue_pair_delta_count\\{[^}]*overlapped=\"false\"[^}]*} [1-9]"));
		String families = PrometheusTools.rdmaFamilies(scrape);
		assertThat(families).contains("# TYPE rdma_observation_port_delta summary")
			.contains("# TYPE rdma_observation_queue_pair_delta summary")
			.doesNotContain("_counter_count");
		PrometheusTools.assertPromtoolFindsNothing(families);
	}

}
