package io.github.rdmacounters.metrics;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.DeviceIdentity;
import io.github.rdmacounters.core.HostPortCountersSnapshot;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.core.PhysicalPortState;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.PortCountersSource;
import io.github.rdmacounters.core.PortRate;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.core.Presence;
import io.github.rdmacounters.core.RdmaRegistry;

/**
 * {@link MeterBinder} for the port counters of every managed device that has a
 * {@link PortCountersSource}, named as node_exporter's infiniband collector names them
 * with {@code rdma_} in place of its {@code node_infiniband_} prefix, with the same
 * {@code device} and {@code port} tags and units: {@code counters/port_rcv_data} is
 * {@code rdma.port.data.received} in bytes ({@code rdma_port_data_received_bytes_total}
 * in Prometheus, {@code node_infiniband_port_data_received_bytes_total} in
 * node_exporter), {@code counters/link_downed} is {@code rdma.link.downed}
 * ({@code rdma_link_downed_total}), {@code hw_counters/out_of_buffer} is
 * {@code rdma.out.of.buffer.drops} ({@code rdma_out_of_buffer_drops_total}), and so on
 * (see {@link #KNOWN_COUNTERS}, taken from node_exporter 1.12's
 * {@code collector/infiniband_linux.go} and the procfs {@code sysfs/class_infiniband.go}
 * parser it uses). Every other counter gets a meter of its own, named after its file in
 * snake case with a {@code _total} suffix ({@code hw_counters/tcpRetransSegs} is
 * {@code rdma_tcp_retrans_segs_total}); see {@link #generatedName(String, String)}. Every
 * counter meter is a {@link FunctionCounter} tagged {@code device} and {@code port}.
 * <p>
 * Gauges per port, also with node_exporter's names: {@code rdma.state.id} (4 is ACTIVE),
 * {@code rdma.physical.state.id} (5 is LinkUp) and {@code rdma.rate} in bytes per second;
 * ours alone: {@code rdma.port.unreadable.files}. Per device {@code rdma.info} (value 1)
 * with exactly node_exporter's tags {@code board_id}, {@code firmware_version} and
 * {@code hca_type}, empty where the file is missing, as procfs's
 * {@code parseInfiniBandDevice} leaves them (Prometheus drops an empty label), and ours
 * alone, {@code rdma.device.info} with {@code node_guid}, {@code netdev},
 * {@code pci_address} and {@code virtual_function}.
 * <p>
 * Units: Micrometer's Prometheus registry appends a meter's base unit to its name, so the
 * base units are the ones Prometheus names carry: {@code bytes} for the data counters,
 * {@code bytes.per.second} for the rate, none for counts of packets and events. OTLP
 * receives the same unit strings; UCUM's {@code By} or {@code {packet}} would put
 * {@code _By} or {@code _packet} into the Prometheus names and break the
 * node_exporter-compatible names, so a registry that wants UCUM maps them with a
 * {@code MeterFilter} of its own.
 * <p>
 * The meters are registered for the ports and counters the source shows when the binder
 * is bound. Every meter asks the source's memoised {@link PortCountersSource#snapshot()},
 * so a scrape reads the files once when the source's cache time-to-live covers the
 * scrape. A counter whose file cannot be read or parsed in a snapshot (garbage, a sign, a
 * directory, a read error), is gone or belongs to a port or device that is gone has no
 * value (NaN) in it, never an earlier one; unsigned 64-bit values keep their magnitude
 * ({@link PortStatus#counterValue(String)}). The counter filter decides which counters
 * get a meter, by file name; state, rate and info gauges are always registered. The
 * binder holds the sources strongly (meters hold them weakly) and removes its meters on
 * {@link #close()}.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public class PortCountersMetrics implements MeterBinder, AutoCloseable {

	/** Name of the logical state gauge ({@code rdma_state_id}). */
	public static final String STATE = "rdma.state.id";

	/** Name of the physical state gauge ({@code rdma_physical_state_id}). */
	public static final String PHYSICAL_STATE = "rdma.physical.state.id";

	/**
	 * Name of the rate gauge, in bytes per second ({@code rdma_rate_bytes_per_second}).
	 */
	public static final String RATE = "rdma.rate";

	/** Name of the gauge of files that could not be read in the last snapshot. */
	public static final String UNREADABLE = "rdma.port.unreadable.files";

	/**
	 * Name of the gauge of counter files that an earlier snapshot read and that are gone
	 * ({@code rdma_port_missing_files}).
	 */
	public static final String COUNTER_FILES_MISSING = "rdma.port.missing.files";

	/**
	 * Name of the gauge that is 1 while a port's directory is there, 0 once it is gone.
	 */
	public static final String PORT_PRESENT = "rdma.port.present";

	/**
	 * Name of the gauge that is 1 while a device's directory is there, 0 once it is gone
	 * ({@code rdma_device_present}).
	 */
	public static final String DEVICE_PRESENT = "rdma.device.present";

	/** Name of the gauge of devices present on the host ({@code rdma_devices}). */
	public static final String DEVICES = "rdma.devices";

	/**
	 * Name of the device information gauge as node_exporter has it ({@code rdma_info}).
	 */
	public static final String INFO = "rdma.info";

	/**
	 * Name of the gauge with what node_exporter does not say of a device
	 * ({@code rdma_device_info}).
	 */
	public static final String DEVICE_INFO = "rdma.device.info";

	/**
	 * The counters node_exporter's infiniband collector names, by
	 * {@code <directory>/<file>} of the port's sysfs directory (e.g.
	 * {@code counters/port_rcv_data}, {@code hw_counters/out_of_buffer}). The meter name
	 * in snake case, with the unit and {@code _total} that Prometheus adds, is
	 * node_exporter's name after {@code node_infiniband_}.
	 */
	public static final Map<String, KnownCounter> KNOWN_COUNTERS = Map.ofEntries(
			// counters/: the IB PMA counters (ib_core's sysfs.c), procfs's
			// InfiniBandCounters
			known("counters/port_rcv_data", "rdma.port.data.received", BaseUnits.BYTES,
					"Data octets received on all links"),
			known("counters/port_xmit_data", "rdma.port.data.transmitted", BaseUnits.BYTES,
					"Data octets transmitted on all links"),
			known("counters/port_rcv_packets", "rdma.port.packets.received", null,
					"Packets received on all VLs by this port, including errors"),
			known("counters/port_xmit_packets", "rdma.port.packets.transmitted", null,
					"Packets transmitted on all VLs from this port, including errors"),
			known("counters/port_rcv_errors", "rdma.port.errors.received", null,
					"Packets containing an error that were received on this port"),
			known("counters/port_rcv_discards", "rdma.port.discards.received", null,
					"Inbound packets discarded by the port because it is down or congested"),
			known("counters/port_xmit_discards", "rdma.port.discards.transmitted", null,
					"Outbound packets discarded by the port because it is down or congested"),
			known("counters/port_rcv_constraint_errors", "rdma.port.constraint.errors.received", null,
					"Packets received on the physical port that are discarded"),
			known("counters/port_xmit_constraint_errors", "rdma.port.constraint.errors.transmitted", null,
					"Packets not transmitted from the physical port"),
			known("counters/port_xmit_wait", "rdma.port.transmit.wait", null,
					"Ticks during which the port had data to transmit but sent none"),
			known("counters/port_rcv_remote_physical_errors", "rdma.port.receive.remote.physical.errors", null,
					"Packets received marked with the EBP delimiter"),
			known("counters/port_rcv_switch_relay_errors", "rdma.port.receive.switch.relay.errors", null,
					"Packets received that could not be forwarded by the switch"),
			known("counters/unicast_rcv_packets", "rdma.unicast.packets.received", null,
					"Unicast packets received, including errors"),
			known("counters/unicast_xmit_packets", "rdma.unicast.packets.transmitted", null,
					"Unicast packets transmitted, including errors"),
			known("counters/multicast_rcv_packets", "rdma.multicast.packets.received", null,
					"Multicast packets received, including errors"),
			known("counters/multicast_xmit_packets", "rdma.multicast.packets.transmitted", null,
					"Multicast packets transmitted, including errors"),
			known("counters/link_downed", "rdma.link.downed", null,
					"Times the link failed to recover from an error state and went down"),
			known("counters/link_error_recovery", "rdma.link.error.recovery", null,
					"Times the link successfully recovered from an error state"),
			known("counters/local_link_integrity_errors", "rdma.local.link.integrity.errors", null,
					"Times the local link integrity error threshold was exceeded"),
			known("counters/excessive_buffer_overrun_errors", "rdma.excessive.buffer.overrun.errors", null,
					"Times consecutive flow control update periods had buffer overruns"),
			known("counters/symbol_error", "rdma.symbol.error", null, "Minor link errors detected on physical lanes"),
			known("counters/VL15_dropped", "rdma.vl15.dropped", null,
					"Incoming VL15 packets dropped for lack of buffers"),
			// counters_ext/: 64-bit counters of kernels before 4.5
			known("counters_ext/port_rcv_data_64", "rdma.legacy.data.received", BaseUnits.BYTES,
					"Data octets received on all links (64-bit legacy counter)"),
			known("counters_ext/port_xmit_data_64", "rdma.legacy.data.transmitted", BaseUnits.BYTES,
					"Data octets transmitted on all links (64-bit legacy counter)"),
			known("counters_ext/port_rcv_packets_64", "rdma.legacy.packets.received", null,
					"Packets received on all links (64-bit legacy counter)"),
			known("counters_ext/port_xmit_packets_64", "rdma.legacy.packets.transmitted", null,
					"Packets transmitted on all links (64-bit legacy counter)"),
			known("counters_ext/port_unicast_rcv_packets", "rdma.legacy.unicast.packets.received", null,
					"Unicast packets received (legacy counter)"),
			known("counters_ext/port_unicast_xmit_packets", "rdma.legacy.unicast.packets.transmitted", null,
					"Unicast packets transmitted (legacy counter)"),
			known("counters_ext/port_multicast_rcv_packets", "rdma.legacy.multicast.packets.received", null,
					"Multicast packets received (legacy counter)"),
			known("counters_ext/port_multicast_xmit_packets", "rdma.legacy.multicast.packets.transmitted", null,
					"Multicast packets transmitted (legacy counter)"),
			// hw_counters/: the mlx5 provider counters procfs's InfiniBandHwCounters
			// knows
			known("hw_counters/duplicate_request", "rdma.duplicate.requests.packets", null,
					"Received packets that repeat a request already executed"),
			known("hw_counters/implied_nak_seq_err", "rdma.implied.nak.seq.errors", null,
					"ACKs with a PSN above the expected one for an RDMA read or response"),
			known("hw_counters/local_ack_timeout_err", "rdma.local.ack.timeout.errors", null,
					"Expirations of the ack timer of RC, XRC and DCT queue pairs at the sender"),
			known("hw_counters/np_cnp_sent", "rdma.np.cnp.packets.sent", null,
					"CNPs sent by the notification point for ECN-marked RoCEv2 packets"),
			known("hw_counters/np_ecn_marked_roce_packets", "rdma.np.ecn.marked.roce.packets.received", null,
					"RoCEv2 packets received with ECN congestion experienced"),
			known("hw_counters/out_of_buffer", "rdma.out.of.buffer.drops", null,
					"Packets dropped for lack of receive WQEs of the queue pairs"),
			known("hw_counters/out_of_sequence", "rdma.out.of.sequence.packets.received", null,
					"Out of sequence packets received"),
			known("hw_counters/packet_seq_err", "rdma.packet.sequence.errors", null,
					"NAK sequence error packets received"),
			known("hw_counters/req_cqe_error", "rdma.req.cqes.errors", null, "Requester CQEs completed with an error"),
			known("hw_counters/req_cqe_flush_error", "rdma.req.cqes.flush.errors", null,
					"Requester CQEs completed with a flush error"),
			known("hw_counters/req_remote_access_errors", "rdma.req.remote.access.errors", null,
					"Remote access errors detected by the requester"),
			known("hw_counters/req_remote_invalid_request", "rdma.req.remote.invalid.request.errors", null,
					"Remote invalid request errors detected by the requester"),
			known("hw_counters/resp_cqe_error", "rdma.resp.cqes.errors", null,
					"Responder CQEs completed with an error"),
			known("hw_counters/resp_cqe_flush_error", "rdma.resp.cqes.flush.errors", null,
					"Responder CQEs completed with a flush error"),
			known("hw_counters/resp_local_length_error", "rdma.resp.local.length.errors", null,
					"Local length errors detected by the responder"),
			known("hw_counters/resp_remote_access_errors", "rdma.resp.remote.access.errors", null,
					"Remote access errors detected by the responder"),
			known("hw_counters/rnr_nak_retry_err", "rdma.rnr.nak.retry.packets.received", null,
					"RNR NAK packets received"),
			known("hw_counters/roce_adp_retrans", "rdma.roce.adp.retransmits", null,
					"Adaptive retransmissions of RoCE traffic"),
			known("hw_counters/roce_adp_retrans_to", "rdma.roce.adp.retransmits.timeout", null,
					"Timeouts of RoCE traffic in adaptive retransmission"),
			known("hw_counters/roce_slow_restart", "rdma.roce.slow.restart.used", null,
					"Times RoCE slow restart was used"),
			known("hw_counters/roce_slow_restart_cnps", "rdma.roce.slow.restart.cnps", null,
					"CNPs generated by RoCE slow restart"),
			known("hw_counters/roce_slow_restart_trans", "rdma.roce.slow.restart", null,
					"Times RoCE slow restart changed state to slow restart"),
			known("hw_counters/rp_cnp_handled", "rdma.rp.cnp.packets.handled", null,
					"CNPs handled by the reaction point to throttle the transmission rate"),
			known("hw_counters/rp_cnp_ignored", "rdma.rp.cnp.ignored.packets.received", null,
					"CNPs received and ignored by the reaction point"),
			known("hw_counters/rx_atomic_requests", "rdma.rx.atomic.requests", null, "ATOMIC requests received"),
			known("hw_counters/rx_dct_connect", "rdma.rx.dct.connect.requests", null,
					"Connection requests received for DCTs"),
			known("hw_counters/rx_icrc_encapsulated", "rdma.rx.icrc.encapsulated.errors", null,
					"RoCE packets received with an ICRC error"),
			known("hw_counters/rx_read_requests", "rdma.rx.read.requests", null, "READ requests received"),
			known("hw_counters/rx_write_requests", "rdma.rx.write.requests", null, "WRITE requests received"));

	/**
	 * Meter names of this binder and of {@link RdmaFlowMetrics} that a generated name
	 * must not take.
	 */
	private static final Set<String> RESERVED_NAMES = reservedNames();

	/** Prefix of the meters of {@link RdmaFlowMetrics}, which generated names avoid. */
	private static final String FLOW_PREFIX = "rdma.flow.";

	private final List<PortCountersSource> sources;

	private final @Nullable HostPortCountersSource host;

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
		this.host = null;
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

	/**
	 * Create a binder for the port counters of every device of a host, discovered at each
	 * read: a device, port or counter that appears later (hotplug, driver reload) gets
	 * its meters at the next scrape, one that vanishes is reported by
	 * {@link #DEVICE_PRESENT} and {@link #PORT_PRESENT} at 0 and
	 * {@link #COUNTER_FILES_MISSING}, its counters have no value (NaN) instead of their
	 * last one, and the other devices' series go on unchanged.
	 * @param host the host's port counters
	 * @param counterFilter which counters get a meter, by sysfs file name
	 * @param tags tags added to every meter
	 * @since 0.1.0
	 */
	public PortCountersMetrics(HostPortCountersSource host, Predicate<String> counterFilter, Iterable<Tag> tags) {
		this.sources = List.of();
		this.host = host;
		this.counterFilter = Objects.requireNonNull(counterFilter, "counterFilter");
		this.tags = tags;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Registration registration = new Registration(registry);
		synchronized (this.registrations) {
			this.registrations.add(registration);
		}
		for (PortCountersSource source : this.sources) {
			try {
				registration.bind(source.deviceName(), source, source.snapshot());
			}
			catch (RuntimeException ex) {
				// a source that cannot be read at all gets no meters
			}
		}
		HostPortCountersSource host = this.host;
		if (host != null) {
			registration.refresh(host);
			registration.add(Gauge.builder(DEVICES, host, registration::refresh)
				.description("RDMA devices present on the host; reading it registers the meters of new devices")
				.tags(this.tags)
				.register(registry));
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

	private static double portPresent(PortCountersSource source, int port) {
		PortStatus status = source.snapshot().port(port);
		return (status != null && status.presence() == Presence.PRESENT) ? 1.0 : 0.0;
	}

	private static double stateId(@Nullable PortState state) {
		return (state != null) ? state.nativeValue() : Double.NaN;
	}

	private static double physicalStateId(@Nullable PhysicalPortState state) {
		return (state != null) ? state.nativeValue() : Double.NaN;
	}

	private static String orEmpty(@Nullable String value) {
		return (value != null) ? value : "";
	}

	/**
	 * Return the meter name of a counter that node_exporter does not name: {@code rdma.}
	 * and the file name in snake case, words separated by dots, so that Prometheus shows
	 * {@code rdma_<counter>_total} ({@code tcpRetransSegs} becomes
	 * {@code rdma.tcp.retrans.segs}, {@code rdma_tcp_retrans_segs_total}). A name that
	 * would be taken by a meter of node_exporter's, of this binder or of
	 * {@link RdmaFlowMetrics} (rxe's {@code hw_counters/link_downed} next to the PMA's
	 * {@code counters/link_downed}) gets the directory too:
	 * {@code rdma.hw.counters.link.downed}.
	 * @param group the sysfs directory of the counter, e.g. {@code hw_counters}
	 * @param fileName the file name of the counter, e.g. {@code out_of_buffer}
	 * @return the meter name
	 */
	public static String generatedName(String group, String fileName) {
		String name = "rdma." + words(fileName);
		if (RESERVED_NAMES.contains(name) || name.startsWith(FLOW_PREFIX)) {
			name = "rdma." + words(group) + "." + words(fileName);
		}
		return name;
	}

	/**
	 * Split a sysfs file name into lower-case words joined by dots: at underscores, at
	 * any character Prometheus does not allow in a name, and at camel-case humps
	 * ({@code RxECNMrkd} is {@code rx.ecn.mrkd}). A trailing {@code total} is dropped,
	 * since Prometheus adds {@code _total} to every counter.
	 */
	private static String words(String name) {
		StringBuilder words = new StringBuilder();
		char[] chars = name.toCharArray();
		for (int i = 0; i < chars.length; i++) {
			char c = chars[i];
			boolean upper = c >= 'A' && c <= 'Z';
			boolean wordChar = upper || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
			if (!wordChar) {
				separate(words);
				continue;
			}
			if (upper && i > 0) {
				char previous = chars[i - 1];
				boolean previousLowerOrDigit = (previous >= 'a' && previous <= 'z')
						|| (previous >= '0' && previous <= '9');
				boolean previousUpper = previous >= 'A' && previous <= 'Z';
				boolean nextLower = i + 1 < chars.length && chars[i + 1] >= 'a' && chars[i + 1] <= 'z';
				if (previousLowerOrDigit || (previousUpper && nextLower)) {
					separate(words);
				}
			}
			words.append(Character.toLowerCase(c));
		}
		String result = words.toString();
		if (result.endsWith(".")) {
			result = result.substring(0, result.length() - 1);
		}
		if (result.endsWith(".total")) {
			result = result.substring(0, result.length() - ".total".length());
		}
		return result.isEmpty() ? "counter" : result;
	}

	private static void separate(StringBuilder words) {
		if (words.length() > 0 && words.charAt(words.length() - 1) != '.') {
			words.append('.');
		}
	}

	private static Set<String> reservedNames() {
		Set<String> names = new HashSet<>(List.of(STATE, PHYSICAL_STATE, RATE, UNREADABLE, INFO, DEVICE_INFO,
				COUNTER_FILES_MISSING, PORT_PRESENT, DEVICE_PRESENT, DEVICES));
		KNOWN_COUNTERS.values().forEach((known) -> names.add(known.meterName()));
		return Set.copyOf(names);
	}

	/**
	 * Remove the meters this binder registered from every registry it was bound to.
	 */
	@Override
	public void close() {
		MeterRegistration.removeAll(this.registrations);
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
	 * One counter of one port, read from the source's snapshot: NaN while its file cannot
	 * be read or parsed (the file is listed in {@link PortStatus#unreadable()} and
	 * counted by {@link #UNREADABLE}), is missing, or its port or device is gone; never a
	 * value of an earlier snapshot. Captured by the meter's function; it holds no
	 * reference to the source, which the meter holds weakly and the binder strongly.
	 */
	private static final class CounterProbe {

		private final int port;

		private final String key;

		CounterProbe(int port, String key) {
			this.port = port;
			this.key = key;
		}

		double value(PortCountersSource source) {
			PortStatus status = source.snapshot().port(this.port);
			if (status == null || status.presence() == Presence.GONE) {
				return Double.NaN;
			}
			return status.counterValue(this.key);
		}

	}

	/** The meters of one registry, and which devices, ports and counters have them. */
	private final class Registration extends MeterRegistration {

		private final Map<String, DeviceMeters> devices = new TreeMap<>();

		private @Nullable HostPortCountersSnapshot lastSeen;

		Registration(MeterRegistry registry) {
			super(registry);
		}

		/**
		 * Register the meters of devices, ports and counters not seen before in the
		 * host's current snapshot (memoised, so this costs a comparison within the read
		 * cache time-to-live).
		 */
		synchronized double refresh(HostPortCountersSource host) {
			HostPortCountersSnapshot snapshot;
			try {
				snapshot = host.snapshot();
			}
			catch (RuntimeException ex) {
				return Double.NaN;
			}
			if (snapshot != this.lastSeen) {
				this.lastSeen = snapshot;
				for (PortCountersSnapshot device : snapshot.devices()) {
					PortCountersSource source = this.devices.containsKey(device.deviceName())
							? this.devices.get(device.deviceName()).source() : host.device(device.deviceName());
					bind(device.deviceName(), source, device);
				}
			}
			return snapshot.presentDevices().size();
		}

		synchronized void bind(String deviceName, PortCountersSource source, PortCountersSnapshot snapshot) {
			DeviceMeters device = this.devices.get(deviceName);
			if (device == null) {
				if (!snapshot.isPresent()) {
					return;
				}
				Tags deviceTags = Tags.of(PortCountersMetrics.this.tags).and("device", deviceName);
				device = new DeviceMeters(source, deviceTags);
				this.devices.put(deviceName, device);
				DeviceIdentity identity = snapshot.identity();
				add(Gauge.builder(INFO, source, (s) -> 1.0)
					.description("Information about the RDMA device; the value is always 1")
					.tags(deviceTags)
					.tag("firmware_version", orEmpty(snapshot.firmwareVersion()))
					.tag("board_id", orEmpty(snapshot.boardId()))
					.tag("hca_type", orEmpty(snapshot.hcaType()))
					.register(registry()));
				add(Gauge.builder(DEVICE_INFO, source, (s) -> 1.0)
					.description("What node_exporter's info does not say of the RDMA device; the value is always 1")
					.tags(deviceTags)
					.tag("node_guid", orEmpty(snapshot.nodeGuid()))
					.tag("netdev", String.join(",", identity.netdevs()))
					.tag("pci_address", orEmpty(identity.pciAddress()))
					.tag("virtual_function", Boolean.toString(identity.virtualFunction()))
					.register(registry()));
				add(Gauge.builder(DEVICE_PRESENT, source, (s) -> s.snapshot().isPresent() ? 1.0 : 0.0)
					.description("Whether the device's sysfs directory was found in the last snapshot (0: gone)")
					.tags(deviceTags)
					.register(registry()));
			}
			for (PortStatus port : snapshot.ports()) {
				// a port whose counters all have meters costs a look-up per counter: this
				// runs for every new snapshot
				if (port.presence() == Presence.PRESENT && !device.bound(port)) {
					bindPort(device, source, port);
				}
			}
		}

		private void bindPort(DeviceMeters device, PortCountersSource source, PortStatus port) {
			int number = port.port();
			Tags portTags = device.tags.and("port", Integer.toString(number));
			Set<String> taken = device.taken.get(number);
			if (taken == null) {
				taken = new HashSet<>();
				device.taken.put(number, taken);
				add(gauge(registry(), STATE, source, number, portTags,
						"State of the port (0 no change, 1 down, 2 init, 3 armed, 4 active, 5 active defer)",
						(status) -> stateId(status.link().state())));
				add(gauge(registry(), PHYSICAL_STATE, source, number, portTags,
						"Physical state of the port (1 sleep, 2 polling, 3 disabled, 4 training, 5 link up, "
								+ "6 link error recovery, 7 phy test)",
						(status) -> physicalStateId(status.link().physicalState())));
				add(Gauge.builder(RATE, source, (s) -> rate(s, number))
					.description("Signalling rate of the port")
					.baseUnit("bytes.per.second")
					.tags(portTags)
					.register(registry()));
				add(gauge(registry(), UNREADABLE, source, number, portTags,
						"Files of the port that could not be read in the last snapshot",
						(status) -> status.unreadable().size()));
				add(gauge(registry(), COUNTER_FILES_MISSING, source, number, portTags,
						"Counter files of the port read before that were gone in the last snapshot",
						(status) -> status.missing().size()));
				add(Gauge.builder(PORT_PRESENT, source, (s) -> portPresent(s, number))
					.description("Whether the port's sysfs directory was found in the last snapshot (0: gone)")
					.tags(portTags)
					.register(registry()));
			}
			Set<String> keys = device.keys.computeIfAbsent(number, (n) -> new HashSet<>());
			for (Map.Entry<String, String> entry : new TreeMap<>(port.groups()).entrySet()) {
				String key = entry.getKey();
				if (!keys.add(key)) {
					continue;
				}
				String group = entry.getValue();
				String fileName = key.substring(key.lastIndexOf('/') + 1);
				if (!PortCountersMetrics.this.counterFilter.test(fileName)) {
					continue;
				}
				CounterProbe probe = new CounterProbe(number, key);
				KnownCounter known = KNOWN_COUNTERS.get(group + "/" + fileName);
				FunctionCounter.Builder<PortCountersSource> builder;
				if (known != null && taken.add(known.meterName())) {
					builder = FunctionCounter.builder(known.meterName(), source, probe::value)
						.description(known.description())
						.baseUnit(known.baseUnit());
				}
				else {
					String name = generatedName(group, fileName);
					if (!taken.add(name)) {
						continue;
					}
					builder = FunctionCounter.builder(name, source, probe::value)
						.description("Provider counter " + group + "/" + fileName + " of the port");
				}
				add(builder.tags(portTags).register(registry()));
			}
		}

	}

	/** The source of one device and which of its ports and counters have meters. */
	private static final class DeviceMeters {

		private final PortCountersSource source;

		/** The tags of the device's meters. */
		private final Tags tags;

		/** Meter names taken, by port number; a port is in it once its gauges exist. */
		private final Map<Integer, Set<String>> taken = new TreeMap<>();

		/** Counter keys seen, by port number. */
		private final Map<Integer, Set<String>> keys = new TreeMap<>();

		DeviceMeters(PortCountersSource source, Tags tags) {
			this.source = source;
			this.tags = tags;
		}

		PortCountersSource source() {
			return this.source;
		}

		/**
		 * Return whether the port has its gauges and every counter of its status was seen
		 * (registered, or left out by the filter).
		 */
		boolean bound(PortStatus port) {
			Set<String> seen = this.keys.get(port.port());
			return seen != null && this.taken.containsKey(port.port()) && seen.containsAll(port.groups().keySet());
		}

	}

}
