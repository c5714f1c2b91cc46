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

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterSetReading;
import io.github.rdmacounters.core.CounterType;

/**
 * {@link ObservationHandler} that records what the selected observations cost the chosen
 * counter sets: it reads each set {@linkplain CounterSet#readFresh() fresh} when an
 * observation starts and again when it stops, and records the difference as
 * {@code rdma.observation.packets} and {@code rdma.observation.bytes} per observation
 * name and set, tagged {@code overlapped=true} when another selected observation was
 * active on the same set at any time during this one (a counter counts all the traffic
 * that matches it, so both see each other's). The deltas are also added to the
 * observation as high-cardinality key values ({@code rdma.<set>.packets},
 * {@code rdma.<set>.bytes}, {@code rdma.<set>.overlapped}): a tracing handler puts them
 * on the span, meter handlers leave them out.
 * <p>
 * A read that fails, stalls past the read deadline or finds the counters closed records
 * no delta for that set, never a wrong one, nor does an observation during which another
 * read of the set failed (the device may have been reopened and lost traffic);
 * {@code rdma.observation.read.failures} counts the deltas lost to failed and stalled
 * reads. Only observations whose name is selected are handled: each costs two reads of
 * every chosen set (a firmware command each on mlx5), so selecting every HTTP request is
 * a mistake.
 * <p>
 * Micrometer calls {@code onStop} in the reverse order of registration, so a handler
 * registered after the tracing handler (as Spring Boot registers handlers outside its
 * groups) adds its key values before the span ends.
 *
 * @since 0.1.0
 */
public class CounterDeltaObservationHandler implements ObservationHandler<Observation.Context> {

	/** The packets per observation, tagged observation, set and overlapped. */
	public static final String PACKETS = "rdma.observation.packets";

	/** The bytes per observation, tagged observation, set and overlapped. */
	public static final String BYTES = "rdma.observation.bytes";

	/** The deltas not recorded because a read failed or stalled. */
	public static final String READ_FAILURES = "rdma.observation.read.failures";

	private final MeterRegistry meterRegistry;

	private final Set<String> observationNames;

	private final List<CounterSet> sets;

	private final List<Overlaps> actives;

	private final Map<String, Meters> meters = new ConcurrentHashMap<>();

	/**
	 * Create a handler.
	 * @param meterRegistry where the deltas are recorded
	 * @param observationNames the names of the observations to handle
	 * @param sets the counter sets to read around each of them
	 */
	public CounterDeltaObservationHandler(MeterRegistry meterRegistry, Set<String> observationNames,
			List<CounterSet> sets) {
		this.meterRegistry = meterRegistry;
		this.observationNames = Set.copyOf(observationNames);
		this.sets = List.copyOf(sets);
		this.actives = Overlaps.of(this.sets.size());
	}

	/**
	 * Return the names of the observations this handler handles.
	 * @return the names
	 */
	public Set<String> observationNames() {
		return this.observationNames;
	}

	/**
	 * Return the counter sets read around each observation.
	 * @return the sets
	 */
	public List<CounterSet> sets() {
		return this.sets;
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		String name = context.getName();
		return name != null && this.observationNames.contains(name);
	}

	@Override
	public void onStart(Observation.Context context) {
		Interval[] intervals = new Interval[this.sets.size()];
		for (int i = 0; i < intervals.length; i++) {
			Interval interval = new Interval();
			// active before the first read and until after the last read: reads that
			// overlap lie in intervals that overlap
			this.actives.get(i).enter(interval);
			intervals[i] = interval;
		}
		for (int i = 0; i < intervals.length; i++) {
			intervals[i].start = this.sets.get(i).readFresh();
		}
		context.put(this, intervals);
	}

