package io.github.rdmacounters.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.core.PhysicalPortState;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.PortCountersSource;
import io.github.rdmacounters.core.PortRate;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.core.RdmaRegistry;

/**
 * {@link MeterBinder} for the port counters of every managed device that has a
 * {@link PortCountersSource}, named so that users of node_exporter's infiniband collector
 * recognise them: {@code port_rcv_data} becomes {@code rdma.port.data.received} in bytes
 * ({@code rdma_port_data_received_bytes_total} in Prometheus, where node_exporter has
 * {@code node_infiniband_port_data_received_bytes_total}), {@code link_downed} becomes
 * {@code rdma.port.link.downed}, and so on (see {@link #KNOWN_COUNTERS}). Counters
 * without a node_exporter name, such as mlx5's {@code hw_counters/out_of_buffer}, are
 * exposed as {@code rdma.port.hw.counter} with tags {@code group} and {@code counter}.
 * Every counter meter is a {@link FunctionCounter} tagged {@code device} and
 * {@code port}.
 * <p>
 * Gauges per port: {@code rdma.port.state.id} (4 is ACTIVE),
 * {@code rdma.port.physical.state.id} (5 is LinkUp), {@code rdma.port.rate} in bytes per
 * second and {@code rdma.port.unreadable.files}; per device {@code rdma.device.info}
 * (value 1, tags {@code firmware_version}, {@code board_id}, {@code hca_type},
 * {@code node_guid}).
 * <p>
 * The meters are registered for the ports and counters the source shows when the binder
 * is bound. Every meter asks the source's memoised {@link PortCountersSource#snapshot()},
 * so a scrape reads the files once when the source's cache time-to-live covers the
 * scrape. A counter that cannot be read in a later snapshot keeps its last value. The
 * counter filter decides which counters get a meter, by file name; state, rate and info
 * gauges are always registered. The binder holds the sources strongly (meters hold them
 * weakly) and removes its meters on {@link #close()}.
 *
 * @author rdma-counters
 */
public class PortCountersMetrics implements MeterBinder, AutoCloseable {

	/** Name of the generic meter of counters without a node_exporter name. */
	public static final String HW_COUNTER = "rdma.port.hw.counter";

	/** Name of the logical state gauge. */
	public static final String STATE = "rdma.port.state.id";

	/** Name of the physical state gauge. */
	public static final String PHYSICAL_STATE = "rdma.port.physical.state.id";

	/** Name of the rate gauge, in bytes per second. */
	public static final String RATE = "rdma.port.rate";

	/** Name of the gauge of files that could not be read in the last snapshot. */
	public static final String UNREADABLE = "rdma.port.unreadable.files";

	/** Name of the device information gauge. */
	public static final String INFO = "rdma.device.info";

	/**
	 * The counters with a node_exporter name, by sysfs file name.
	 */
	public static final Map<String, KnownCounter> KNOWN_COUNTERS = Map.ofEntries(
			known("port_rcv_data", "rdma.port.data.received", BaseUnits.BYTES, "Data octets received on all links"),
			known("port_xmit_data", "rdma.port.data.transmitted", BaseUnits.BYTES,
					"Data octets transmitted on all links"),
			known("port_rcv_packets", "rdma.port.packets.received", null,
					"Packets received on all VLs by this port, including errors"),
			known("port_xmit_packets", "rdma.port.packets.transmitted", null,
					"Packets transmitted on all VLs from this port, including errors"),
			known("port_rcv_errors", "rdma.port.errors.received", null,
					"Packets containing an error that were received on this port"),
			known("port_rcv_discards", "rdma.port.discards.received", null,
					"Inbound packets discarded by the port because it is down or congested"),
			known("port_xmit_discards", "rdma.port.discards.transmitted", null,
					"Outbound packets discarded by the port because it is down or congested"),
			known("port_rcv_constraint_errors", "rdma.port.constraint.errors.received", null,
					"Packets received on the physical port that are discarded"),
			known("port_xmit_constraint_errors", "rdma.port.constraint.errors.transmitted", null,
					"Packets not transmitted from the physical port"),
			known("port_xmit_wait", "rdma.port.transmit.wait", null,
					"Ticks during which the port had data to transmit but sent none"),
			known("port_rcv_remote_physical_errors", "rdma.port.receive.remote.physical.errors", null,
					"Packets received marked with the EBP delimiter"),
			known("port_rcv_switch_relay_errors", "rdma.port.receive.switch.relay.errors", null,
					"Packets received that could not be forwarded by the switch"),
			known("unicast_rcv_packets", "rdma.port.unicast.packets.received", null,
					"Unicast packets received, including errors"),
			known("unicast_xmit_packets", "rdma.port.unicast.packets.transmitted", null,
					"Unicast packets transmitted, including errors"),
			known("multicast_rcv_packets", "rdma.port.multicast.packets.received", null,
					"Multicast packets received, including errors"),
			known("multicast_xmit_packets", "rdma.port.multicast.packets.transmitted", null,
					"Multicast packets transmitted, including errors"),
			known("link_downed", "rdma.port.link.downed", null,
					"Times the link failed to recover from an error state and went down"),
			known("link_error_recovery", "rdma.port.link.error.recovery", null,
					"Times the link successfully recovered from an error state"),
			known("local_link_integrity_errors", "rdma.port.local.link.integrity.errors", null,
					"Times the local link integrity error threshold was exceeded"),
			known("excessive_buffer_overrun_errors", "rdma.port.excessive.buffer.overrun.errors", null,
					"Times consecutive flow control update periods had buffer overruns"),
			known("symbol_error", "rdma.port.symbol.errors", null, "Minor link errors detected on physical lanes"),
			known("VL15_dropped", "rdma.port.vl15.dropped", null, "Incoming VL15 packets dropped for lack of buffers"),
			known("port_rcv_data_64", "rdma.port.legacy.data.received", BaseUnits.BYTES,
					"Data octets received on all links (64-bit legacy counter)"),
			known("port_xmit_data_64", "rdma.port.legacy.data.transmitted", BaseUnits.BYTES,
					"Data octets transmitted on all links (64-bit legacy counter)"),
			known("port_rcv_packets_64", "rdma.port.legacy.packets.received", null,
					"Packets received on all links (64-bit legacy counter)"),
			known("port_xmit_packets_64", "rdma.port.legacy.packets.transmitted", null,
					"Packets transmitted on all links (64-bit legacy counter)"),
			known("port_unicast_rcv_packets", "rdma.port.legacy.unicast.packets.received", null,
					"Unicast packets received (legacy counter)"),
			known("port_unicast_xmit_packets", "rdma.port.legacy.unicast.packets.transmitted", null,
					"Unicast packets transmitted (legacy counter)"),
			known("port_multicast_rcv_packets", "rdma.port.legacy.multicast.packets.received", null,
					"Multicast packets received (legacy counter)"),
			known("port_multicast_xmit_packets", "rdma.port.legacy.multicast.packets.transmitted", null,
					"Multicast packets transmitted (legacy counter)"));

