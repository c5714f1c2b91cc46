package io.github.rdmacounters.sample;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

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
		String scrape = PrometheusTools.scrapeUntil(this.port,
				(text) -> assertThat(text).containsPattern("rdma_flow_packets_total\\{[^}]*set=\"nvme-tcp\"} [1-9]"));
		String families = PrometheusTools.rdmaFamilies(scrape);
		assertThat(families).contains("# TYPE rdma_port_data_received_bytes_total counter")
			.contains("# TYPE rdma_out_of_buffer_drops_total counter")
			.contains("# TYPE rdma_state_id gauge")
			.doesNotContain("rdma_port_hw_counter_total");
		PrometheusTools.assertPromtoolFindsNothing(families);
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
