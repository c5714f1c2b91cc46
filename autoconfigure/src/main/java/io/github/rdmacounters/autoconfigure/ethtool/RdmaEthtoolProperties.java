package io.github.rdmacounters.autoconfigure.ethtool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.rdmacounters.autoconfigure.RdmaProperties;

/**
 * The driver statistics ({@code ethtool -S}) of the netdevs of the RDMA devices whose
 * port counters are read ({@code rdma.ethtool}).
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public class RdmaEthtoolProperties {

	/** The prefix of the properties. */
	public static final String PREFIX = RdmaProperties.PREFIX + ".ethtool";

	/**
	 * Whether to read the driver statistics of the netdevs of the RDMA devices whose port
	 * counters are read, for meters, the rdma endpoint and health.
	 */
	private boolean enabled = true;

	/**
	 * Driver statistics that get a meter beyond the curated default, as ethtool -S names
	 * them or globs such as rx_prio*_bytes; * for all.
	 */
	private final List<String> include = new ArrayList<>();

	/**
	 * Driver statistics that get no meter, default or not, as names or globs; applied
	 * after include.
	 */
	private final List<String> exclude = new ArrayList<>();

	private final PauseStorm pauseStorm = new PauseStorm();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public List<String> getInclude() {
		return this.include;
	}

	public List<String> getExclude() {
		return this.exclude;
	}

	public PauseStorm getPauseStorm() {
		return this.pauseStorm;
	}

	/**
	 * When a port's health reports a pause storm.
	 */
	public static class PauseStorm {

		/**
		 * Share of time, above 0 and at most 1, that a priority may be paused by the peer
		 * (rx_prio3_pause_duration for priority 3) before the port reports a pause storm.
		 */
		private double pauseShare = 0.2;

		/**
		 * Shortest time a pause storm verdict is taken over; it stands until the next.
		 */
		private Duration window = Duration.ofMinutes(1);

		public double getPauseShare() {
			return this.pauseShare;
		}

		public void setPauseShare(double pauseShare) {
			this.pauseShare = pauseShare;
		}

		public Duration getWindow() {
			return this.window;
		}

		public void setWindow(Duration window) {
			this.window = window;
		}

	}

}
