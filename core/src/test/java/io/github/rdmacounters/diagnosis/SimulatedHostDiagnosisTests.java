package io.github.rdmacounters.diagnosis;

import java.nio.file.Path;

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

}
