package io.github.rdmacounters.metrics;

import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterSetReading;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.RdmaRegistry;

/**
 * {@link MeterBinder} for the flow counter sets: per set, a {@link FunctionCounter}
 * {@code rdma.flow.packets} and {@code rdma.flow.bytes} for the counter types the set
 * counts, and {@code rdma.flow.read.failures}, tagged with {@code device}, {@code port}
 * and {@code set}. In Prometheus they appear as {@code rdma_flow_packets_total},
 * {@code rdma_flow_bytes_total} and {@code rdma_flow_read_failures_total}.
 * <p>
 * Every meter of a set asks the set's memoised {@link CounterSet#read()}, so one scrape
 * reads each set once when the read cache time-to-live covers the scrape. A failed read
 * leaves the counters at their last good values and counts a failure. The binder holds
 * the sets strongly (meters hold them weakly) and removes its meters on {@link #close()}.
 * Binding to a registry the binder is already bound to does nothing.
 *
 * @since 0.1.0
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

	private final Object lock = new Object();

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
		synchronized (this.lock) {
			for (Registration registration : this.registrations) {
				if (registration.registry() == registry) {
					return;
				}
			}
			List<Meter> meters = new ArrayList<>();
			for (CounterSet set : this.sets) {
				Tags setTags = Tags.of(this.tags)
					.and("device", set.deviceName())
					.and("port", String.valueOf(set.port()))
					.and("set", set.name());
				for (FlowSeries series : FlowSeries.values()) {
					if (series.appliesTo(set)) {
						meters.add(series.register(registry, set, setTags));
					}
				}
			}
			this.registrations.add(new Registration(registry, meters));
		}
	}

	/**
	 * Remove the meters this binder registered from every registry it was bound to.
	 */
	@Override
	public void close() {
		synchronized (this.lock) {
			for (Registration registration : this.registrations) {
				registration.meters().forEach(registration.registry()::remove);
			}
			this.registrations.clear();
		}
	}

	/**
	 * What one registry got from this binder.
	 *
	 * @param registry the registry
	 * @param meters the meters to remove on close
	 */
	record Registration(MeterRegistry registry, List<Meter> meters) {

	}

	/**
	 * The three series of a set: name, unit, description and value.
	 */
	enum FlowSeries {

		/** Packets matched by the flow. */
		PACKETS_SERIES(PACKETS, "packets", "Packets matched by the flow of the counter set", CounterType.PACKETS) {
			@Override
			long value(CounterSetReading reading) {
				return reading.value(CounterType.PACKETS);
			}
		},

		/** Bytes of the packets matched by the flow. */
		BYTES_SERIES(BYTES, "bytes", "Bytes of the packets matched by the flow of the counter set", CounterType.BYTES) {
			@Override
			long value(CounterSetReading reading) {
				return reading.value(CounterType.BYTES);
			}
		},

		/** Failed reads. */
		READ_FAILURES_SERIES(READ_FAILURES, null, "Reads of the counter set that failed", null) {
			@Override
			long value(CounterSetReading reading) {
				return reading.failedReads();
			}
		};

		private final String meterName;

		private final @Nullable String baseUnit;

		private final String description;

		private final @Nullable CounterType type;

		FlowSeries(String meterName, @Nullable String baseUnit, String description, @Nullable CounterType type) {
			this.meterName = meterName;
			this.baseUnit = baseUnit;
			this.description = description;
			this.type = type;
		}

		boolean appliesTo(CounterSet set) {
			return this.type == null || set.indexes().containsKey(this.type);
		}

		abstract long value(CounterSetReading reading);

		Meter register(MeterRegistry registry, CounterSet set, Tags tags) {
			return FunctionCounter.builder(this.meterName, set, (s) -> value(s.read()))
				.baseUnit(this.baseUnit)
				.description(this.description)
				.tags(tags)
				.register(registry);
		}

	}

}
