package io.github.rdmacounters.metrics;

import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.RdmaRegistry;

/**
 * {@link MeterBinder} for the flow counter sets: per set, a {@link FunctionCounter}
 * {@code rdma.flow.packets} and {@code rdma.flow.bytes} for the counter types the set counts,
 * and {@code rdma.flow.read.failures}, tagged with {@code device}, {@code port} and
 * {@code set}. In Prometheus they appear as {@code rdma_flow_packets_total},
 * {@code rdma_flow_bytes_total} and {@code rdma_flow_read_failures_total}.
 * <p>
 * Every meter of a set asks the set's memoised {@link CounterSet#read()}, so one scrape
 * reads each set once when the read cache time-to-live covers the scrape. A failed read
 * leaves the counters at their last good values and counts a failure. The binder holds the
 * sets strongly (meters hold them weakly) and removes its meters on {@link #close()}.
 *
 * @author rdma-counters
 */
public class RdmaFlowMetrics implements MeterBinder, AutoCloseable {

	/** Name of the packet counter. */
	public static final String PACKETS = "rdma.flow.packets";

	/** Name of the byte counter. */
	public static final String BYTES = "rdma.flow.bytes";

	/** Name of the failed read counter. */
	public static final String READ_FAILURES = "rdma.flow.read.failures";

	private final List<CounterSet> sets;

	private final Iterable<Tag> tags;

	private final List<Registration> registrations = new ArrayList<>();

	/**
	 * Create a binder for every counter set of the registry.
	 * @param registry the devices and their counter sets
	 */
	public RdmaFlowMetrics(RdmaRegistry registry) {
		this(registry, Tags.empty());
	}

	/**
	 * Create a binder for every counter set of the registry, with extra tags.
	 * @param registry the devices and their counter sets
	 * @param tags tags added to every meter
	 */
	public RdmaFlowMetrics(RdmaRegistry registry, Iterable<Tag> tags) {
		this.sets = List.copyOf(registry.counterSets());
		this.tags = tags;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		List<Meter> meters = new ArrayList<>();
		for (CounterSet set : this.sets) {
			Tags setTags = Tags.of(this.tags)
				.and("device", set.deviceName())
				.and("port", String.valueOf(set.port()))
				.and("set", set.name());
			if (set.indexes().containsKey(CounterType.PACKETS)) {
				meters.add(FunctionCounter.builder(PACKETS, set, (s) -> s.read().value(CounterType.PACKETS))
					.baseUnit("packets")
					.description("Packets matched by the flow of the counter set")
					.tags(setTags)
					.register(registry));
			}
			if (set.indexes().containsKey(CounterType.BYTES)) {
				meters.add(FunctionCounter.builder(BYTES, set, (s) -> s.read().value(CounterType.BYTES))
					.baseUnit("bytes")
					.description("Bytes of the packets matched by the flow of the counter set")
					.tags(setTags)
					.register(registry));
			}
			meters.add(FunctionCounter.builder(READ_FAILURES, set, (s) -> s.read().failedReads())
				.description("Reads of the counter set that failed")
				.tags(setTags)
				.register(registry));
		}
		synchronized (this.registrations) {
			this.registrations.add(new Registration(registry, meters));
		}
	}

	/**
	 * Remove the meters this binder registered from every registry it was bound to.
	 */
	@Override
	public void close() {
		List<Registration> registrations;
		synchronized (this.registrations) {
			registrations = new ArrayList<>(this.registrations);
			this.registrations.clear();
		}
		for (Registration registration : registrations) {
			registration.meters().forEach(registration.registry()::remove);
		}
	}

	private record Registration(MeterRegistry registry, List<Meter> meters) {

	}

}
