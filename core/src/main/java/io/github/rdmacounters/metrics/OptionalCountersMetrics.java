package io.github.rdmacounters.metrics;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;

import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.netlink.OptionalCounter;
import io.github.rdmacounters.netlink.OptionalCounters;
import io.github.rdmacounters.netlink.OptionalCountersSnapshot;
import io.github.rdmacounters.netlink.PortOptionalCounters;

/**
 * {@link MeterBinder} for the optional counters of every port ({@link OptionalCounters},
 * RDMA netlink, Linux 5.16 and later), next to the port counters with the same
 * {@code device} and {@code port} tags. mlx5's congestion and RDMA traffic counters have
 * names in the scheme of {@link PortCountersMetrics} ({@link #KNOWN_COUNTERS}:
 * {@code cc_rx_cnp_pkts} is {@code rdma.cc.cnp.packets.received},
 * {@code rdma_cc_cnp_packets_received_total} in Prometheus); any other optional counter
 * is named as an unknown port counter is
 * ({@link PortCountersMetrics#generatedName(String, String)}). Every supported optional
 * counter has a {@link FunctionCounter}, without a value (NaN) while it is disabled, and
 * a gauge {@code rdma.optional.enabled} (1 enabled, 0 not) tagged with its kernel name as
 * {@code counter}. Reading {@code rdma.optional.ports} registers the meters of a port
 * seen for the first time (hotplug). One memoised snapshot serves a scrape. Removes its
 * meters on {@link #close()}.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public class OptionalCountersMetrics extends SnapshotMetrics<OptionalCounters, OptionalCountersSnapshot> {

	/** Name of the gauge that is 1 while an optional counter is enabled, else 0. */
	public static final String ENABLED = "rdma.optional.enabled";

	/** Name of the gauge of ports that have optional counters. */
	public static final String PORTS = "rdma.optional.ports";

	/** The optional counters of mlx5 that have a name of ours, by kernel name. */
	public static final Map<String, PortCountersMetrics.KnownCounter> KNOWN_COUNTERS = Map.of("cc_rx_ce_pkts",
			new PortCountersMetrics.KnownCounter("rdma.cc.ce.packets.received", null,
					"RoCE packets received with ECN Congestion Experienced (optional counter cc_rx_ce_pkts)"),
			"cc_rx_cnp_pkts",
			new PortCountersMetrics.KnownCounter("rdma.cc.cnp.packets.received", null,
					"Congestion notification packets received (optional counter cc_rx_cnp_pkts)"),
			"cc_tx_cnp_pkts",
			new PortCountersMetrics.KnownCounter("rdma.cc.cnp.packets.transmitted", null,
					"Congestion notification packets sent (optional counter cc_tx_cnp_pkts)"),
			"rdma_rx_packets",
			new PortCountersMetrics.KnownCounter("rdma.roce.packets.received", null,
					"RDMA packets received by the port (optional counter rdma_rx_packets)"),
			"rdma_rx_bytes",
			new PortCountersMetrics.KnownCounter("rdma.roce.data.received", BaseUnits.BYTES,
					"RDMA bytes received by the port (optional counter rdma_rx_bytes)"),
			"rdma_tx_packets",
			new PortCountersMetrics.KnownCounter("rdma.roce.packets.transmitted", null,
					"RDMA packets sent by the port (optional counter rdma_tx_packets)"),
			"rdma_tx_bytes", new PortCountersMetrics.KnownCounter("rdma.roce.data.transmitted", BaseUnits.BYTES,
					"RDMA bytes sent by the port (optional counter rdma_tx_bytes)"));

	/**
	 * Create a binder.
	 * @param source the optional counters
	 * @param tags tags added to every meter
	 */
	public OptionalCountersMetrics(OptionalCounters source, Iterable<Tag> tags) {
		super(source, tags, PORTS, "Ports with optional counters; reading it registers the meters of new ones");
	}

	@Override
	OptionalCountersSnapshot snapshot() {
		return this.source.snapshot();
	}

	@Override
	Registration registration(MeterRegistry registry) {
		return new PortRegistration(registry);
	}

	/**
	 * Return the meter name of an optional counter.
	 * @param name the kernel's name, e.g. {@code cc_rx_cnp_pkts}
	 * @return e.g. {@code rdma.cc.cnp.packets.received}
	 */
	public static String meterName(String name) {
		PortCountersMetrics.KnownCounter known = KNOWN_COUNTERS.get(name);
		return (known != null) ? known.meterName() : PortCountersMetrics.generatedName("optional_counters", name);
	}

	private static double value(OptionalCounters source, String device, int port, String name) {
		PortOptionalCounters counters = source.snapshot().port(device, port);
		Long value = (counters != null) ? counters.value(name) : null;
		return (value != null) ? PortStatus.unsignedToDouble(value) : Double.NaN;
	}

	private static double enabled(OptionalCounters source, String device, int port, String name) {
		PortOptionalCounters counters = source.snapshot().port(device, port);
		OptionalCounter counter = (counters != null) ? counters.counters().get(name) : null;
		if (counter == null) {
			return Double.NaN;
		}
		return counter.enabled() ? 1.0 : 0.0;
	}

	/** The ports that have meters in one registry. */
	private final class PortRegistration extends Registration {

		private final Set<String> bound = new HashSet<>();

		PortRegistration(MeterRegistry registry) {
			super(registry);
		}

		@Override
		void update(OptionalCountersSnapshot snapshot) {
			snapshot.ports().forEach(this::bind);
		}

		@Override
		double gaugeValue(OptionalCountersSnapshot snapshot) {
			return snapshot.ports().size();
		}

		private void bind(PortOptionalCounters port) {
			OptionalCounters source = OptionalCountersMetrics.this.source;
			String device = port.device();
			int number = port.port();
			Tags portTags = Tags.of(OptionalCountersMetrics.this.tags)
				.and("device", device)
				.and("port", Integer.toString(number));
			for (String name : port.counters().keySet()) {
				if (!this.bound.add(device + "/" + number + "/" + name)) {
					continue;
				}
				PortCountersMetrics.KnownCounter known = KNOWN_COUNTERS.get(name);
				add(FunctionCounter.builder(meterName(name), source, (s) -> value(s, device, number, name))
					.description((known != null) ? known.description()
							: "Optional counter " + name + " of the port (RDMA netlink)")
					.baseUnit((known != null) ? known.baseUnit() : null)
					.tags(portTags)
					.register(registry()));
				add(Gauge.builder(ENABLED, source, (s) -> enabled(s, device, number, name))
					.description("Whether the optional counter is enabled (1) or not (0)")
					.tags(portTags)
					.tag("counter", name)
					.register(registry()));
			}
		}

	}

}
