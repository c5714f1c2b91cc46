package io.github.rdmacounters.simulated;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.rdmacounters.ethtool.StatisticNames;

/**
 * The driver statistics a simulated port's netdev shows: a subset of mlx5's, as the
 * kernel's
 * {@code Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst}
 * names them, with PFC on priority {@value #PFC_PRIORITY} alone (mlx5 shows the pause
 * counters of a priority only while PFC is on for it). What moves: RoCE traffic the RDMA
 * statistics of the vport and of priority {@value #PFC_PRIORITY}, other traffic the
 * netdev's and priority 0's, all of it the physical port's; a congested port the pause
 * counters. The rest stays 0.
 *
 * @author rdma-counters
 */
final class SimulatedNetdevStatistics {

	/** The priority RoCE traffic is sent with and PFC is on for. */
	static final int PFC_PRIORITY = 3;

	/**
	 * The time one pause frame of the full 65535 quanta stops a 100 Gb/s port: 65535 ×
	 * 512 bit times, in microseconds.
	 */
	static final long PAUSE_MICROS = 335;

	static final StatisticNames NAMES = StatisticNames.of(names());

	private SimulatedNetdevStatistics() {
	}

	private static List<String> names() {
		List<String> names = new ArrayList<>(List.of("rx_packets", "rx_bytes", "tx_packets", "tx_bytes",
				"rx_vport_unicast_packets", "rx_vport_unicast_bytes", "tx_vport_unicast_packets",
				"tx_vport_unicast_bytes", "rx_vport_multicast_packets", "rx_vport_multicast_bytes",
				"tx_vport_multicast_packets", "tx_vport_multicast_bytes", "rx_vport_rdma_unicast_packets",
				"rx_vport_rdma_unicast_bytes", "tx_vport_rdma_unicast_packets", "tx_vport_rdma_unicast_bytes",
				"rx_vport_rdma_multicast_packets", "rx_vport_rdma_multicast_bytes", "tx_vport_rdma_multicast_packets",
				"tx_vport_rdma_multicast_bytes", "rx_packets_phy", "tx_packets_phy", "rx_bytes_phy", "tx_bytes_phy",
				"rx_multicast_phy", "tx_multicast_phy", "rx_crc_errors_phy", "rx_symbol_err_phy", "rx_pause_ctrl_phy",
				"tx_pause_ctrl_phy", "rx_discards_phy", "tx_discards_phy", "link_down_events_phy", "rx_out_of_buffer",
				"rx_buffer_passed_thres_phy", "tx_pause_storm_warning_events", "tx_pause_storm_error_events",
				"rx_bits_phy", "rx_pcs_symbol_err_phy", "rx_corrected_bits_phy"));
		for (int p = 0; p < 8; p++) {
			names.addAll(List.of("rx_prio" + p + "_bytes", "rx_prio" + p + "_packets", "tx_prio" + p + "_bytes",
					"tx_prio" + p + "_packets"));
			if (p == PFC_PRIORITY) {
				names.addAll(List.of("rx_prio" + p + "_pause", "rx_prio" + p + "_pause_duration",
						"rx_prio" + p + "_pause_transition", "tx_prio" + p + "_pause",
						"tx_prio" + p + "_pause_duration"));
			}
		}
		for (int p = 0; p < 8; p++) {
			names.addAll(List.of("rx_prio" + p + "_buf_discard", "rx_prio" + p + "_cong_discard",
					"rx_prio" + p + "_marked"));
		}
		return names;
	}

	/**
	 * Return the values of the names, in their order.
	 * @param moved the statistics that moved, by name; every other one is 0
	 * @return the values
	 */
	static long[] values(Map<String, Long> moved) {
		List<String> names = NAMES.asList();
		long[] values = new long[names.size()];
		for (int i = 0; i < values.length; i++) {
			values[i] = moved.getOrDefault(names.get(i), 0L);
		}
		return values;
	}

}
