package io.github.rdmacounters.sample;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample with {@code spring-boot-starter-opentelemetry} and
 * {@code micrometer-registry-otlp} exports the flow and port meters over OTLP/HTTP every
 * second to a receiver on loopback, which decodes them with the
 * {@code opentelemetry-proto} classes.
 */
@SpringBootTest(properties = { "sample.traffic.interval-ms=50", "management.otlp.metrics.export.enabled=true",
		"management.otlp.metrics.export.step=1s" })
class OtlpExportTests {

	private static final Queue<ExportMetricsServiceRequest> received = new ConcurrentLinkedQueue<>();

	private static final Queue<String> contentTypes = new ConcurrentLinkedQueue<>();

	private static final HttpServer receiver = startReceiver();

	@DynamicPropertySource
	static void otlpUrl(DynamicPropertyRegistry registry) {
		registry.add("management.otlp.metrics.export.url",
				() -> "http://127.0.0.1:" + receiver.getAddress().getPort() + "/v1/metrics");
	}

	@AfterAll
	static void stopReceiver() {
		receiver.stop(0);
	}

	@Test
	void flowAndPortMetersArriveOverOtlpWithTheirAttributes() {
		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
			Map<String, Metric> metrics = latestMetrics();
			Metric packets = metrics.get("rdma.flow.packets");
			assertThat(packets).as("rdma.flow.packets in %s", metrics.keySet()).isNotNull();
			assertThat(packets.getSum().getIsMonotonic()).isTrue();
			assertThat(packets.getSum().getAggregationTemporality())
				.isEqualTo(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
			NumberDataPoint nvmeTcp = point(packets, "set", "nvme-tcp");
			assertThat(attributes(nvmeTcp)).containsEntry("device", "sim_mlx5_0")
				.containsEntry("port", "1")
				.containsEntry("set", "nvme-tcp");
			assertThat(nvmeTcp.getAsDouble()).isPositive();
			assertThat(point(metrics.get("rdma.flow.bytes"), "set", "https").getAsDouble()).isPositive();
			assertThat(metrics.get("rdma.flow.bytes").getUnit()).isEqualTo("bytes");
			Metric data = metrics.get("rdma.port.data.received");
			assertThat(data.getUnit()).isEqualTo("bytes");
			assertThat(data.getDescription()).isEqualTo("Data octets received on all links");
			NumberDataPoint port = point(data, "device", "sim_mlx5_0");
			assertThat(attributes(port)).containsEntry("device", "sim_mlx5_0").containsEntry("port", "1");
			assertThat(port.getAsDouble()).isPositive();
			// the sample's host: sim_mlx5_0, two ports of sim_mlx5_1, sim_ib_0, sim_rxe_0
			assertThat(data.getSum().getDataPointsList()).extracting((point) -> attributes(point).get("device"))
				.contains("sim_mlx5_0", "sim_mlx5_1", "sim_ib_0", "sim_rxe_0");
			assertThat(point(metrics.get("rdma.out.of.buffer.drops"), "device", "sim_mlx5_0")).isNotNull();
			assertThat(metrics.get("rdma.link.downed").getSum().getIsMonotonic()).isTrue();
			assertThat(point(metrics.get("rdma.state.id"), "device", "sim_mlx5_1").getAsDouble()).isEqualTo(4);
			assertThat(metrics.get("rdma.rate").getUnit()).isEqualTo("bytes.per.second");
		});
		ResourceMetrics resource = received.peek().getResourceMetrics(0);
		assertThat(resource.getResource().getAttributesList()).extracting(KeyValue::getKey).contains("service.name");
		assertThat(attributes(resource.getResource().getAttributesList())).containsEntry("service.name",
				"rdma-counters-sample");
		assertThat(contentTypes).contains("application/x-protobuf");
	}

	private static Map<String, Metric> latestMetrics() {
		return received.stream()
			.flatMap((request) -> request.getResourceMetricsList().stream())
			.flatMap((resource) -> resource.getScopeMetricsList().stream())
			.map(ScopeMetrics::getMetricsList)
			.flatMap(List::stream)
			.collect(Collectors.toMap(Metric::getName, (metric) -> metric, (first, later) -> later));
	}

	private static NumberDataPoint point(Metric metric, String key, String value) {
		assertThat(metric).isNotNull();
		Stream<NumberDataPoint> points = metric.hasSum() ? metric.getSum().getDataPointsList().stream()
				: metric.getGauge().getDataPointsList().stream();
		return points.filter((point) -> value.equals(attributes(point).get(key)))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no point with " + key + "=" + value + " in " + metric));
	}

	private static Map<String, String> attributes(NumberDataPoint point) {
		return attributes(point.getAttributesList());
	}

	private static Map<String, String> attributes(List<KeyValue> attributes) {
		return attributes.stream()
			.collect(Collectors.toMap(KeyValue::getKey, (attribute) -> attribute.getValue().getStringValue()));
	}

	private static HttpServer startReceiver() {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
			server.createContext("/v1/metrics", OtlpExportTests::receive);
			server.start();
			return server;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start the OTLP receiver on loopback", ex);
		}
	}

	private static void receive(HttpExchange exchange) throws IOException {
		try (InputStream body = exchange.getRequestBody()) {
			contentTypes.add(String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type")));
			received.add(ExportMetricsServiceRequest.parseFrom(body.readAllBytes()));
			// an empty ExportMetricsServiceResponse: full success
			exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
			exchange.sendResponseHeaders(200, -1);
		}
		finally {
			exchange.close();
		}
	}

}
