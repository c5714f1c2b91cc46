package io.github.rdmacounters.metrics;

import java.lang.ref.Reference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.testsupport.ScriptedDevice;
import io.github.rdmacounters.testsupport.ScriptedDevice.ScriptedCounters;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RdmaFlowMetrics}.
 */
class RdmaFlowMetricsTests {

	private static final FlowSpec ROCE = FlowSpec.builder().protocol(L4Protocol.UDP).destinationPort(4791).build();

	private static final FlowSpec HTTPS = FlowSpec.builder().protocol(L4Protocol.TCP).destinationPort(443).build();

	private final ScriptedDevice device = new ScriptedDevice("mlx5_0", "simulated");

	private final MeterRegistry meterRegistry = new SimpleMeterRegistry();

	// Keeps the binder reachable, as the bean factory does in an application
	private @Nullable RdmaFlowMetrics binder;

	@Test
	void bindToRegistersPacketsBytesAndFailuresPerSetWithTagsUnitsAndDescriptions() {
		bind(Duration.ZERO, "roce", "https");

		for (String set : List.of("roce", "https")) {
			FunctionCounter packets = counter(RdmaFlowMetrics.PACKETS, set);
			assertThat(packets.getId().getBaseUnit()).isEqualTo("packets");
			assertThat(packets.getId().getDescription()).isNotBlank();
			assertThat(packets.getId().getTag("device")).isEqualTo("mlx5_0");
			assertThat(packets.getId().getTag("port")).isEqualTo("1");
			FunctionCounter bytes = counter(RdmaFlowMetrics.BYTES, set);
			assertThat(bytes.getId().getBaseUnit()).isEqualTo("bytes");
			assertThat(bytes.getId().getDescription()).isNotBlank();
			assertThat(counter(RdmaFlowMetrics.READ_FAILURES, set).getId().getDescription()).isNotBlank();
		}
		assertThat(this.meterRegistry.getMeters()).hasSize(6);
	}

	@Test
	void countersFollowTheTrafficOfTheirSet() {
		bind(Duration.ZERO, "roce", "https");
		counters(0).add(10, 10_240);
		counters(1).add(2, 3000);

		assertThat(counter(RdmaFlowMetrics.PACKETS, "roce").count()).isEqualTo(10);
		assertThat(counter(RdmaFlowMetrics.BYTES, "roce").count()).isEqualTo(10_240);
		assertThat(counter(RdmaFlowMetrics.PACKETS, "https").count()).isEqualTo(2);
		assertThat(counter(RdmaFlowMetrics.BYTES, "https").count()).isEqualTo(3000);
		counters(0).add(1, 100);
		assertThat(counter(RdmaFlowMetrics.PACKETS, "roce").count()).isEqualTo(11);
	}

	@Test
	void allMetersOfASetShareOneReadWithinTheTtl() {
		bind(Duration.ofMinutes(1), "roce");

		counter(RdmaFlowMetrics.PACKETS, "roce").count();
		counter(RdmaFlowMetrics.BYTES, "roce").count();
		counter(RdmaFlowMetrics.READ_FAILURES, "roce").count();

		assertThat(counters(0).reads()).isEqualTo(1);
	}

	@Test
	void failedReadsAreCountedAndValuesStayAtTheLastGoodRead() {
		bind(Duration.ZERO, "roce");
		counters(0).add(4, 400);
		assertThat(counter(RdmaFlowMetrics.PACKETS, "roce").count()).isEqualTo(4);
		counters(0).add(1, 100);
		counters(0).failReads(new RdmaOperationException("ibv_read_counters", Errno.EIO));

		assertThat(counter(RdmaFlowMetrics.PACKETS, "roce").count()).isEqualTo(4);
		assertThat(counter(RdmaFlowMetrics.READ_FAILURES, "roce").count()).isEqualTo(2);
	}

	@Test
	void closeRemovesTheMetersOfEverySetAndNoOtherMeter() {
		Counter other = Counter.builder("other.meter").register(this.meterRegistry);
		RdmaFlowMetrics metrics = bind(Duration.ZERO, "roce", "https");
		assertThat(this.meterRegistry.getMeters()).extracting(RdmaFlowMetricsTests::nameAndSet)
			.containsExactlyInAnyOrder("rdma.flow.packets roce", "rdma.flow.bytes roce", "rdma.flow.read.failures roce",
					"rdma.flow.packets https", "rdma.flow.bytes https", "rdma.flow.read.failures https",
					"other.meter null");

		metrics.close();

		assertThat(this.meterRegistry.getMeters()).containsExactly(other);
	}

