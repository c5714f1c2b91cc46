package io.github.rdmacounters.ethtool;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The RoCE-relevant driver statistics of mlx5 (kernel
 * {@code Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst}):
 * pause and PFC per priority, pause storms, discards and buffers, PHY errors, and the
 * vport's RDMA traffic. The curated default of the meters and of the endpoint.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public final class RoceStatistics {

	/** The per-priority group: direction, priority, kind. */
	public static final Pattern PER_PRIORITY = Pattern
		.compile("(rx|tx)_prio([0-7])_(pause|pause_duration|pause_transition|buf_discard|cong_discard)");

	private static final Set<String> NAMED = Set.of("tx_pause_storm_warning_events", "tx_pause_storm_error_events",
			"rx_discards_phy", "rx_out_of_buffer", "link_down_events_phy", "rx_pcs_symbol_err_phy",
			"rx_corrected_bits_phy", "rx_vport_rdma_unicast_bytes", "tx_vport_rdma_unicast_bytes",
			"rx_vport_rdma_unicast_packets", "tx_vport_rdma_unicast_packets");

	private RoceStatistics() {
	}

	/**
	 * Return whether a statistic is in the curated groups: every per-priority statistic
	 * received, of those transmitted the pause frames alone.
	 * @param name the statistic, e.g. {@code rx_prio3_pause}
	 * @return {@code true} if it is
	 */
	public static boolean isCurated(String name) {
		Matcher perPriority = PER_PRIORITY.matcher(name);
		if (perPriority.matches()) {
			return "rx".equals(perPriority.group(1)) || "pause".equals(perPriority.group(3));
		}
		return NAMED.contains(name);
	}

	/**
	 * Return whether a statistic is in the default: every curated statistic but the
	 * per-priority discards of priorities without PFC. mlx5 shows the pause counters of a
	 * priority only while PFC is on for it (counters.rst), so those are the lossless
	 * priorities, whose drops are faults; {@code rx_discards_phy} counts the drops of
	 * every priority.
	 * @param name the statistic
	 * @param pfcPriorities the priorities with pause counters, see
	 * {@link #pfcPriorities(StatisticNames)}
	 * @return {@code true} if it is in the default
	 */
	public static boolean isDefault(String name, Set<String> pfcPriorities) {
		Matcher perPriority = PER_PRIORITY.matcher(name);
		if (perPriority.matches() && "rx".equals(perPriority.group(1)) && perPriority.group(3).endsWith("discard")) {
			return pfcPriorities.contains(perPriority.group(2));
		}
		return isCurated(name);
	}

	/**
	 * Return the priorities that have a received pause counter ({@code rx_prio3_pause}
	 * for priority 3).
	 * @param names the statistic names of a netdev
	 * @return the priorities, e.g. {@code [3]}
	 */
	public static Set<String> pfcPriorities(StatisticNames names) {
		Set<String> priorities = new TreeSet<>();
		for (int p = 0; p < 8; p++) {
			if (names.indexOf("rx_prio" + p + "_pause") >= 0) {
				priorities.add(Integer.toString(p));
			}
		}
		return priorities;
	}

}
