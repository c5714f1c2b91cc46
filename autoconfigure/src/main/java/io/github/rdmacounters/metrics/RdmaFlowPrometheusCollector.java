package io.github.rdmacounters.metrics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.NamingConvention;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterSetReading;
import io.github.rdmacounters.metrics.RdmaFlowMetrics.FlowMeter;
import io.github.rdmacounters.metrics.RdmaFlowMetrics.FlowSeries;

/**
 * Prometheus client {@link MultiCollector} that serves the flow counter series of
 * {@link RdmaFlowMetrics} straight to the Prometheus registry of a
 * {@code PrometheusMeterRegistry}, with the names, help texts, labels and values the
 * Micrometer meters would have. Each series' name and labels come from the meter that the
 * registry created for it (after its filters and naming convention) and are built once; the
 * points of each metric are kept in label order. A scrape reads each set once and creates one
 * data point per series, skipping Micrometer's per-meter work.
 * <p>
 * The help text is the meter's description whether or not the registry's configuration
 * turns descriptions off: the collector cannot see that configuration.
 *
 * @author rdma-counters
 */
final class RdmaFlowPrometheusCollector implements MultiCollector {

	private final CounterSet[] sets;

	private final List<Family> families;

	private final List<String> names;

	/**
	 * Create a collector for meters a Prometheus registry created.
	 * @param meters the meters, none of them a no-op meter
	 * @param convention the registry's naming convention
	 */
	RdmaFlowPrometheusCollector(List<FlowMeter> meters, NamingConvention convention) {
		Map<CounterSet, Integer> setIndexes = new IdentityHashMap<>();
		List<CounterSet> sets = new ArrayList<>();
		Map<String, List<Point>> pointsByName = new LinkedHashMap<>();
		Map<String, MetricMetadata> metadataByName = new LinkedHashMap<>();
		for (FlowMeter meter : meters) {
			Meter.Id id = meter.meter().getId();
			String name = id.getConventionName(convention);
			List<String> keys = new ArrayList<>();
			List<String> values = new ArrayList<>();
			for (Tag tag : id.getConventionTags(convention)) {
				keys.add(tag.getKey());
				values.add(tag.getValue());
			}
			Integer setIndex = setIndexes.computeIfAbsent(meter.set(), (set) -> {
				sets.add(set);
				return sets.size() - 1;
			});
			pointsByName.computeIfAbsent(name, (key) -> new ArrayList<>())
				.add(new Point(setIndex, meter.series(), Labels.of(keys, values)));
			metadataByName.computeIfAbsent(name, (key) -> new MetricMetadata(metricName(key),
					(id.getDescription() != null) ? id.getDescription() : ""));
		}
		this.sets = sets.toArray(CounterSet[]::new);
		List<Family> families = new ArrayList<>();
		pointsByName.forEach((name, points) -> {
			points.sort(Comparator.comparing(Point::labels));
			families.add(new Family(metadataByName.get(name), List.copyOf(points)));
		});
		this.families = List.copyOf(families);
		this.names = List.copyOf(pointsByName.keySet());
	}

	private static String metricName(String conventionName) {
		return conventionName.endsWith("_total")
				? conventionName.substring(0, conventionName.length() - "_total".length()) : conventionName;
	}

	@Override
	public MetricSnapshots collect() {
		CounterSetReading[] readings = new CounterSetReading[this.sets.length];
		for (int i = 0; i < readings.length; i++) {
			readings[i] = this.sets[i].read();
		}
		List<MetricSnapshot> snapshots = new ArrayList<>(this.families.size());
		for (Family family : this.families) {
			List<CounterDataPointSnapshot> dataPoints = new ArrayList<>(family.points().size());
			for (Point point : family.points()) {
				dataPoints.add(new CounterDataPointSnapshot(point.series().value(readings[point.setIndex()]),
						point.labels(), null, 0L));
			}
			snapshots.add(new CounterSnapshot(family.metadata(), dataPoints));
		}
		return new MetricSnapshots(snapshots);
	}

	@Override
	public List<String> getPrometheusNames() {
		return this.names;
	}

	private record Family(MetricMetadata metadata, List<Point> points) {

	}

	private record Point(int setIndex, FlowSeries series, Labels labels) {

	}

}
