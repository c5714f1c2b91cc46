package io.github.rdmacounters.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.NamingConvention;
import io.micrometer.core.instrument.noop.NoopMeter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.metrics.RdmaFlowMetrics.FlowMeter;
import io.github.rdmacounters.metrics.RdmaFlowMetrics.Registration;

/**
 * Moves the flow meters of a {@link PrometheusMeterRegistry} into a
 * {@link RdmaFlowPrometheusCollector}. Only loaded when the Prometheus registry is on the
 * class path.
 * <p>
 * The collector is only used while it is the sole source of its metric names: one binder per
 * registry, and no other meter whose Prometheus name is one the collector serves. When such a
 * meter is added later, the collector is unregistered and the flow meters are registered again
 * as ordinary Micrometer meters, so that a scrape never fails on a duplicate name. A registry
 * that fell back this way keeps ordinary meters for every binder bound to it later.
 *
 * @author rdma-counters
 */
final class PrometheusFlowExport {

	/** Registries with an active flow collector, or that fell back to ordinary meters. */
	private static final Set<MeterRegistry> CLAIMED = Collections.newSetFromMap(new WeakHashMap<>());

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
	 * Serve the flow meters just registered on a Prometheus registry through a collector and
	 * remove them from the registry, when the collector can be the sole source of its names;
	 * otherwise keep them as ordinary meters. Meters that a filter denied stay out.
	 * @param registry the Prometheus registry
	 * @param meters the meters just registered on it
	 * @return what to undo on close
	 */
	static Registration moveToCollector(MeterRegistry registry, List<FlowMeter> meters) {
		PrometheusMeterRegistry prometheus = (PrometheusMeterRegistry) registry;
		Registration plain = new Registration(registry, meters.stream().map(FlowMeter::meter).toList(), null);
		List<FlowMeter> served = new ArrayList<>(meters.size());
		for (FlowMeter meter : meters) {
			if (!(meter.meter() instanceof NoopMeter)) {
				served.add(meter);
			}
		}
		if (served.isEmpty()) {
			return plain;
		}
		NamingConvention convention = prometheus.config().namingConvention();
		RdmaFlowPrometheusCollector collector = new RdmaFlowPrometheusCollector(served, convention);
		Export export = new Export(prometheus, collector, served, convention);
		if (export.hasForeignMeter() || !claim(prometheus)) {
			return plain;
		}
		PrometheusRegistry prometheusRegistry = prometheus.getPrometheusRegistry();
		try {
			prometheusRegistry.register(collector);
		}
		catch (RuntimeException ex) {
			// Another collector serves one of the names: keep the Micrometer meters
			release(prometheus);
			return plain;
		}
		served.forEach((meter) -> prometheus.remove(meter.meter()));
		export.activate();
		return new Registration(registry, List.of(), export::close);
	}

	private static boolean claim(MeterRegistry registry) {
		synchronized (CLAIMED) {
			return CLAIMED.add(registry);
		}
	}

	private static void release(MeterRegistry registry) {
		synchronized (CLAIMED) {
			CLAIMED.remove(registry);
		}
	}

	/**
	 * Return the base of the Prometheus metric name of a meter: its convention name without a
	 * {@code _total} suffix.
	 */
	private static String baseName(Meter.Id id, NamingConvention convention) {
		String name = id.getConventionName(convention);
		return name.endsWith("_total") ? name.substring(0, name.length() - "_total".length()) : name;
	}

	/**
	 * A collector registered for one binding, and its fallback to ordinary meters. The lock
	 * guards state only: registry calls are made outside it, because meter-added listeners
	 * run while the registry holds its own lock.
	 */
	private static final class Export {

		private enum State {

			PENDING, ACTIVE, FALLEN_BACK, CLOSED

		}

		private final PrometheusMeterRegistry registry;

		private final RdmaFlowPrometheusCollector collector;

		private final List<FlowMeter> served;

		private final Set<Meter> servedMeters = Collections.newSetFromMap(new IdentityHashMap<>());