	private final List<PortCountersSource> sources;

	private final Predicate<String> counterFilter;

	private final Iterable<Tag> tags;

	private final List<Registration> registrations = new ArrayList<>();

	/**
	 * Create a binder for every managed device of the registry that has port counters.
	 * @param registry the devices
	 * @param counterFilter which counters get a meter, by sysfs file name (e.g.
	 * {@code port_rcv_data}, {@code out_of_buffer}); see {@link #filter(List, List)}
	 */
	public PortCountersMetrics(RdmaRegistry registry, Predicate<String> counterFilter) {
		this(registry, counterFilter, Tags.empty());
	}

	/**
	 * Create a binder for every managed device of the registry that has port counters,
	 * with extra tags.
	 * @param registry the devices
	 * @param counterFilter which counters get a meter, by sysfs file name
	 * @param tags tags added to every meter
	 */
	public PortCountersMetrics(RdmaRegistry registry, Predicate<String> counterFilter, Iterable<Tag> tags) {
		List<PortCountersSource> found = new ArrayList<>();
		for (ManagedDevice device : registry.devices()) {
			PortCountersSource source = device.portCounters();
			if (source != null) {
				found.add(source);
			}
		}
		this.sources = List.copyOf(found);
		this.counterFilter = Objects.requireNonNull(counterFilter, "counterFilter");
		this.tags = tags;
	}

