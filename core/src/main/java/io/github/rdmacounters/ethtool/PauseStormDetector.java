package io.github.rdmacounters.ethtool;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Tells a pause storm from a netdev's driver statistics: mlx5's storm prevention counting
 * ({@code tx_pause_storm_warning_events} or {@code tx_pause_storm_error_events} moving:
 * the device sent pause frames for longer than its timeout, counters.rst), or the port
 * paused by its peer ({@code rx_prioN_pause_duration} of priority N, in microseconds) for
 * more than a share of the time. The verdict is taken from the change over at least one
 * window and stands until the next verdict, so one sample cannot make it flap.
 * Thread-safe.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public final class PauseStormDetector {

	private static final String[] STORM_EVENTS = { "tx_pause_storm_warning_events", "tx_pause_storm_error_events" };

	private final double pauseShare;

	private final Duration window;

	private final Map<String, State> states = new HashMap<>();

	/**
	 * Create a detector.
	 * @param pauseShare the share of time above which a paused priority is a storm,
	 * greater than 0 and at most 1
	 * @param window the shortest time a verdict is taken over, positive
	 * @throws IllegalArgumentException if an argument is out of range
	 */
	public PauseStormDetector(double pauseShare, Duration window) {
		if (!(pauseShare > 0 && pauseShare <= 1)) {
			throw new IllegalArgumentException("pauseShare must be greater than 0 and at most 1, not " + pauseShare);
		}
		if (window.isNegative() || window.isZero()) {
			throw new IllegalArgumentException("window must be positive, not " + window);
		}
		this.pauseShare = pauseShare;
		this.window = window;
	}

	/**
	 * Take a sample of a netdev and return the standing verdict.
	 * @param device the RDMA device, e.g. {@code mlx5_0}
	 * @param statistics the netdev's statistics
	 * @param readAt when they were read
	 * @return the storm, or {@code null} if there is none
	 */
	public synchronized @Nullable PauseStorm update(String device, NetdevStatistics statistics, Instant readAt) {
		String key = device + "/" + statistics.netdev();
		Sample now = Sample.of(statistics, readAt);
		State state = this.states.get(key);
		if (state == null || state.reference.names != now.names) {
			// first sample, or the driver's names changed: start over, keep the verdict
			this.states.put(key, new State(now, (state != null) ? state.verdict : null));
			return (state != null) ? state.verdict : null;
		}
		Duration elapsed = Duration.between(state.reference.at, readAt);
		if (elapsed.compareTo(this.window) < 0) {
			return state.verdict;
		}
		List<String> reasons = reasons(state.reference, now, elapsed);
		PauseStorm verdict = null;
		if (!reasons.isEmpty()) {
			verdict = new PauseStorm(String.join("; ", reasons),
					(state.verdict != null) ? state.verdict.since() : state.reference.at);
		}
		this.states.put(key, new State(now, verdict));
		return verdict;
	}

	private List<String> reasons(Sample before, Sample now, Duration elapsed) {
		List<String> reasons = new ArrayList<>();
		long seconds = Math.max(1, elapsed.toSeconds());
		for (int i = 0; i < STORM_EVENTS.length; i++) {
			long rise = rise(before.storms[i], now.storms[i]);
			if (rise > 0) {
				reasons.add(STORM_EVENTS[i] + " rose by " + rise + " in " + seconds + " s");
			}
		}
		double micros = elapsed.toNanos() / 1000.0;
		for (int p = 0; p < 8; p++) {
			long rise = rise(before.durations[p], now.durations[p]);
			double share = rise / micros;
			if (rise > 0 && share > this.pauseShare) {
				reasons.add(String.format(Locale.ROOT, "priority %d paused %.0f%% of %d s (rx_prio%d_pause_duration)",
						p, share * 100, seconds, p));
			}
		}
		return reasons;
	}

	/** The rise of a counter, 0 if either value is missing or it went back (reset). */
	private static long rise(long before, long now) {
		if (before < 0 || now < 0 || Long.compareUnsigned(now, before) < 0) {
			return 0;
		}
		return now - before;
	}

	private record State(Sample reference, @Nullable PauseStorm verdict) {
	}

	/** The values a verdict needs; -1 for a statistic the driver does not have. */
	private record Sample(StatisticNames names, Instant at, long[] storms, long[] durations) {

		static Sample of(NetdevStatistics statistics, Instant at) {
			long[] storms = new long[STORM_EVENTS.length];
			for (int i = 0; i < storms.length; i++) {
				storms[i] = raw(statistics, STORM_EVENTS[i]);
			}
			long[] durations = new long[8];
			for (int p = 0; p < 8; p++) {
				durations[p] = raw(statistics, "rx_prio" + p + "_pause_duration");
			}
			return new Sample(statistics.names(), at, storms, durations);
		}

		private static long raw(NetdevStatistics statistics, String name) {
			int index = statistics.names().indexOf(name);
			// a value of 2^63 and above reads as missing: no counter gets there
			return (index >= 0) ? statistics.rawValue(index) : -1;
		}

	}

}
