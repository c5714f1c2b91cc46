package io.github.rdmacounters.observation;

import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.netlink.QueuePairCounters;
import io.github.rdmacounters.netlink.QueuePairCounters.CounterBinding;

/**
 * {@link ObservationHandler} that records what the selected observations cost the
 * hardware counters of this process's queue pairs ({@link QueuePairCounters}: the kernel
 * counters that count only them, read with an {@code RDMA_NLDEV_CMD_STAT_GET} dump). It
 * reads them fresh when an observation starts and when it stops, and records the
 * difference of each chosen counter, summed over the process's counters of a port, as
 * {@code rdma.observation.queue.pair.delta} tagged observation, device, port, counter and
 * {@code overlapped=true} when another selected observation was active at any time during
 * this one (the counters count every queue pair of the process). The deltas are also
 * added to the observation as high-cardinality key values
 * ({@code rdma.qp.<device>.<port>.<counter>} and
 * {@code rdma.qp.<device>.<port>.overlapped}) for its span. Queue pair numbers are in
 * neither.
 * <p>
 * A port records no delta, never a wrong one, and counts
 * {@code rdma.observation.queue.pair.missed} with a reason: {@code read} when a read
 * failed or stalled past its deadline or a chosen counter was not shown, {@code changed}
 * when the process's counters of the port or the queue pairs bound to them differ between
 * the two reads (a queue pair created, destroyed or bound in between: a counter counts a
 * queue pair only from when it is bound, and a counter freed with its last queue pair
 * takes along what it counted since the last read), {@code backwards} when a value went
 * back. An observation during which the process had no counters at all counts the reason
 * {@code none}.
 *
 * @since 0.1.0
 */
public class QueuePairCounterDeltaObservationHandler implements ObservationHandler<Observation.Context>, AutoCloseable {

	/**
	 * The difference of one counter of this process's queue pairs over one observation,
	 * tagged observation, device, port, counter and overlapped.
	 */
	public static final String COUNTER = "rdma.observation.queue.pair.delta";

	/**
	 * The observations or ports that recorded no delta, tagged observation and reason.
	 */
	public static final String MISSED = "rdma.observation.queue.pair.missed";

	private final MeterRegistry meterRegistry;

	private final Set<String> observationNames;

	private final List<String> counters;

	private final Supplier<QueuePairCounters.Snapshot> source;

	private final AutoCloseable resources;

	private final Overlaps actives = new Overlaps();

	private final Map<String, DistributionSummary> summaries = new ConcurrentHashMap<>();

	private final Map<String, Counter> missed = new ConcurrentHashMap<>();

	/**
	 * Create a handler.
	 * @param meterRegistry where the deltas are recorded
	 * @param observationNames the names of the observations to handle
	 * @param counters the names of the counters whose deltas are recorded
	 * @param source reads the counters of this process's queue pairs, fresh at each call
	 * and never past the read deadline
	 * @param resources what the source reads with, closed with this handler
	 */
	public QueuePairCounterDeltaObservationHandler(MeterRegistry meterRegistry, Set<String> observationNames,
			List<String> counters, Supplier<QueuePairCounters.Snapshot> source, AutoCloseable resources) {
		this.meterRegistry = Objects.requireNonNull(meterRegistry, "meterRegistry");
		this.observationNames = Set.copyOf(observationNames);
		this.counters = List.copyOf(counters);
		this.source = Objects.requireNonNull(source, "source");
		this.resources = Objects.requireNonNull(resources, "resources");
	}

	/**
	 * Return the names of the observations this handler handles.
	 * @return the names
	 */
	public Set<String> observationNames() {
		return this.observationNames;
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
		Interval interval = new Interval();
		// active before the read and until after the last read: reads that overlap lie
		// in intervals that overlap
		this.actives.enter(interval);
		interval.start = read();
		context.put(this, interval);
	}

	@Override
	public void onStop(Observation.Context context) {
		if (!(context.remove(this) instanceof Interval interval)) {
			return;
		}
		String observation = String.valueOf(context.getName());
		QueuePairCounters.@Nullable Snapshot start = interval.start;
		QueuePairCounters.@Nullable Snapshot end = read();
		this.actives.leave(interval);
		if (start == null || end == null) {
			miss(observation, "read");
			return;
		}
		Set<PortKey> ports = new TreeSet<>(Comparator.comparing(PortKey::device).thenComparingInt(PortKey::port));
		start.bindings().forEach((binding) -> ports.add(new PortKey(binding.device(), binding.port())));
		end.bindings().forEach((binding) -> ports.add(new PortKey(binding.device(), binding.port())));
		if (ports.isEmpty()) {
			miss(observation, "none");
			return;
		}
		for (PortKey port : ports) {
			String reason = record(context, observation, interval.overlapped, start, end, port.device(), port.port());
			if (reason != null) {
				miss(observation, reason);
			}
		}
	}

