package io.github.rdmacounters.observation;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.HostPortCountersSnapshot;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.PortStatus;

/**
 * {@link ObservationHandler} that records what the selected observations cost the chosen
 * port counters (retransmits, timeouts, CNPs, out-of-sequence: the {@code counters/} and
 * {@code hw_counters/} files of a port), which see the RoCEv2 traffic that no flow
 * counter sees. It takes one snapshot of the given source when an observation starts and
 * one when it stops, and records the difference of each chosen counter of each chosen
 * port as {@code rdma.observation.port.delta} tagged observation, device, port, counter
 * and {@code overlapped=true} when another selected observation was active on the same
 * port at any time during this one. The deltas are also added to the observation as
 * high-cardinality key values ({@code rdma.<device>.<port>.<counter>} and
 * {@code rdma.<device>.<port>.overlapped}) for its span.
 * <p>
 * The source must read at every snapshot (a read cache time-to-live of zero: a delta over
 * a cached value would be wrong) and only the chosen devices and counters; a snapshot
 * that stalls past its deadline, a device or port not found, a counter file unreadable or
 * a counter that went back (reset, driver reload) records no delta for that port, never a
 * wrong one, and counts {@code rdma.observation.port.read.failures}. A counter name is a
 * file name under {@code counters/}, {@code counters_ext/} or {@code hw_counters/}; a
 * name in two of them is the first one's.
 * <p>
 * Micrometer calls {@code onStop} in the reverse order of registration, so a handler
 * registered after the tracing handler adds its key values before the span ends.
 *
 * @since 0.1.0
 */
public class PortCounterDeltaObservationHandler implements ObservationHandler<Observation.Context>, AutoCloseable {

	/**
	 * The difference of one port counter over one observation, tagged observation,
	 * device, port, counter and overlapped.
	 */
	public static final String COUNTER = "rdma.observation.port.delta";

	/** The port deltas not recorded because a read failed, stalled or went back. */
	public static final String READ_FAILURES = "rdma.observation.port.read.failures";

	private final MeterRegistry meterRegistry;

	private final Set<String> observationNames;

	private final List<Port> ports;

	private final List<String> counters;

	private final HostPortCountersSource source;

	private final List<Overlaps> actives;

	private final Map<String, Meters> meters = new ConcurrentHashMap<>();

	/**
	 * Create a handler.
	 * @param meterRegistry where the deltas are recorded
	 * @param observationNames the names of the observations to handle
	 * @param ports the ports whose counters are read around each of them
	 * @param counters the names of the counters whose deltas are recorded
	 * @param source the port counters, read at every snapshot; closed with this handler
	 * when it is {@link AutoCloseable}
	 */
	public PortCounterDeltaObservationHandler(MeterRegistry meterRegistry, Set<String> observationNames,
			List<Port> ports, List<String> counters, HostPortCountersSource source) {
		this.meterRegistry = meterRegistry;
		this.observationNames = Set.copyOf(observationNames);
		this.ports = List.copyOf(ports);
		this.counters = List.copyOf(counters);
		this.source = source;
		this.actives = Overlaps.of(this.ports.size());
	}

	/**
	 * Return the names of the observations this handler handles.
	 * @return the names
	 */
	public Set<String> observationNames() {
		return this.observationNames;
	}

	/**
	 * Return the ports read around each observation.
	 * @return the ports
	 */
	public List<Port> ports() {
		return this.ports;
	}

	/**
	 * Return the names of the counters whose deltas are recorded.
	 * @return the counter names
	 */
	public List<String> counters() {
		return this.counters;
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		String name = context.getName();
		return name != null && this.observationNames.contains(name);
	}

	@Override
	public void onStart(Observation.Context context) {
		Interval[] intervals = new Interval[this.ports.size()];
		for (int i = 0; i < intervals.length; i++) {
			Interval interval = new Interval();
			// active before the read and until after the last read: reads that overlap
			// lie in intervals that overlap
			this.actives.get(i).enter(interval);
			intervals[i] = interval;
		}
		HostPortCountersSnapshot start = read();
		for (int i = 0; i < intervals.length; i++) {
			intervals[i].start = values(start, this.ports.get(i));
		}
		context.put(this, intervals);
	}

