package io.github.rdmacounters.ethtool;

import java.math.BigInteger;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The RoCE-relevant driver statistics of the netdev of an RDMA port
 * ({@link RoceStatistics#isDefault}), with the pause storm verdict.
 *
 * @param netdev the interface, e.g. {@code ens1f0np0}
 * @param statistics the values by statistic name, in the driver's order; unsigned, a
 * value of 2<sup>63</sup> and above as a {@link BigInteger}; empty if the read failed
 * @param error why the netdev could not be read, or {@code null}
 * @param pauseStorm the pause storm, or {@code null} if there is none
 * @author rdma-counters
 * @since 0.1.0
 */
public record NetdevPortStatistics(String netdev, Map<String, Number> statistics, @Nullable String error,
		@Nullable PauseStorm pauseStorm) {

	public NetdevPortStatistics {
		statistics = Collections.unmodifiableMap(new LinkedHashMap<>(statistics));
	}

	/**
	 * Return the RoCE-relevant statistics of a netdev.
	 * @param statistics the netdev's statistics
	 * @param pauseStorm the pause storm verdict
	 * @return the statistics
	 */
	static NetdevPortStatistics of(NetdevStatistics statistics, @Nullable PauseStorm pauseStorm) {
		Map<String, Number> values = new LinkedHashMap<>();
		var pfc = RoceStatistics.pfcPriorities(statistics.names());
		for (int i = 0; i < statistics.size(); i++) {
			String name = statistics.names().asList().get(i);
			if (RoceStatistics.isDefault(name, pfc)) {
				long value = statistics.rawValue(i);
				values.putIfAbsent(name, (value >= 0) ? value : new BigInteger(Long.toUnsignedString(value)));
			}
		}
		return new NetdevPortStatistics(statistics.netdev(), values, null, pauseStorm);
	}

}