	/**
	 * Record the deltas of one port, or return why there are none.
	 */
	private @Nullable String record(Observation.Context context, String observation, boolean overlapped,
			QueuePairCounters.Snapshot start, QueuePairCounters.Snapshot end, String device, int port) {
		if (start.failures().containsKey(device) || end.failures().containsKey(device)) {
			return "read";
		}
		if (!bindings(start, device, port).equals(bindings(end, device, port))) {
			return "changed";
		}
		long @Nullable [] startValues = values(start, device, port);
		long @Nullable [] endValues = values(end, device, port);
		if (startValues == null || endValues == null) {
			return "read";
		}
		long[] deltas = new long[startValues.length];
		for (int c = 0; c < deltas.length; c++) {
			// unsigned 64-bit counters
			if (Long.compareUnsigned(endValues[c], startValues[c]) < 0) {
				return "backwards";
			}
			deltas[c] = endValues[c] - startValues[c];
		}
		String prefix = "rdma.qp." + device + "." + port + ".";
		for (int c = 0; c < deltas.length; c++) {
			String counter = this.counters.get(c);
			summary(observation, device, port, counter, overlapped).record(deltas[c]);
			context.addHighCardinalityKeyValue(KeyValue.of(prefix + counter, Long.toUnsignedString(deltas[c])));
		}
		context.addHighCardinalityKeyValue(KeyValue.of(prefix + "overlapped", Boolean.toString(overlapped)));
		return null;
	}

	/**
	 * Close what the source reads with: the netlink sockets, and the bindings it made.
	 */
	@Override
	public void close() throws Exception {
		this.resources.close();
	}

	private QueuePairCounters.@Nullable Snapshot read() {
		try {
			QueuePairCounters.Snapshot snapshot = this.source.get();
			return (snapshot.unavailable() != null) ? null : snapshot;
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	private static Set<CounterBinding> bindings(QueuePairCounters.Snapshot snapshot, String device, int port) {
		Set<CounterBinding> bindings = new HashSet<>();
		for (CounterBinding binding : snapshot.bindings()) {
			if (binding.device().equals(device) && binding.port() == port) {
				bindings.add(binding);
			}
		}
		return bindings;
	}

	/**
	 * The chosen counters of a port, summed over the process's counters of the port (the
	 * sums by type: with a counter per queue pair they are there twice), or {@code null}
	 * when one is not shown.
	 */
	private long @Nullable [] values(QueuePairCounters.Snapshot snapshot, String device, int port) {
		Map<String, Long> sums = new TreeMap<>();
		snapshot.values().forEach((group, values) -> {
			if (group.lqpn() == null && group.device().equals(device) && group.port() == port) {
				values.forEach((name, value) -> sums.merge(name, value, Long::sum));
			}
		});
		long[] values = new long[this.counters.size()];
		for (int c = 0; c < values.length; c++) {
			Long value = sums.get(this.counters.get(c));
			if (value == null) {
				return null;
			}
			values[c] = value;
		}
		return values;
	}

	private DistributionSummary summary(String observation, String device, int port, String counter,
			boolean overlapped) {
		String key = String.join("\u0000", observation, device, Integer.toString(port), counter,
				Boolean.toString(overlapped));
		return this.summaries.computeIfAbsent(key,
				(ignored) -> DistributionSummary.builder(COUNTER)
					.description("What one counter of this process's queue pairs counted during one observation")
					.tags("observation", observation, "device", device, "port", Integer.toString(port), "counter",
							counter, "overlapped", Boolean.toString(overlapped))
					.register(this.meterRegistry));
	}

	private void miss(String observation, String reason) {
		this.missed
			.computeIfAbsent(observation + "\u0000" + reason, (ignored) -> Counter.builder(MISSED)
				.description("Observation deltas of this process's queue pair counters not recorded: a read failed or "
						+ "stalled (read), the counters or their queue pairs changed (changed), a value went back "
						+ "(backwards) or there were none (none)")
				.tags("observation", observation, "reason", reason)
				.register(this.meterRegistry))
			.increment();
	}

	private record PortKey(String device, int port) {
	}

	/**
	 * One observation: its first read and whether another overlapped it.
	 */
	private static final class Interval extends Overlaps.Interval {

		volatile QueuePairCounters.@Nullable Snapshot start;

	}

}
