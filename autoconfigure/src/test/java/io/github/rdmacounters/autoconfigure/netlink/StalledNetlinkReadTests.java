package io.github.rdmacounters.autoconfigure.netlink;

import java.time.Duration;
import java.util.function.Supplier;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.IndicatedHealthDescriptor;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.rdmacounters.actuate.endpoint.RdmaDescriptor;
import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint;
import io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration;
import io.github.rdmacounters.autoconfigure.RdmaEndpointAutoConfiguration;
import io.github.rdmacounters.autoconfigure.health.RdmaHealthContributorAutoConfiguration;
import io.github.rdmacounters.autoconfigure.metrics.RdmaMetricsAutoConfiguration;
import io.github.rdmacounters.netlink.FakeNldev;
import io.github.rdmacounters.netlink.NldevClient;
import io.github.rdmacounters.netlink.OptionalCounters;
import io.github.rdmacounters.netlink.ProcessQueuePairs;
import io.github.rdmacounters.netlink.QueuePairCounters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests of the starter while the fake RDMA netlink kernel holds every request, as the
 * kernel does while the device does not answer ({@code nldev_stat_get_doit} waiting on a
 * firmware command): health, the endpoint and the scrape answer within the deadline, the
 * optional counters and the queue pairs are unavailable and name the request, reader
 * threads stay bounded over 1,000 requests, the values come back when the kernel answers,
 * and the context closes in time while a request is held.
 *
 * @author rdma-counters
 */
@Timeout(60)
class StalledNetlinkReadTests {

	private static final Duration DEADLINE = Duration.ofMillis(200);

	/** A thread hand-off and the rendering of the answer, not another read. */
	private static final Duration MARGIN = Duration.ofMillis(800);

	private static final long PID = ProcessHandle.current().pid();

