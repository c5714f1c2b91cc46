package io.github.rdmacounters.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
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

import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint;
import io.github.rdmacounters.autoconfigure.health.RdmaHealthContributorAutoConfiguration;
import io.github.rdmacounters.autoconfigure.metrics.RdmaMetricsAutoConfiguration;
import io.github.rdmacounters.sysfs.HostSysfs;
import io.github.rdmacounters.sysfs.SysfsHostPortCountersSource;
import io.github.rdmacounters.testsupport.StalledFile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests of the starter while a counter file of the host does not answer: the file is a
 * FIFO without a writer, whose read blocks as a {@code counters/} read does while the
 * mlx5 firmware does not answer. Startup, health, the endpoint and the scrape answer
 * within the deadline, the stalled values are NaN and the file is named. Without the
 * deadline every test would hang in the read, so each has a time limit.
 *
 * @author rdma-counters
 */
@Timeout(60)
class StalledReadTests {

	private static final Duration DEADLINE = Duration.ofMillis(200);

	/** A thread hand-off and the rendering of the answer, not another read. */
	private static final Duration MARGIN = Duration.ofMillis(800);

	private static final String STUCK = "mlx5_0/ports/1/counters/port_rcv_data";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, PrometheusMetricsExportAutoConfiguration.class,
				HealthContributorAutoConfiguration.class, HealthContributorRegistryAutoConfiguration.class,
				HealthEndpointAutoConfiguration.class, RdmaAutoConfiguration.class, RdmaMetricsAutoConfiguration.class,
				RdmaHealthContributorAutoConfiguration.class, RdmaEndpointAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=rdma,health",
				"management.endpoint.health.show-details=always", "rdma.read-cache-ttl=100ms",
				"rdma.read-deadline=" + DEADLINE.toMillis() + "ms", "rdma.native.library=/nonexistent/libibverbs.so.1");

	@TempDir
	Path temp;

	private StalledFile stalled;

	@AfterEach
	void release() {
		if (this.stalled != null) {
			this.stalled.close();
		}
	}

	@Test
	void aFileStalledFromTheStartLeavesStartupHealthAndTheScrapeWithinTheDeadline() {
		HostSysfs host = HostSysfs.fourKinds(this.temp);
		this.stalled = StalledFile.replace(host.file("mlx5_0", "ports/1/counters/port_rcv_data"));
		long started = System.nanoTime();
		this.runner.withPropertyValues("rdma.port-counters.sysfs-root=" + host.root()).run((context) -> {
			assertThat(context).hasNotFailed();
			HealthEndpoint health = context.getBean(HealthEndpoint.class);
			PrometheusMeterRegistry prometheus = context.getBean(PrometheusMeterRegistry.class);
			timed(() -> prometheus.scrape());
			assertThat(timed(health::health).getStatus()).isEqualTo(Status.DOWN);
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(context.getBean(RdmaEndpoint.class).rdma().portCountersStalled())
					.startsWith(STUCK + ": no answer after"));
			IndicatedHealthDescriptor stalled = (IndicatedHealthDescriptor) health.healthForPath("rdma",
					"portCounters");
			assertThat(stalled.getStatus()).isEqualTo(Status.DOWN);
			assertThat(stalled.getDetails()).extractingByKey("stalled")
				.asInstanceOf(InstanceOfAssertFactories.MAP)
				.containsEntry("in", STUCK);
			assertThat(timed(() -> prometheus.scrape())).contains("rdma_read_success{source=\"port_counters\"} 0.0")
				.containsPattern("rdma_read_stalls_total\\{source=\"port_counters\"} [1-9]");
			this.stalled.answer("5\n");
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(prometheus.scrape())
					.contains("rdma_port_data_received_bytes_total{device=\"mlx5_0\",port=\"1\"} 20.0")
					.contains("rdma_read_success{source=\"port_counters\"} 1.0"));
			assertThat(health.health().getStatus()).isEqualTo(Status.UP);
		});
		assertThat(Duration.ofNanos(System.nanoTime() - started)).as("start, checks and shutdown")
			.isLessThan(Duration.ofSeconds(30));
	}

	@Test
	void aFileThatStallsWhileRunningIsNaNAndNamedAndThreadsStayBoundedOverAThousandRequests() {
		HostSysfs host = HostSysfs.fourKinds(this.temp);
		this.runner.withPropertyValues("rdma.port-counters.sysfs-root=" + host.root()).run((context) -> {
			HealthEndpoint health = context.getBean(HealthEndpoint.class);
			PrometheusMeterRegistry prometheus = context.getBean(PrometheusMeterRegistry.class);
			// a first read in a cold JVM on a loaded machine may itself take longer
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(prometheus.scrape())
					.containsPattern("rdma_port_data_received_bytes_total\\{device=\"mlx5_0\",port=\"1\"} [0-9]"));
			long stallsBefore = context.getBean(SysfsHostPortCountersSource.class).reads().stalls();
			this.stalled = StalledFile.replace(host.file("mlx5_0", "ports/1/counters/port_rcv_data"));
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(timed(() -> prometheus.scrape()))
					.contains("rdma_port_data_received_bytes_total{device=\"mlx5_0\",port=\"1\"} NaN")
					.contains("rdma_port_data_received_bytes_total{device=\"mlx5_1\",port=\"1\"} NaN"));
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(
						() -> assertThat(context.getBean(RdmaEndpoint.class).rdma().devices().get("mlx5_0").stalled())
							.startsWith(STUCK));
			HealthDescriptor device = health.healthForPath("rdma", "mlx5_0");
			assertThat(device.getStatus()).isEqualTo(Status.DOWN);
			int threads = Thread.activeCount();
			long started = System.nanoTime();
			for (int i = 0; i < 1000; i++) {
				health.health();
				prometheus.scrape();
			}
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("1,000 health checks and scrapes")
				.isLessThan(Duration.ofSeconds(20));
			assertThat(Thread.activeCount()).isLessThanOrEqualTo(threads + 1);
			assertThat(context.getBean(SysfsHostPortCountersSource.class).reads().stalls())
				.as("one stall, however many callers")
				.isEqualTo(stallsBefore + 1);
		});
	}

	private static <T> T timed(Supplier<T> call) {
		long started = System.nanoTime();
		T value = call.get();
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(DEADLINE.plus(MARGIN));
		return value;
	}

}