	@Test
	void metersKeepReportingAfterGarbageCollectionWhileTheBinderIsReferenced() {
		RdmaFlowMetrics metrics = new RdmaFlowMetrics(registry(Duration.ZERO, "roce"));
		metrics.bindTo(this.meterRegistry);
		counters(0).add(3, 300);

		System.gc();

		assertThat(counter(RdmaFlowMetrics.PACKETS, "roce").count()).isEqualTo(3);
		Reference.reachabilityFence(metrics);
	}

	@Test
	void scrapeAfterTheDeviceClosedKeepsTheLastValuesWithoutCountingFailedReads() {
		RdmaRegistry registry = registry(Duration.ZERO, "roce");
		bind(registry);
		counters(0).add(6, 600);
		assertThat(counter(RdmaFlowMetrics.PACKETS, "roce").count()).isEqualTo(6);

		registry.devices().get(0).close();

		assertThat(counter(RdmaFlowMetrics.READ_FAILURES, "roce").count()).isZero();
		assertThat(counter(RdmaFlowMetrics.PACKETS, "roce").count()).isEqualTo(6);
		assertThat(counters(0).reads()).isEqualTo(1);
	}

	@Test
	void prometheusNamesFollowTheConventions() {
		PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		RdmaFlowMetrics metrics = new RdmaFlowMetrics(registry(Duration.ZERO, "roce"));
		metrics.bindTo(prometheus);
		counters(0).add(12, 1536);

		String scrape = prometheus.scrape();

		assertThat(scrape).contains("# TYPE rdma_flow_packets_total counter")
			.contains("rdma_flow_packets_total{device=\"mlx5_0\",port=\"1\",set=\"roce\"} 12.0")
			.contains("rdma_flow_bytes_total{device=\"mlx5_0\",port=\"1\",set=\"roce\"} 1536.0")
			.contains("rdma_flow_read_failures_total{device=\"mlx5_0\",port=\"1\",set=\"roce\"} 0.0");
		Reference.reachabilityFence(metrics);
	}

	@Test
	void prometheusScrapeReadsEachSetOnceWithinTheTtl() {
		PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		RdmaFlowMetrics metrics = new RdmaFlowMetrics(registry(Duration.ofMinutes(1), "roce", "https"));
		metrics.bindTo(prometheus);
		counters(0).add(5, 500);

		String scrape = prometheus.scrape();

		assertThat(scrape).contains("rdma_flow_packets_total{device=\"mlx5_0\",port=\"1\",set=\"roce\"} 5.0");
		assertThat(prometheus.getMeters()).hasSize(6);
		assertThat(counters(0).reads()).isEqualTo(1);
		assertThat(counters(1).reads()).isEqualTo(1);
		Reference.reachabilityFence(metrics);
	}

	@Test
	void closeRemovesThePrometheusSeriesAndABinderCanBindAgain() {
		PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		RdmaFlowMetrics metrics = new RdmaFlowMetrics(registry(Duration.ZERO, "roce"));
		metrics.bindTo(prometheus);
		assertThat(prometheus.scrape())
			.contains("rdma_flow_packets_total{device=\"mlx5_0\",port=\"1\",set=\"roce\"} 0.0");
		metrics.close();
		assertThat(prometheus.getMeters()).isEmpty();
		assertThat(prometheus.scrape()).doesNotContain("rdma_flow");
		RdmaFlowMetrics again = new RdmaFlowMetrics(registry(Duration.ZERO, "roce"));
		again.bindTo(prometheus);
		assertThat(prometheus.scrape()).contains("rdma_flow_packets_total");
		again.close();
	}

	private RdmaFlowMetrics bind(Duration ttl, String... sets) {
		RdmaFlowMetrics metrics = new RdmaFlowMetrics(registry(ttl, sets));
		metrics.bindTo(this.meterRegistry);
		this.binder = metrics;
		return metrics;
	}

	private void bind(RdmaRegistry registry) {
		RdmaFlowMetrics metrics = new RdmaFlowMetrics(registry);
		metrics.bindTo(this.meterRegistry);
		this.binder = metrics;
	}

	private RdmaRegistry registry(Duration ttl, String... sets) {
		List<CounterSet> counterSets = new ArrayList<>();
		for (String set : sets) {
			counterSets.add(this.device.counterSet(set, set.equals("roce") ? ROCE : HTTPS, ttl));
		}
		return new RdmaRegistry(List.of(new ManagedDevice(this.device, counterSets, null)));
	}

	private FunctionCounter counter(String name, String set) {
		return this.meterRegistry.get(name).tag("set", set).functionCounter();
	}

	private static String nameAndSet(Meter meter) {
		return meter.getId().getName() + " " + meter.getId().getTag("set");
	}

	private ScriptedCounters counters(int index) {
		return this.device.counters().get(index);
	}

}
