package io.github.rdmacounters.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.rdmacounters.ethtool.RoceStatistics;
import io.github.rdmacounters.ethtool.StatisticNames;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RoceStatistics}, which the endpoint and health use, and the curated meters agree
 * on every name of the recorded mlx5 list (kernel counters.rst) and on every priority.
 *
 * @author rdma-counters
 */
class RoceStatisticsTests {

	@Test
	void curatedStatisticsAreExactlyThoseWithACuratedMeter() {
		List<String> names = new ArrayList<>(NetdevStatisticsMetricsTests.recordedNames());
		for (int p = 0; p < 8; p++) {
			for (String kind : List.of("pause", "pause_duration", "pause_transition", "buf_discard", "cong_discard")) {
				names.add("rx_prio" + p + "_" + kind);
				names.add("tx_prio" + p + "_" + kind);
			}
		}
		assertThat(names).hasSizeGreaterThan(100)
			.allSatisfy((name) -> assertThat(RoceStatistics.isCurated(name)).as(name)
				.isEqualTo(EthtoolMeterNames.curated(name) != null));
	}

	@Test
	void defaultHasThePerPriorityDiscardsOfThePfcPrioritiesAlone() {
		StatisticNames names = StatisticNames.of(NetdevStatisticsMetricsTests.recordedNames());
		assertThat(RoceStatistics.pfcPriorities(names)).containsExactly("3");
		assertThat(RoceStatistics.isDefault("rx_prio3_buf_discard", RoceStatistics.pfcPriorities(names))).isTrue();
		assertThat(RoceStatistics.isDefault("rx_prio0_buf_discard", RoceStatistics.pfcPriorities(names))).isFalse();
		assertThat(RoceStatistics.isDefault("rx_prio0_buf_discard", Set.of("0"))).isTrue();
	}

}