	/**
	 * Build a counter filter from include and exclude lists. Entries are sysfs file names
	 * such as {@code port_rcv_data} or {@code out_of_buffer}, exact or as globs where
	 * {@code *} matches any run of characters and {@code ?} one character
	 * ({@code port_*_errors}); matching is case-sensitive and blank entries are ignored.
	 * A counter passes if the include list is empty or one include entry matches it, and
	 * no exclude entry matches it: exclude wins.
	 * @param include the counters to include; empty for all
	 * @param exclude the counters to exclude
	 * @return the filter
	 */
	public static Predicate<String> filter(List<String> include, List<String> exclude) {
		return NameFilter.of(include, exclude);
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		List<Meter> meters = new ArrayList<>();
		for (PortCountersSource source : this.sources) {
			PortCountersSnapshot snapshot;
			try {
				snapshot = source.snapshot();
			}
			catch (RuntimeException ex) {
				continue;
			}
			Tags deviceTags = Tags.of(this.tags).and("device", source.deviceName());
			meters.add(Gauge.builder(INFO, source, (s) -> 1.0)
				.description("Information about the RDMA device; the value is always 1")
				.tags(deviceTags)
				.tag("firmware_version", orUnknown(snapshot.firmwareVersion()))
				.tag("board_id", orUnknown(snapshot.boardId()))
				.tag("hca_type", orUnknown(snapshot.hcaType()))
				.tag("node_guid", orUnknown(snapshot.nodeGuid()))
				.register(registry));
			for (PortStatus port : snapshot.ports()) {
				Tags portTags = deviceTags.and("port", Integer.toString(port.port()));
				int number = port.port();
				meters.add(gauge(registry, STATE, source, number, portTags,
						"State of the port (0 no change, 1 down, 2 init, 3 armed, 4 active, 5 active defer)",
						(status) -> stateId(status.link().state())));
				meters.add(gauge(registry, PHYSICAL_STATE, source, number, portTags,
						"Physical state of the port (1 sleep, 2 polling, 3 disabled, 4 training, 5 link up, "
								+ "6 link error recovery, 7 phy test)",
						(status) -> physicalStateId(status.link().physicalState())));
				meters.add(Gauge.builder(RATE, source, (s) -> rate(s, number))
					.description("Signalling rate of the port")
					.baseUnit("bytes.per.second")
					.tags(portTags)
					.register(registry));
				meters.add(gauge(registry, UNREADABLE, source, number, portTags,
						"Files of the port that could not be read in the last snapshot",
						(status) -> status.unreadable().size()));
				for (Map.Entry<String, String> entry : port.groups().entrySet()) {
					String key = entry.getKey();
					String group = entry.getValue();
					String fileName = key.substring(key.lastIndexOf('/') + 1);
					if (!this.counterFilter.test(fileName)) {
						continue;
					}
					CounterProbe probe = new CounterProbe(number, key);
					KnownCounter known = key.equals(fileName) ? KNOWN_COUNTERS.get(fileName) : null;
					FunctionCounter.Builder<PortCountersSource> builder;
					if (known != null) {
						builder = FunctionCounter.builder(known.meterName(), source, probe::value)
							.description(known.description())
							.baseUnit(known.baseUnit());
					}
					else {
						builder = FunctionCounter.builder(HW_COUNTER, source, probe::value)
							.description("Port counter without a node_exporter name, by sysfs directory and file")
							.tag("group", group)
							.tag("counter", fileName);
					}
					meters.add(builder.tags(portTags).register(registry));
				}
			}
		}
		synchronized (this.registrations) {
			this.registrations.add(new Registration(registry, meters));
		}
	}

	private static Gauge gauge(MeterRegistry registry, String name, PortCountersSource source, int port, Tags tags,
			String description, ToDoubleFunction<PortStatus> value) {
		return Gauge.builder(name, source, (s) -> {
			PortStatus status = s.snapshot().port(port);
			return (status != null) ? value.applyAsDouble(status) : Double.NaN;
		}).description(description).tags(tags).register(registry);
	}

	private static double rate(PortCountersSource source, int port) {
		PortStatus status = source.snapshot().port(port);
		PortRate rate = (status != null) ? status.link().rate() : null;
		return (rate != null) ? rate.bytesPerSecond() : Double.NaN;
	}

	private static double stateId(@Nullable PortState state) {
		return (state != null) ? state.nativeValue() : Double.NaN;
	}

	private static double physicalStateId(@Nullable PhysicalPortState state) {
		return (state != null) ? state.nativeValue() : Double.NaN;
	}

	private static String orUnknown(@Nullable String value) {
		return (value != null) ? value : "unknown";
	}

	/**
	 * Remove the meters this binder registered from every registry it was bound to.
	 */
	@Override
	public void close() {
		List<Registration> registered;
		synchronized (this.registrations) {
			registered = new ArrayList<>(this.registrations);
			this.registrations.clear();
		}
		for (Registration registration : registered) {
			registration.meters().forEach(registration.registry()::remove);
		}
	}

	private static Map.Entry<String, KnownCounter> known(String file, String meterName, @Nullable String baseUnit,
			String description) {
		return Map.entry(file, new KnownCounter(meterName, baseUnit, description));
	}

	/**
	 * The meter of a counter that has a node_exporter name.
	 *
	 * @param meterName the Micrometer name, e.g. {@code rdma.port.data.received}
	 * @param baseUnit the base unit, or {@code null} for a plain count
	 * @param description the meter description
	 */
	public record KnownCounter(String meterName, @Nullable String baseUnit, String description) {

	}

	/**
	 * One counter of one port: reads it from the source's snapshot and keeps the last
	 * value read, so that a file that fails once does not make the counter drop. Captured
	 * by the meter's function; it holds no reference to the source, which the meter holds
	 * weakly and the binder strongly.
	 */
	private static final class CounterProbe {

		private final int port;

		private final String key;

		private volatile double last;

		CounterProbe(int port, String key) {
			this.port = port;
			this.key = key;
		}

		double value(PortCountersSource source) {
			PortStatus status = source.snapshot().port(this.port);
			Long value = (status != null) ? status.counters().get(this.key) : null;
			if (value != null) {
				this.last = value;
			}
			return this.last;
		}

	}

	private record Registration(MeterRegistry registry, List<Meter> meters) {

	}

}
