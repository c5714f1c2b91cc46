package io.github.rdmacounters.metrics;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.ethtool.RoceStatistics;

/**
 * The meter names of driver statistics: the RoCE-relevant groups of mlx5
 * ({@link RoceStatistics}) with the priority and direction as tags, and a
 * node_exporter-like name for any other statistic.
 *
 * @author rdma-counters
 */
final class EthtoolMeterNames {

	private static final Pattern RX = Pattern.compile("(^|_)rx(_|$)");

	private static final Pattern TX = Pattern.compile("(^|_)tx(_|$)");

	private static final Pattern NOT_ALPHANUMERIC = Pattern.compile("[^a-z0-9]+");

	private EthtoolMeterNames() {
	}

	/**
	 * Return the curated meter of a statistic.
	 * @param name the statistic, e.g. {@code rx_prio3_pause}
	 * @return the meter, or {@code null} if the statistic has no curated meter
	 */
	static @Nullable Curated curated(String name) {
		Matcher perPriority = RoceStatistics.PER_PRIORITY.matcher(name);
		if (perPriority.matches()) {
			if ("tx".equals(perPriority.group(1)) && !"pause".equals(perPriority.group(3))) {
				// tx_prio<p>_pause_duration and the like: not in the curated groups
				return null;
			}
			return perPriority(perPriority.group(1), perPriority.group(2), perPriority.group(3));
		}
		return switch (name) {
			case "tx_pause_storm_warning_events" -> new Curated("rdma.ethtool.pause.storm.warnings", null, Tags.empty(),
					"Times the port sent pause frames for long (tx_pause_storm_warning_events)");
			case "tx_pause_storm_error_events" -> new Curated("rdma.ethtool.pause.storm.errors", null, Tags.empty(),
					"Times the port sent pause frames until the timeout disabled them; drops may follow "
							+ "(tx_pause_storm_error_events)");
			case "rx_discards_phy" -> new Curated("rdma.ethtool.phy.discards", null, direction("rx"),
					"Received packets dropped for lack of buffers on the physical port: the adapter is congested "
							+ "(rx_discards_phy)");
			case "rx_out_of_buffer" -> new Curated("rdma.ethtool.out.of.buffer.drops", null, Tags.empty(),
					"Times a receive queue had no software buffers for incoming traffic (rx_out_of_buffer)");
			case "link_down_events_phy" -> new Curated("rdma.ethtool.link.down.events", null, Tags.empty(),
					"Times the link operative state changed to down (link_down_events_phy)");
			case "rx_pcs_symbol_err_phy" -> new Curated("rdma.ethtool.pcs.symbol.errors", null, Tags.empty(),
					"Symbol errors FEC did not correct: traffic is lost (rx_pcs_symbol_err_phy)");
			case "rx_corrected_bits_phy" -> new Curated("rdma.ethtool.corrected.bit.errors", null, Tags.empty(),
					"Bits corrected by FEC on the port (rx_corrected_bits_phy)");
			case "rx_vport_rdma_unicast_bytes", "tx_vport_rdma_unicast_bytes" ->
				new Curated("rdma.ethtool.vport.rdma.unicast", BaseUnits.BYTES, direction(name.substring(0, 2)),
						"RDMA (RoCE) unicast bytes of this function (" + name + ")");
			case "rx_vport_rdma_unicast_packets", "tx_vport_rdma_unicast_packets" ->
				new Curated("rdma.ethtool.vport.rdma.unicast.packets", null, direction(name.substring(0, 2)),
						"RDMA (RoCE) unicast packets of this function (" + name + ")");
			default -> null;
		};
	}

	private static Curated perPriority(String direction, String priority, String kind) {
		String name = direction + "_prio" + priority + "_" + kind;
		return switch (kind) {
			case "pause" ->
				new Curated("rdma.ethtool.pause.frames", null, direction(direction).and("priority", priority),
						"PFC pause frames of the priority (" + name + "); received: the network cannot absorb the "
								+ "adapter's traffic, transmitted: the adapter cannot absorb the network's");
			// microseconds in the driver, seconds (Prometheus's base unit) in the meter
			case "pause_duration" ->
				new Curated("rdma.ethtool.pause.duration", "seconds", direction(direction).and("priority", priority),
						"Time in seconds the port was paused on the priority (" + name + ")", 1e-6);
			case "pause_transition" ->
				new Curated("rdma.ethtool.pause.transitions", null, direction(direction).and("priority", priority),
						"Transitions from Xoff to Xon on the priority (" + name + ")");
			case "buf_discard" -> new Curated("rdma.ethtool.buffer.discards", null, Tags.of("priority", priority),
					"Packets of the priority discarded for lack of per-host receive buffers (" + name + ")");
			default -> new Curated("rdma.ethtool.congestion.discards", null, Tags.of("priority", priority),
					"Packets of the priority discarded for per-host congestion (" + name + ")");
		};
	}

	private static Tags direction(String prefix) {
		return Tags.of("direction", "rx".equals(prefix) ? "received" : "transmitted");
	}

	/**
	 * Return the meter name of a statistic without a curated meter: {@code rdma.ethtool.}
	 * and the name as node_exporter's ethtool collector sanitises it, lower case, every
	 * run of other characters an underscore, the words {@code rx} and {@code tx} spelt
	 * {@code received} and {@code transmitted}; underscores become dots, so that
	 * Prometheus shows {@code rdma_ethtool_<what node_exporter shows after
	 * node_ethtool_>}.
	 * @param name the statistic, e.g. {@code rx_queue_0_xdp_tx}
	 * @return the meter name, e.g. {@code rdma.ethtool.received.queue.0.xdp.transmitted}
	 */
	static String generic(String name) {
		String sanitized = NOT_ALPHANUMERIC.matcher(name.toLowerCase(Locale.ROOT)).replaceAll("_");
		sanitized = RX.matcher(sanitized).replaceAll("$1received$2");
		sanitized = TX.matcher(sanitized).replaceAll("$1transmitted$2");
		return "rdma.ethtool." + sanitized.replace('_', '.');
	}

	/**
	 * A curated meter.
	 *
	 * @param meterName the Micrometer name
	 * @param baseUnit the base unit, or {@code null} for a count
	 * @param tags the priority and direction tags
	 * @param description the description
	 * @param scale the factor from the driver's value to the meter's
	 */
	record Curated(String meterName, @Nullable String baseUnit, Tags tags, String description, double scale) {

		Curated(String meterName, @Nullable String baseUnit, Tags tags, String description) {
			this(meterName, baseUnit, tags, description, 1);
		}

	}

}