	private final FakeNldev fake = FakeNldev.get();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
						PrometheusMetricsExportAutoConfiguration.class, HealthContributorAutoConfiguration.class,
						HealthContributorRegistryAutoConfiguration.class, HealthEndpointAutoConfiguration.class,
						RdmaAutoConfiguration.class, RdmaOptionalCountersAutoConfiguration.class,
						RdmaQueuePairsAutoConfiguration.class, RdmaMetricsAutoConfiguration.class,
						RdmaHealthContributorAutoConfiguration.class, RdmaEndpointAutoConfiguration.class))
		.withBean(NldevClient.class, this.fake::client)
		.withPropertyValues("rdma.backend=simulated", "rdma.queue-pairs.enabled=true",
				"management.endpoints.web.exposure.include=rdma,health",
				"management.endpoint.health.show-details=always", "rdma.read-cache-ttl=100ms",
				"rdma.read-deadline=" + DEADLINE.toMillis() + "ms");

	private int mlx;

	@BeforeEach
	void setUp() {
		this.fake.reset();
		this.fake.capNetAdmin(true);
		this.mlx = this.fake.addDevice("mlx5_0", 1, 1, "28.39.1002", "roce");
		this.fake.addCounter(this.mlx, 1, "out_of_sequence", 0);
		this.fake.addOptionalCounter(this.mlx, 1, "cc_rx_ce_pkts", true, 17);
		this.fake.addQueuePairs(this.mlx, 1, 2, 700, 2, 3, PID);
	}

	@AfterEach
	void tearDown() {
		this.fake.release();
		this.fake.capNetAdmin(null);
	}

	@Test
	void aKernelThatHoldsEveryRequestLeavesHealthTheEndpointAndTheScrapeWithinTheDeadlineAndShutdownInTime() {
		long[] closing = new long[1];
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			HealthEndpoint health = context.getBean(HealthEndpoint.class);
			PrometheusMeterRegistry prometheus = context.getBean(PrometheusMeterRegistry.class);
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(prometheus.scrape())
					.contains("rdma_cc_ce_packets_received_total{device=\"mlx5_0\",port=\"1\"} 17.0"));
			this.fake.hold("all");
			// the next callers read again, into the held requests
			context.getBean(OptionalCounters.class).reads().invalidate();
			context.getBean(ProcessQueuePairs.class).reads().invalidate();
			context.getBean(QueuePairCounters.class).reads().invalidate();
			// the first callers wait one deadline per source they meet for the first time
			long started = System.nanoTime();
			IndicatedHealthDescriptor queuePairs = (IndicatedHealthDescriptor) health.healthForPath("rdmaQueuePairs");
			long healthMillis = millisSince(started);
			assertThat(Duration.ofMillis(healthMillis)).isLessThan(DEADLINE.plus(MARGIN));
			assertThat(queuePairs.getStatus()).isEqualTo(Status.DOWN);
			assertThat(queuePairs.getDetails()).extractingByKey("stalled")
				.asInstanceOf(InstanceOfAssertFactories.MAP)
				.extractingByKey("in")
				.asString()
				.startsWith("RDMA");
			started = System.nanoTime();
			String scrape = prometheus.scrape();
			long scrapeMillis = millisSince(started);
			assertThat(Duration.ofMillis(scrapeMillis)).isLessThan(DEADLINE.multipliedBy(3).plus(MARGIN));
			assertThat(scrape).contains("rdma_cc_ce_packets_received_total{device=\"mlx5_0\",port=\"1\"} NaN");
			System.out.println("While held: first health check " + healthMillis + " ms, first scrape " + scrapeMillis
					+ " ms (deadline " + DEADLINE.toMillis() + " ms)");
			IndicatedHealthDescriptor optional = (IndicatedHealthDescriptor) timed(
					() -> health.healthForPath("rdmaOptionalCounters"));
			assertThat(optional.getStatus()).isEqualTo(Status.DOWN);
			assertThat(optional.getDetails()).extractingByKey("stalled")
				.asInstanceOf(InstanceOfAssertFactories.MAP)
				.extractingByKey("in")
				.asString()
				.startsWith("RDMA");
			RdmaDescriptor rdma = timed(() -> context.getBean(RdmaEndpoint.class).rdma());
			assertThat(rdma.readsStalled()).containsKeys("optional_counters", "queue_pairs");
			assertThat(rdma.readsStalled().get("optional_counters")).isPositive();
			assertThat(rdma.stalled()).containsKey("optional_counters");
			assertThat(rdma.stalled().get("optional_counters")).startsWith("RDMA").contains("no answer after");
			assertThat(prometheus.scrape()).contains("rdma_read_success{source=\"optional_counters\"} 0.0")
				.containsPattern("rdma_read_stalls_total\\{source=\"optional_counters\"} [1-9]")
				.containsPattern("rdma_read_stalls_total\\{source=\"queue_pairs\"} [1-9]");
			assertThat(context.getBean(OptionalCounters.class).snapshot().unavailable()).startsWith("stalled: RDMA");
			int threads = Thread.activeCount();
			started = System.nanoTime();
			for (int i = 0; i < 1000; i++) {
				health.health();
				prometheus.scrape();
			}
			System.out.println("1,000 health checks and scrapes while held: " + millisSince(started) + " ms, threads "
					+ threads + " -> " + Thread.activeCount() + ", held requests " + this.fake.held());
			assertThat(Thread.activeCount()).isLessThanOrEqualTo(threads + 1);
			// one request per source at most: optional counters, queue pairs, their
			// counters
			assertThat(this.fake.held()).isBetween(1, 3);
			long optionalStalls = context.getBean(OptionalCounters.class).reads().stalls();
			long queuePairStalls = context.getBean(ProcessQueuePairs.class).reads().stalls()
					+ context.getBean(QueuePairCounters.class).reads().stalls();
			assertThat(optionalStalls).isBetween(1L, 2L);
			assertThat(queuePairStalls).isBetween(1L, 4L);
			this.fake.setCounter(this.mlx, 1, "cc_rx_ce_pkts", 18);
			this.fake.release();
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(prometheus.scrape())
					.contains("rdma_cc_ce_packets_received_total{device=\"mlx5_0\",port=\"1\"} 18.0")
					.contains("rdma_read_success{source=\"optional_counters\"} 1.0"));
			assertThat(context.getBean(RdmaEndpoint.class).rdma().stalled()).isEmpty();
			assertThat(health.healthForPath("rdmaOptionalCounters").getStatus()).isEqualTo(Status.UP);
			assertThat(health.healthForPath("rdmaQueuePairs").getStatus()).isEqualTo(Status.UP);
			// and close while a request is held again
			this.fake.hold("all");
			health.health();
			prometheus.scrape();
			closing[0] = System.nanoTime();
		});
		long shutdownMillis = millisSince(closing[0]);
		System.out.println("Context closed while a request was held in " + shutdownMillis + " ms");
		assertThat(Duration.ofMillis(shutdownMillis)).isLessThan(Duration.ofSeconds(2));
	}

	@Test
	void aKernelThatHoldsEveryRequestFromTheStartLeavesStartupWithinTheDeadline() {
		this.fake.hold("all");
		long started = System.nanoTime();
		long[] startup = new long[1];
		this.runner.withPropertyValues("rdma.optional-counters.enable=cc_rx_ce_pkts").run((context) -> {
			startup[0] = millisSince(started);
			assertThat(context).hasNotFailed();
			System.out.println("Started while RDMA netlink held every request in " + startup[0] + " ms");
			assertThat(context.getBean(OptionalCounters.class).snapshot().unavailable()).startsWith("stalled: RDMA");
			this.fake.release();
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(
						() -> assertThat(context.getBean(OptionalCounters.class).snapshot().unavailable()).isNull());
		});
		// a context start takes seconds on a loaded machine; a held request would take 10
		// s
		assertThat(Duration.ofMillis(startup[0])).isLessThan(Duration.ofSeconds(8));
	}

	private static long millisSince(long started) {
		return (System.nanoTime() - started) / 1_000_000;
	}

	private static <T> T timed(Supplier<T> call) {
		long started = System.nanoTime();
		T value = call.get();
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(DEADLINE.multipliedBy(3).plus(MARGIN));
		return value;
	}

}