		private final List<String> baseNames;

		private final NamingConvention convention;

		private final Object lock = new Object();

		private State state = State.PENDING;

		private List<Meter> fallbackMeters = List.of();

		private volatile @Nullable Listener listener;

		Export(PrometheusMeterRegistry registry, RdmaFlowPrometheusCollector collector, List<FlowMeter> served,
				NamingConvention convention) {
			this.registry = registry;
			this.collector = collector;
			this.served = served;
			this.convention = convention;
			List<String> baseNames = new ArrayList<>();
			for (FlowMeter meter : served) {
				this.servedMeters.add(meter.meter());
				String name = baseName(meter.meter().getId(), convention);
				if (!baseNames.contains(name)) {
					baseNames.add(name);
				}
			}
			this.baseNames = List.copyOf(baseNames);
		}

		boolean conflicts(Meter meter) {
			if (this.servedMeters.contains(meter)) {
				return false;
			}
			String name = meter.getId().getConventionName(this.convention);
			for (String base : this.baseNames) {
				if (name.equals(base) || name.startsWith(base + "_")) {
					return true;
				}
			}
			return false;
		}

		boolean hasForeignMeter() {
			for (Meter meter : this.registry.getMeters()) {
				if (conflicts(meter)) {
					return true;
				}
			}
			return false;
		}

		void activate() {
			synchronized (this.lock) {
				this.state = State.ACTIVE;
			}
			Listener listener = new Listener(this);
			this.listener = listener;
			this.registry.config().onMeterAdded(listener);
			// A meter added between the first check and the listener
			if (hasForeignMeter()) {
				fallBack(null);
			}
		}

		/**
		 * Unregister the collector and register the flow meters again as ordinary meters.
		 * @param added the meter being added that caused it; it is not in the registry yet, so
		 * a flow meter with its id is that meter
		 */
		void fallBack(@Nullable Meter added) {
			synchronized (this.lock) {
				if (this.state != State.ACTIVE) {
					return;
				}
				this.state = State.FALLEN_BACK;
			}
			this.registry.getPrometheusRegistry().unregister(this.collector);
			List<Meter> meters = new ArrayList<>(this.served.size());
			for (FlowMeter meter : this.served) {
				if (added != null && added.getId().equals(meter.meter().getId())) {
					meters.add(added);
				}
				else {
					meters.add(meter.series().register(this.registry, meter.set(), meter.tags()));
				}
			}
			boolean closed;
			synchronized (this.lock) {
				closed = this.state == State.CLOSED;
				this.fallbackMeters = meters;
			}
			if (closed) {
				meters.forEach(this.registry::remove);
			}
		}

		void close() {
			State previous;
			List<Meter> meters;
			synchronized (this.lock) {
				previous = this.state;
				this.state = State.CLOSED;
				meters = this.fallbackMeters;
			}
			Listener listener = this.listener;
			if (listener != null) {
				// The registry keeps its listeners: let this one drop the counter sets
				listener.export = null;
			}
			if (previous == State.ACTIVE) {
				this.registry.getPrometheusRegistry().unregister(this.collector);
				release(this.registry);
			}
			meters.forEach(this.registry::remove);
		}

		boolean isActive() {
			synchronized (this.lock) {
				return this.state == State.ACTIVE;
			}
		}

	}

	/**
	 * Meter-added listener of a registry. Listeners cannot be removed from a registry, so it
	 * drops its export when the export is closed or has fallen back.
	 */
	private static final class Listener implements java.util.function.Consumer<Meter> {

		private volatile @Nullable Export export;

		Listener(Export export) {
			this.export = export;
		}

		@Override
		public void accept(Meter meter) {
			Export export = this.export;
			if (export == null) {
				return;
			}
			if (!export.isActive()) {
				this.export = null;
				return;
			}
			if (export.conflicts(meter)) {
				this.export = null;
				export.fallBack(meter);
			}
		}

	}

}
