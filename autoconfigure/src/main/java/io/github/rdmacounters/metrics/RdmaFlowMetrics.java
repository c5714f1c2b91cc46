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

import org.springframework.util.ClassUtils;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterSetReading;
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
 * <p>
 * On a Prometheus registry ({@code io.micrometer.prometheusmetrics.PrometheusMeterRegistry},
 * when it is on the class path) the series are served by a Prometheus client collector
 * instead of the Micrometer meters, unless the binder was created with
 * {@code prometheusCollector} false: the meters are registered first, so the registry's meter
 * filters (common tags, renames, denials) and naming convention decide each series' name and
 * labels, then the collector is registered and, only when that succeeded, the meters are
 * removed from the registry. The collector reads each set once per scrape with labels built
 * once, skipping Micrometer's per-meter work (see the {@code PrometheusScrapeBenchmark}
 * results). The Prometheus text is the same, except that the collector always writes the
 * meter descriptions as help text, also when the registry's configuration turns descriptions
 * off. The series then are not listed by the registry's {@code getMeters()} (nor by Boot's
 * metrics endpoint). The collector is used only while it is the sole source of its names: a
 * second binder on the same registry gets ordinary meters, and another meter whose name the
 * collector serves (a user meter, or the meters of a composite registry holding the Prometheus
 * registry) makes the binder go back to ordinary meters, so that a scrape never fails on a
 * duplicate name.
 * Binding to a registry the binder is already bound to does nothing.
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

	private static final boolean PROMETHEUS_PRESENT = isPresent("io.micrometer.prometheusmetrics.PrometheusMeterRegistry")
			&& isPresent("io.prometheus.metrics.model.registry.MultiCollector");

	private final List<CounterSet> sets;

	private final Iterable<Tag> tags;

	private final boolean prometheusCollector;

	private final Object lock = new Object();

	private final List<Registration> registrations = new ArrayList<>();

	private static boolean isPresent(String className) {
		return ClassUtils.isPresent(className, RdmaFlowMetrics.class.getClassLoader());
	}

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
		this(registry, tags, true);
	}

	/**
	 * Create a binder for every counter set of the registry, with extra tags.
	 * @param registry the devices and their counter sets
	 * @param tags tags added to every meter
	 * @param prometheusCollector whether a Prometheus registry gets the series through a
	 * collector that reads each set once per scrape; when {@code false} they are ordinary
	 * meters there too
	 */
	public RdmaFlowMetrics(RdmaRegistry registry, Iterable<Tag> tags, boolean prometheusCollector) {
		this.sets = List.copyOf(registry.counterSets());
		this.tags = tags;
		this.prometheusCollector = prometheusCollector;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		synchronized (this.lock) {
			for (Registration registration : this.registrations) {
				if (registration.registry() == registry) {
					return;
				}
			}
			List<FlowMeter> meters = new ArrayList<>();
			for (CounterSet set : this.sets) {
				Tags setTags = Tags.of(this.tags)
					.and("device", set.deviceName())
					.and("port", String.valueOf(set.port()))
					.and("set", set.name());
				for (FlowSeries series : FlowSeries.values()) {
					if (series.appliesTo(set)) {
						meters.add(new FlowMeter(series.register(registry, set, setTags), set, series, setTags));
					}
				}
			}
			Registration registration = (this.prometheusCollector && PROMETHEUS_PRESENT
					&& PrometheusFlowExport.supports(registry))
							? PrometheusFlowExport.moveToCollector(registry, meters)
							: new Registration(registry, meters.stream().map(FlowMeter::meter).toList(), null);
			this.registrations.add(registration);
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
				Runnable onClose = registration.onClose();
				if (onClose != null) {
					onClose.run();
				}
			}
			this.registrations.clear();
		}
	}

	/**
	 * A meter of a set and which series it is.
	 * @param meter the registered meter, or a no-op meter if a filter denied it
	 * @param set the counter set
	 * @param series the series
	 * @param tags the tags it was registered with, before the registry's filters
	 */
	record FlowMeter(Meter meter, CounterSet set, FlowSeries series, Tags tags) {

	}

	/**
	 * What one registry got from this binder.
	 * @param registry the registry
	 * @param meters the meters to remove on close
	 * @param onClose what else to undo on close
	 */
	record Registration(MeterRegistry registry, List<Meter> meters, @Nullable Runnable onClose) {

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
