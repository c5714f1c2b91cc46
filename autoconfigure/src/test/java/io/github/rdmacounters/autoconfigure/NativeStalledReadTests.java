package io.github.rdmacounters.autoconfigure;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Duration;
import java.util.function.Supplier;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
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

import io.github.rdmacounters.autoconfigure.health.RdmaHealthContributorAutoConfiguration;
import io.github.rdmacounters.autoconfigure.metrics.RdmaMetricsAutoConfiguration;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.sysfs.SysfsFixtures;
import io.github.rdmacounters.testsupport.FakeVerbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests of the starter on the native backend while the firmware does not answer: the fake
 * libibverbs holds {@code ibv_query_port} or {@code ibv_read_counters} as mlx5 does while
 * its firmware command waits ({@link FakeVerbs#hold}). Startup, the scrape, health and
 * shutdown answer within the deadline; nothing native is freed under the held call.
 * Without the deadline the held call would hold each test for the fake's command timeout,
 * so each has a time limit.
 *
 * @author rdma-counters
 */
@Timeout(60)
class NativeStalledReadTests {

	private static final Duration DEADLINE = Duration.ofMillis(200);

	/** A thread hand-off and the rendering of the answer, not another read. */
	private static final Duration MARGIN = Duration.ofMillis(800);

	/** The fake's command timeout: a held call fails with ETIMEDOUT after it. */
	private static final Duration FIRMWARE_TIMEOUT = Duration.ofSeconds(60);

	private final FakeVerbs fake = FakeVerbs.get();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, PrometheusMetricsExportAutoConfiguration.class,
				HealthContributorAutoConfiguration.class, HealthContributorRegistryAutoConfiguration.class,
				HealthEndpointAutoConfiguration.class, RdmaAutoConfiguration.class, RdmaMetricsAutoConfiguration.class,
				RdmaHealthContributorAutoConfiguration.class, RdmaEndpointAutoConfiguration.class))
		.withPropertyValues("management.endpoint.health.show-details=always", "rdma.read-cache-ttl=100ms",
				"rdma.read-deadline=" + DEADLINE.toMillis() + "ms", "rdma.native.library=" + this.fake.libraryPath(),
				"rdma.port-counters.sysfs-root=" + SysfsFixtures.root("irdma-iwarp"),
				"rdma.counter-sets.all.counters.packets=0");

	@BeforeEach
	void resetFake() {
		this.fake.reset();
		this.fake.device("mlx5_0").add();
	}

	@AfterEach
	void releaseFake() {
		this.fake.release();
		this.fake.reset();
	}

	@Test
	void startupWithAHeldPortQueryEndsWithinTheDeadlineAndHealthNamesTheCall() {
		this.fake.hold("ibv_query_port", FIRMWARE_TIMEOUT);
		long started = System.nanoTime();
		this.runner.withPropertyValues("rdma.fail-on-unavailable=false").run((context) -> {
			assertThat(context).hasNotFailed();
			ManagedDevice device = context.getBean(RdmaRegistry.class).device("mlx5_0");
			assertThat(device.isAvailable()).isFalse();
			assertThat(this.fake.heldNow()).as("the query still waits for the firmware").isOne();
			HealthEndpoint health = context.getBean(HealthEndpoint.class);
			IndicatedHealthDescriptor rdma = (IndicatedHealthDescriptor) timed(
					() -> health.healthForPath("rdma", "mlx5_0"));
			assertThat(rdma.getStatus()).isEqualTo(Status.DOWN);
			assertThat(rdma.getDetails()).extractingByKey("reason")
				.asString()
				.contains("ibv_query_port of mlx5_0 port 1: no answer after");
		});
		assertThat(Duration.ofNanos(System.nanoTime() - started)).as("start, check and shutdown")
			.isLessThan(Duration.ofSeconds(20));
		this.fake.release();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.fake.liveObjects() == 0);
		assertThat(this.fake.misuseLog()).isEmpty();
	}

	@Test
	void startupWithAHeldPortQueryAndFailOnUnavailableFailsWithinTheDeadlineNamingTheCall() {
		this.fake.hold("ibv_query_port", FIRMWARE_TIMEOUT);
		long started = System.nanoTime();
		this.runner.run((context) -> assertThat(context).hasFailed()
			.getFailure()
			.rootCause()
			.hasMessageContaining("ibv_query_port of mlx5_0 port 1: no answer after"));
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
		this.fake.release();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.fake.liveObjects() == 0);
		assertThat(this.fake.misuseLog()).isEmpty();
	}

	@Test
	void aHeldCounterReadLeavesScrapesAndHealthWithinTheDeadlineWithBoundedThreadsAndShutdownDoesNotWait()
			throws Exception {
		long[] shutdown = new long[1];
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			PrometheusMeterRegistry prometheus = context.getBean(PrometheusMeterRegistry.class);
			HealthEndpoint health = context.getBean(HealthEndpoint.class);
			this.fake.deliver("mlx5_0", 1,
					Packet.udp(InetAddress.getByName("10.0.0.1"), 40000, InetAddress.getByName("10.0.0.2"), 443, 100));
			assertThat(timed(() -> prometheus.scrape()))
				.containsPattern("rdma_flow_packets_total\\{[^}]*set=\"all\"[^}]*} 1.0");
			this.fake.hold("ibv_read_counters", FIRMWARE_TIMEOUT);
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(timed(() -> prometheus.scrape()))
					.containsPattern("rdma_flow_packets_total\\{[^}]*} NaN"));
			timed(health::health);
			int threads = ManagementFactory.getThreadMXBean().getThreadCount();
			for (int i = 0; i < 1000; i++) {
				timed(() -> prometheus.scrape());
				timed(health::health);
			}
			assertThat(ManagementFactory.getThreadMXBean().getThreadCount()).isLessThanOrEqualTo(threads + 1);
			assertThat(this.fake.heldCalls()).as("one read in flight, however many callers").isOne();
			shutdown[0] = System.nanoTime();
			context.close();
			shutdown[0] = System.nanoTime() - shutdown[0];
			assertThat(this.fake.heldNow()).isOne();
			assertThat(this.fake.liveObjects()).as("nothing freed under the held read").isPositive();
		});
		assertThat(Duration.ofNanos(shutdown[0])).as("shutdown").isLessThan(DEADLINE.plus(MARGIN));
		this.fake.release();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.fake.liveObjects() == 0);
		assertThat(this.fake.misuseLog()).isEmpty();
	}

	private static <T> T timed(Supplier<T> call) {
		long started = System.nanoTime();
		T value = call.get();
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(DEADLINE.plus(MARGIN));
		return value;
	}

}
