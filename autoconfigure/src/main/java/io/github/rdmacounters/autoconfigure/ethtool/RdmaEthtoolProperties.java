package io.github.rdmacounters.autoconfigure.ethtool;

import java.time.Duration;
import java.util.List;

import org.springframework.boot.context.properties.bind.DefaultValue;

import io.github.rdmacounters.autoconfigure.RdmaProperties;

/**
 * The driver statistics ({@code ethtool -S}) of the netdevs of the RDMA devices whose
 * port counters are read ({@code rdma.ethtool}).
 *
 * @param enabled Whether to read the driver statistics of the netdevs of the RDMA devices
 * whose port counters are read, for meters, the rdma endpoint and health.
 * @param include Driver statistics that get a meter beyond the curated default, as
 * ethtool -S names them or globs such as rx_prio*_bytes; * for all.
 * @param exclude Driver statistics that get no meter, default or not, as names or globs;
 * applied after include.
 * @param pauseStorm When a port's health reports a pause storm.
 * @since 0.1.0
 * @author rdma-counters
 */
public record RdmaEthtoolProperties(@DefaultValue("true") boolean enabled, @DefaultValue List<String> include,
		@DefaultValue List<String> exclude, @DefaultValue PauseStorm pauseStorm) {

	/** The prefix of the properties. */
	public static final String PREFIX = RdmaProperties.PREFIX + ".ethtool";

	/**
	 * When a port's health reports a pause storm.
	 *
	 * @param pauseShare Share of time, above 0 and at most 1, that a priority may be
	 * paused by the peer (rx_prio3_pause_duration for priority 3) before the port reports
	 * a pause storm.
	 * @param window Shortest time, positive and at most 1h, a pause storm verdict is
	 * taken over; it stands until the next.
	 */
	public record PauseStorm(@DefaultValue("0.2") double pauseShare, @DefaultValue("1m") Duration window) {

	}

}
