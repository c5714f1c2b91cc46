package io.github.rdmacounters.autoconfigure.ethtool;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.rdmacounters.actuate.endpoint.RdmaDescriptor;
import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint;
import io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration;
import io.github.rdmacounters.autoconfigure.RdmaEndpointAutoConfiguration;
import io.github.rdmacounters.autoconfigure.health.RdmaHealthContributorAutoConfiguration;
import io.github.rdmacounters.core.ReadCache;
import io.github.rdmacounters.ethtool.HostNetdevStatistics;
import io.github.rdmacounters.ethtool.NetdevPortStatistics;
import io.github.rdmacounters.ethtool.NetdevStatistics;
import io.github.rdmacounters.ethtool.StatisticNames;
import io.github.rdmacounters.ethtool.StatisticsReader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests of the starter while the driver statistics read of the netdevs blocks, as
 * {@code ioctl(SIOCETHTOOL, ETHTOOL_GSTATS)} does while mlx5's firmware does not answer a
 * PPCNT query: the endpoint answers within the deadline with the netdev failing as
 * stalled and without values, the stall is counted, threads stay bounded over 1,000
 * requests, and the values come back when the read returns.
 *
 * @author rdma-counters
 */
@Timeout(60)
class StalledEthtoolReadTests {

	private static final Duration DEADLINE = Duration.ofMillis(200);

	private static final Duration MARGIN = Duration.ofMillis(800);

	private final CountDownLatch answer = new CountDownLatch(1);

	private final AtomicBoolean blocking = new AtomicBoolean();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class, RdmaEthtoolAutoConfiguration.class,
				RdmaEndpointAutoConfiguration.class, RdmaHealthContributorAutoConfiguration.class))
		.withBean(SimpleMeterRegistry.class)
		.withBean("rdmaNetdevStatisticsReader", StatisticsReader.class, () -> this::read)
		.withPropertyValues("rdma.backend=simulated", "rdma.read-cache-ttl=100ms",
				"rdma.read-deadline=" + DEADLINE.toMillis() + "ms", "management.endpoints.web.exposure.include=rdma",
				"rdma.simulated.devices.sim_mlx5_0.ports=1", "rdma.simulated.devices.sim_mlx5_0.netdevs=ens1f0np0");

	@AfterEach
	void release() {
		this.answer.countDown();
	}

	private NetdevStatistics read(String netdev) {
		ReadCache.reading("ioctl(SIOCETHTOOL, ETHTOOL_GSTATS) on " + netdev);
		if (this.blocking.get()) {
			try {
				this.answer.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		return new NetdevStatistics(netdev, StatisticNames.of(List.of("rx_discards_phy")), new long[] { 4 });
	}

	@Test
	void aBlockedStatisticsReadLeavesTheEndpointWithinTheDeadlineAndTheNetdevStalled() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			RdmaEndpoint endpoint = context.getBean(RdmaEndpoint.class);
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(
						() -> assertThat(netdev(endpoint.rdma()).statistics()).containsEntry("rx_discards_phy", 4L));
			// a first read in a cold JVM on a loaded machine may itself miss the deadline
			long stalls = endpoint.rdma().readsStalled().get("ethtool");
			this.blocking.set(true);
			// the next caller reads again, into the blocked read
			context.getBean(HostNetdevStatistics.class).reads().forEach(ReadCache::invalidate);
			long started = System.nanoTime();
			RdmaDescriptor rdma = endpoint.rdma();
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(DEADLINE.plus(MARGIN));
			assertThat(netdev(rdma).statistics()).isEmpty();
			assertThat(netdev(rdma).error())
				.startsWith("stalled: ioctl(SIOCETHTOOL, ETHTOOL_GSTATS) on ens1f0np0: no answer after");
			assertThat(rdma.readsStalled().get("ethtool")).isEqualTo(stalls + 1);
			assertThat(rdma.stalled().get("ethtool")).startsWith("ioctl(SIOCETHTOOL, ETHTOOL_GSTATS) on ens1f0np0");
			int threads = Thread.activeCount();
			for (int i = 0; i < 1000; i++) {
				endpoint.rdma();
			}
			assertThat(Thread.activeCount()).isLessThanOrEqualTo(threads + 1);
			assertThat(endpoint.rdma().readsStalled().get("ethtool")).as("one stall, however many callers")
				.isEqualTo(stalls + 1);
			this.blocking.set(false);
			this.answer.countDown();
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(
						() -> assertThat(netdev(endpoint.rdma()).statistics()).containsEntry("rx_discards_phy", 4L));
			assertThat(endpoint.rdma().stalled()).doesNotContainKey("ethtool");
		});
	}

	private static NetdevPortStatistics netdev(RdmaDescriptor rdma) {
		return rdma.devices().get("sim_mlx5_0").ports().get(1).ethtool().get("ens1f0np0");
	}

}