	@Override
	public void onStop(Observation.Context context) {
		if (!(context.remove(this) instanceof Interval[] intervals)) {
			return;
		}
		Meters observationMeters = this.meters.computeIfAbsent(String.valueOf(context.getName()), this::meters);
		for (int i = 0; i < intervals.length; i++) {
			CounterSet set = this.sets.get(i);
			CounterSetReading end = set.readFresh();
			Interval interval = intervals[i];
			this.actives.get(i).leave(interval);
			CounterSetReading start = interval.start;
			if (start == null) {
				continue;
			}
			if (!usable(start) || !usable(end)) {
				if (failed(start) || failed(end)) {
					observationMeters.failures[i].increment();
				}
				continue;
			}
			if (end.failedReads() != start.failedReads()) {
				// a read failed in between: the device may have been reopened, and the
				// traffic while it was down is not in the counters
				observationMeters.failures[i].increment();
				continue;
			}
			long packets = delta(start, end, CounterType.PACKETS);
			long bytes = delta(start, end, CounterType.BYTES);
			if (packets < 0 || bytes < 0) {
				// the counters went back (re-created after a reset): no honest difference
				observationMeters.failures[i].increment();
				continue;
			}
			boolean overlapped = interval.overlapped;
			int slot = overlapped ? 1 : 0;
			DistributionSummary packetsSummary = observationMeters.packets[i][slot];
			if (packetsSummary != null) {
				packetsSummary.record(packets);
				context
					.addHighCardinalityKeyValue(KeyValue.of("rdma." + set.name() + ".packets", Long.toString(packets)));
			}
			DistributionSummary bytesSummary = observationMeters.bytes[i][slot];
			if (bytesSummary != null) {
				bytesSummary.record(bytes);
				context.addHighCardinalityKeyValue(KeyValue.of("rdma." + set.name() + ".bytes", Long.toString(bytes)));
			}
			context.addHighCardinalityKeyValue(
					KeyValue.of("rdma." + set.name() + ".overlapped", Boolean.toString(overlapped)));
		}
	}

	private static boolean usable(CounterSetReading reading) {
		return reading.isSuccess() && reading.stall() == null && !reading.isClosed();
	}

	private static boolean failed(CounterSetReading reading) {
		return !reading.isClosed() && (!reading.isSuccess() || reading.stall() != null);
	}

	private static long delta(CounterSetReading start, CounterSetReading end, CounterType type) {
		if (!start.has(type)) {
			return 0;
		}
		return end.value(type) - start.value(type);
	}

	private DistributionSummary summary(String name, String description, String unit, String observationName,
			String set, String overlapped) {
		return DistributionSummary.builder(name)
			.description(description)
			.baseUnit(unit)
			.tags("observation", observationName, "set", set, "overlapped", overlapped)
			.register(this.meterRegistry);
	}

	private boolean counts(int set, CounterType type) {
		return this.sets.get(set).indexes().containsKey(type);
	}

	private Meters meters(String observationName) {
		int count = this.sets.size();
		@Nullable DistributionSummary[][] packets = new DistributionSummary[count][2];
		@Nullable DistributionSummary[][] bytes = new DistributionSummary[count][2];
		Counter[] failures = new Counter[count];
		for (int i = 0; i < count; i++) {
			String set = this.sets.get(i).name();
			for (int slot = 0; slot < 2; slot++) {
				String overlapped = Boolean.toString(slot == 1);
				packets[i][slot] = counts(i, CounterType.PACKETS)
						? summary(PACKETS, "Packets the counter set counted during one observation", "packets",
								observationName, set, overlapped)
						: null;
				bytes[i][slot] = counts(i, CounterType.BYTES)
						? summary(BYTES, "Bytes the counter set counted during one observation", "bytes",
								observationName, set, overlapped)
						: null;
			}
			failures[i] = Counter.builder(READ_FAILURES)
				.description("Observation deltas not recorded because a read of the counter set failed or stalled")
				.tags("observation", observationName, "set", set)
				.register(this.meterRegistry);
		}
		return new Meters(packets, bytes, failures);
	}

	/**
	 * The meters of one observation name, by set index and overlap; no summary for a
	 * counter type that the set does not count.
	 */
	private record Meters(@Nullable DistributionSummary[][] packets, @Nullable DistributionSummary[][] bytes,
			Counter[] failures) {
	}

	/**
	 * One observation on one set: its first reading and whether another overlapped it.
	 */
	private static final class Interval extends Overlaps.Interval {

		volatile @Nullable CounterSetReading start;

	}

}