	@Override
	public void onStop(Observation.Context context) {
		if (!(context.remove(this) instanceof Interval[] intervals)) {
			return;
		}
		Meters observationMeters = this.meters.computeIfAbsent(String.valueOf(context.getName()), this::meters);
		HostPortCountersSnapshot end = read();
		for (int i = 0; i < intervals.length; i++) {
			Port port = this.ports.get(i);
			Interval interval = intervals[i];
			this.actives.get(i).leave(interval);
			long @Nullable [] startValues = interval.start;
			long @Nullable [] endValues = values(end, port);
			long @Nullable [] deltas = (startValues != null && endValues != null) ? deltas(startValues, endValues)
					: null;
			if (deltas == null) {
				observationMeters.failures[i].increment();
				continue;
			}
			boolean overlapped = interval.overlapped;
			int slot = overlapped ? 1 : 0;
			String prefix = "rdma." + port.deviceName() + "." + port.port() + ".";
			for (int c = 0; c < deltas.length; c++) {
				observationMeters.summaries[i][c][slot].record(deltas[c]);
				context.addHighCardinalityKeyValue(
						KeyValue.of(prefix + this.counters.get(c), Long.toUnsignedString(deltas[c])));
			}
			context.addHighCardinalityKeyValue(KeyValue.of(prefix + "overlapped", Boolean.toString(overlapped)));
		}
	}

	/**
	 * Close the source when it is {@link AutoCloseable} (a sysfs source keeps files
	 * open).
	 */
	@Override
	public void close() throws Exception {
		if (this.source instanceof AutoCloseable closeable) {
			closeable.close();
		}
	}

	private @Nullable HostPortCountersSnapshot read() {
		try {
			HostPortCountersSnapshot snapshot = this.source.snapshot();
			return (snapshot.stall() != null) ? null : snapshot;
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	/**
	 * The chosen counters of a port in a snapshot, or {@code null} when the snapshot, the
	 * device or the port was not read or a counter has no value.
	 */
	private long @Nullable [] values(@Nullable HostPortCountersSnapshot snapshot, Port port) {
		if (snapshot == null) {
			return null;
		}
		PortCountersSnapshot device = snapshot.device(port.deviceName());
		if (device == null || !device.isPresent() || device.stall() != null) {
			return null;
		}
		PortStatus status = device.port(port.port());
		if (status == null) {
			return null;
		}
		long[] values = new long[this.counters.size()];
		for (int c = 0; c < values.length; c++) {
			Long value = status.counters().get(this.counters.get(c));
			if (value == null) {
				return null;
			}
			values[c] = value;
		}
		return values;
	}

	/**
	 * The differences, or {@code null} when a counter went back (the counters were reset
	 * or re-created): no honest difference.
	 */
	private static long @Nullable [] deltas(long[] start, long[] end) {
		long[] deltas = new long[start.length];
		for (int c = 0; c < deltas.length; c++) {
			// unsigned 64-bit counters
			if (Long.compareUnsigned(end[c], start[c]) < 0) {
				return null;
			}
			deltas[c] = end[c] - start[c];
		}
		return deltas;
	}

	private Meters meters(String observationName) {
		int count = this.ports.size();
		DistributionSummary[][][] summaries = new DistributionSummary[count][this.counters.size()][2];
		Counter[] failures = new Counter[count];
		for (int i = 0; i < count; i++) {
			Port port = this.ports.get(i);
			String portNumber = Integer.toString(port.port());
			for (int c = 0; c < this.counters.size(); c++) {
				for (int slot = 0; slot < 2; slot++) {
					summaries[i][c][slot] = DistributionSummary.builder(COUNTER)
						.description("What one port counter counted during one observation")
						.tags("observation", observationName, "device", port.deviceName(), "port", portNumber,
								"counter", this.counters.get(c), "overlapped", Boolean.toString(slot == 1))
						.register(this.meterRegistry);
				}
			}
			failures[i] = Counter.builder(READ_FAILURES)
				.description("Observation port deltas not recorded because a read of the port counters failed, "
						+ "stalled or went back")
				.tags("observation", observationName, "device", port.deviceName(), "port", portNumber)
				.register(this.meterRegistry);
		}
		return new Meters(summaries, failures);
	}

	/**
	 * A port whose counters are read around each observation.
	 *
	 * @param deviceName the device name
	 * @param port the port number
	 */
	public record Port(String deviceName, int port) {

	}

	/**
	 * The meters of one observation name, by port index, counter index and overlap.
	 */
	private record Meters(DistributionSummary[][][] summaries, Counter[] failures) {
	}

	/**
	 * One observation on one port: its first values and whether another overlapped it.
	 */
	private static final class Interval extends Overlaps.Interval {

		volatile long @Nullable [] start;

	}

}
