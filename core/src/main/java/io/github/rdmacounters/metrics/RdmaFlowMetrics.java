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
 * {@link MeterBinder} for the flow counter sets: {@code rdma.flow.packets},
 * {@code rdma.flow.bytes} and {@code rdma.flow.read.failures} per set. The meters of a
 * set share its memoised {@link CounterSet#read()}, so a scrape reads each set once. The
 * binder holds the sets strongly (meters hold them weakly) and removes its meters on
 * {@link #close()}.
 *
 * @since 0.1.0
 */
public class RdmaFlowMetrics implements MeterBinder, AutoCloseable {

	public static final String PACKETS = "rdma.flow.packets";

	public static final String BYTES = "rdma.flow.bytes";

	public static final String READ_FAILURES = "rdma.flow.read.failures";

	private final List<CounterSet> sets;

	private final Iterable<Tag> tags;

	private final Object lock = new Object();

	private final List<Registration> registrations = new ArrayList<>();

	public RdmaFlowMetrics(RdmaRegistry registry) {
		this(registry, Tags.empty());
	}

	/**
	 * Create a binder for every counter set of the registry.
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

	/** Remove the meters this binder registered. */
	@Override
	public void close() {
		synchronized (this.lock) {
			for (Registration registration : this.registrations) {
				registration.meters().forEach(registration.registry()::remove);
			}
			this.registrations.clear();
		}
	}

	record Registration(MeterRegistry registry, List<Meter> meters) {

	}

	enum FlowSeries {

		PACKETS_SERIES(PACKETS, "packets", "Packets matched by the flow of the counter set", CounterType.PACKETS) {
			@Override
			long value(CounterSetReading reading) {
				return reading.value(CounterType.PACKETS);
			}
		},

		BYTES_SERIES(BYTES, "bytes", "Bytes of the packets matched by the flow of the counter set", CounterType.BYTES) {
			@Override
			long value(CounterSetReading reading) {
				return reading.value(CounterType.BYTES);
			}
		},

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
			return FunctionCounter.builder(this.meterName, set, (s) -> {
				CounterSetReading reading = s.read();
				return (reading.stall() != null) ? Double.NaN : value(reading);
			}).baseUnit(this.baseUnit).description(this.description).tags(tags).register(registry);
		}

	}

}
