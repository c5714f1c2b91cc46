package io.github.rdmacounters.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collection;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample with counter deltas on observations turned on: each
 * {@link SimulatedCheckpoint} records at least its own packets and bytes on the nvme-tcp
 * set in {@code /actuator/prometheus}, and, with tracing on
 * ({@code spring-boot-starter-opentelemetry} in the tests), on its span.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "rdma.observations.enabled=true", "rdma.observations.names=" + SimulatedCheckpoint.OBSERVATION,
				"rdma.observations.sets=nvme-tcp", "rdma.observations.port-counters=rx_write_requests",
				"sample.checkpoint.interval-ms=3600000", "management.tracing.sampling.probability=1.0",
				PrometheusTools.NO_EXEMPLARS })
class SimulatedCheckpointTests {

	private static final Pattern SUM = Pattern.compile(
			"^rdma_observation_packets_sum\\{observation=\"sample.checkpoint\",overlapped=\"false\",set=\"nvme-tcp\"} (\\S+)$",
			Pattern.MULTILINE);

	private static final Pattern WRITES = Pattern.compile(
			"^rdma_observation_port_delta_sum\\{counter=\"rx_write_requests\",device=\"sim_mlx5_0\",observation=\"sample.checkpoint\",overlapped=\"false\",port=\"1\"} (\\S+)$",
			Pattern.MULTILINE);

	@Autowired
	private SimulatedCheckpoint checkpoint;

	@Autowired
	private CollectingSpanExporter spans;

	@LocalServerPort
	private int port;

	@Test
	void aCheckpointsPacketsAreInThePrometheusScrapeAndOnItsSpan() throws Exception {
		this.checkpoint.checkpoint();

		String scrape = scrape();
		assertThat(scrape).contains(
				"rdma_observation_packets_count{observation=\"sample.checkpoint\",overlapped=\"false\",set=\"nvme-tcp\"}");
		Matcher sum = SUM.matcher(scrape);
		assertThat(sum.find()).as("packets sum in%n%s", scrape).isTrue();
		assertThat(Double.parseDouble(sum.group(1))).isGreaterThanOrEqualTo(SimulatedCheckpoint.PACKETS);
		assertThat(scrape).contains("# TYPE rdma_observation_bytes summary");
		Matcher writes = WRITES.matcher(scrape);
		assertThat(writes.find()).as("RDMA WRITEs sum in%n%s", scrape).isTrue();
		assertThat(Double.parseDouble(writes.group(1))).isGreaterThanOrEqualTo(SimulatedCheckpoint.RDMA_WRITES);
		await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
			SpanData span = this.spans.spans.stream()
				.filter((candidate) -> candidate.getName().equals(SimulatedCheckpoint.OBSERVATION))
				.findFirst()
				.orElseThrow(() -> new AssertionError("no span " + SimulatedCheckpoint.OBSERVATION + " in "
						+ this.spans.spans.stream().map(SpanData::getName).toList()));
			String packets = span.getAttributes().get(AttributeKey.stringKey("rdma.nvme-tcp.packets"));
			assertThat(packets).as("attributes %s", span.getAttributes()).isNotNull();
			assertThat(Long.parseLong(packets)).isGreaterThanOrEqualTo(SimulatedCheckpoint.PACKETS);
			assertThat(Long.parseLong(span.getAttributes().get(AttributeKey.stringKey("rdma.nvme-tcp.bytes"))))
				.isGreaterThanOrEqualTo((long) SimulatedCheckpoint.PACKETS * SimulatedCheckpoint.SIZE);
			assertThat(span.getAttributes().get(AttributeKey.stringKey("rdma.nvme-tcp.overlapped"))).isEqualTo("false");
			assertThat(Long
				.parseLong(span.getAttributes().get(AttributeKey.stringKey("rdma.sim_mlx5_0.1.rx_write_requests"))))
				.isGreaterThanOrEqualTo(SimulatedCheckpoint.RDMA_WRITES);
		});
	}

	private String scrape() throws Exception {
		HttpClient client = HttpClient.newHttpClient();
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/actuator/prometheus"))
			.build();
		return client.send(request, HttpResponse.BodyHandlers.ofString()).body();
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class SpanCollection {

		@Bean
		CollectingSpanExporter collectingSpanExporter() {
			return new CollectingSpanExporter();
		}

	}

	/** Keeps the spans that tracing exports. */
	static class CollectingSpanExporter implements SpanExporter {

		final Queue<SpanData> spans = new ConcurrentLinkedQueue<>();

		@Override
		public CompletableResultCode export(Collection<SpanData> batch) {
			this.spans.addAll(batch);
			return CompletableResultCode.ofSuccess();
		}

		@Override
		public CompletableResultCode flush() {
			return CompletableResultCode.ofSuccess();
		}

		@Override
		public CompletableResultCode shutdown() {
			return CompletableResultCode.ofSuccess();
		}

	}

}
