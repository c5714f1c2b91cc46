package io.github.rdmacounters.ethtool;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link PauseStormDetector}: verdicts over a window of time, from the storm
 * prevention counters and from the pause duration's share of the time.
 *
 * @author rdma-counters
 */
class PauseStormDetectorTests {

	private static final StatisticNames NAMES = StatisticNames.of(List.of("rx_prio3_pause", "rx_prio3_pause_duration",
			"tx_pause_storm_warning_events", "tx_pause_storm_error_events"));

	private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

	private final PauseStormDetector detector = new PauseStormDetector(0.2, Duration.ofSeconds(60));

	@Test
	void pauseShareAboveTheThresholdOverAWindowIsAStorm() {
		assertThat(sample(0, 0, 0, 0)).isNull();
		// half a minute of pause in ten seconds: not judged before a window has passed
		assertThat(sample(10, 30_000_000, 0, 0)).isNull();
		PauseStorm storm = sample(60, 30_000_000, 0, 0);
		assertThat(storm).isNotNull();
		assertThat(storm.reason()).isEqualTo("priority 3 paused 50% of 60 s (rx_prio3_pause_duration)");
		assertThat(storm.since()).isEqualTo(T0);
	}

	@Test
	void pauseShareBelowTheThresholdIsNoStorm() {
		sample(0, 0, 0, 0);
		assertThat(sample(60, 6_000_000, 0, 0)).as("10% of the time").isNull();
	}

	@Test
	void verdictStandsForAWindowSoOneQuietSampleDoesNotClearIt() {
		sample(0, 0, 0, 0);
		PauseStorm storm = sample(60, 30_000_000, 0, 0);
		assertThat(sample(61, 30_000_000, 0, 0)).isEqualTo(storm);
		assertThat(sample(100, 30_000_000, 0, 0)).isEqualTo(storm);
		// still pausing in the next window: the storm keeps its start
		PauseStorm goingOn = sample(120, 60_000_000, 0, 0);
		assertThat(goingOn).isNotNull();
		assertThat(goingOn.since()).isEqualTo(T0);
		assertThat(sample(180, 60_000_000, 0, 0)).as("a quiet window ends it").isNull();
	}

	@Test
	void stormPreventionEventsAreAStormWhateverTheShare() {
		sample(0, 0, 2, 0);
		PauseStorm storm = sample(60, 0, 2, 1);
		assertThat(storm).isNotNull();
		assertThat(storm.reason()).isEqualTo("tx_pause_storm_error_events rose by 1 in 60 s");
		sample(120, 0, 2, 1);
		assertThat(sample(180, 0, 5, 1)).extracting(PauseStorm::reason)
			.isEqualTo("tx_pause_storm_warning_events rose by 3 in 60 s");
	}

	@Test
	void countersThatWentBackAreNoStorm() {
		sample(0, 90_000_000, 4, 4);
		assertThat(sample(60, 0, 0, 0)).isNull();
	}

	@Test
	void netdevsAreJudgedApart() {
		sample(0, 0, 0, 0);
		this.detector.update("mlx5_1", new NetdevStatistics("ens1f0np0", NAMES, new long[4]), T0);
		assertThat(sample(60, 30_000_000, 0, 0)).isNotNull();
		assertThat(this.detector.update("mlx5_1", new NetdevStatistics("ens1f0np0", NAMES, new long[4]),
				T0.plusSeconds(60)))
			.isNull();
	}

	@Test
	void outOfRangeSettingsAreRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> new PauseStormDetector(0, Duration.ofSeconds(1)))
			.withMessageContaining("pauseShare");
		assertThatIllegalArgumentException().isThrownBy(() -> new PauseStormDetector(1.5, Duration.ofSeconds(1)))
			.withMessageContaining("1.5");
		assertThatIllegalArgumentException().isThrownBy(() -> new PauseStormDetector(0.2, Duration.ZERO))
			.withMessageContaining("window");
	}

	private PauseStorm sample(long seconds, long pauseMicros, long warnings, long errors) {
		NetdevStatistics statistics = new NetdevStatistics("ens1f0np0", NAMES,
				new long[] { 0, pauseMicros, warnings, errors });
		return this.detector.update("mlx5_0", statistics, T0.plusSeconds(seconds));
	}

}
