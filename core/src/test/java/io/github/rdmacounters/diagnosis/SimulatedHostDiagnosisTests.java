package io.github.rdmacounters.diagnosis;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The host diagnosis on the simulated backend and its sysfs tree.
 *
 * @author rdma-counters
 */
class SimulatedHostDiagnosisTests extends AbstractHostDiagnosisTests {

	@Override
	ScriptedHost host(Path temp) {
		return new SimulatedHost(temp);
	}

	@Test
	void ethtoolStatisticsOfTheSimulatedNetdevAreReachable() {
		this.host.mlx5Roce("mlx5_1", "ens1f0np0");
		DiagnosisReport report = this.host.diagnosis().build().run();
		assertThat(report.device("mlx5_1").ethtool()).singleElement().satisfies((ethtool) -> {
			assertThat(ethtool.netdev()).isEqualTo("ens1f0np0");
			assertThat(ethtool.reachable()).isTrue();
			assertThat(ethtool.statistics()).isPositive();
		});
		assertThat(report.verbs().backend()).isEqualTo("simulated");
		assertThat(report.findings()).noneMatch((finding) -> finding.what().contains("/dev/infiniband"));
	}

	@Test
	void anEthtoolReadThatDoesNotReturnIsReportedWithinTheTimeoutAndTheOtherNetdevsAreNotRead() {
		this.host.mlx5Roce("mlx5_1", "ens1f0np0");
		this.host.mlx5Roce("mlx5_2", "ens2f0np0");
		CountDownLatch answer = new CountDownLatch(1);
		try {
			long started = System.nanoTime();
			DiagnosisReport report = this.host.diagnosis()
				.fileTimeout(Duration.ofMillis(300))
				.ethtool(() -> (netdev) -> {
					// as ETHTOOL_GSTATS while mlx5's firmware does not answer a PPCNT
					// query
					try {
						answer.await();
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
					throw new IllegalStateException("not reached in this test");
				})
				.build()
				.run();
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
			assertThat(report.device("mlx5_1").ethtool()).singleElement()
				.satisfies((ethtool) -> assertThat(ethtool.error())
					.isEqualTo("no answer to ioctl(SIOCETHTOOL) on ens1f0np0 within 300 ms: the driver or its "
							+ "firmware does not answer"));
			assertThat(report.device("mlx5_2").ethtool()).singleElement()
				.satisfies((ethtool) -> assertThat(ethtool.error())
					.isEqualTo("not read: the ethtool read of ens1f0np0 has not returned"));
		}
		finally {
			answer.countDown();
		}
	}

}
