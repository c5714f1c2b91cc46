package io.github.rdmacounters.metrics;

import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.noop.NoopMeter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import io.github.rdmacounters.metrics.RdmaFlowMetrics.FlowMeter;
import io.github.rdmacounters.metrics.RdmaFlowMetrics.Registration;

/**
 * Moves the flow meters of a {@link PrometheusMeterRegistry} into a
 * {@link RdmaFlowPrometheusCollector}. Only loaded when the Prometheus registry is on the
 * class path.
 *
 * @author rdma-counters
 */
final class PrometheusFlowExport {

	private PrometheusFlowExport() {
	}

	/**
	 * Return whether the registry is a Prometheus registry whose flow meters can be served by
	 * a collector.
	 * @param registry the registry
	 * @return {@code true} for a {@link PrometheusMeterRegistry}
	 */
	static boolean supports(MeterRegistry registry) {
		return registry instanceof PrometheusMeterRegistry;
	}

	/**
	 * Remove the flow meters from the Prometheus registry and register a collector that
	 * serves the same series. Meters that a filter denied stay out.
	 * @param registry the Prometheus registry
	 * @param meters the meters just registered on it
	 * @return what to undo on close
	 */
	static Registration moveToCollector(MeterRegistry registry, List<FlowMeter> meters) {
		PrometheusMeterRegistry prometheus = (PrometheusMeterRegistry) registry;
		List<FlowMeter> served = new ArrayList<>(meters.size());
		for (FlowMeter meter : meters) {
			if (!(meter.meter() instanceof NoopMeter)) {
				served.add(meter);
			}
		}
		if (served.isEmpty()) {
			return new Registration(registry, List.of(), null);
		}
		RdmaFlowPrometheusCollector collector = new RdmaFlowPrometheusCollector(served,
				prometheus.config().namingConvention());
		served.forEach((meter) -> prometheus.remove(meter.meter()));
		PrometheusRegistry prometheusRegistry = prometheus.getPrometheusRegistry();
		prometheusRegistry.register(collector);
		return new Registration(registry, List.of(), () -> prometheusRegistry.unregister(collector));
	}

}
