package io.github.rdmacounters.metrics;

import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The meters a binder registered in one registry, removed together when the binder
 * closes. Subclasses synchronise on the registration while they register.
 *
 * @author rdma-counters
 */
abstract class MeterRegistration {

	private final MeterRegistry registry;

	private final List<Meter> meters = new ArrayList<>();

	MeterRegistration(MeterRegistry registry) {
		this.registry = registry;
	}

	final MeterRegistry registry() {
		return this.registry;
	}

	final synchronized void add(Meter meter) {
		this.meters.add(meter);
	}

	final synchronized void remove(Meter meter) {
		this.meters.remove(meter);
		this.registry.remove(meter);
	}

	final synchronized List<Meter> meters() {
		return new ArrayList<>(this.meters);
	}

	/**
	 * Remove the meters of every registration from its registry, and forget the
	 * registrations.
	 * @param registrations the registrations of a binder, which it synchronises on
	 */
	static void removeAll(List<? extends MeterRegistration> registrations) {
		List<MeterRegistration> registered;
		synchronized (registrations) {
			registered = new ArrayList<>(registrations);
			registrations.clear();
		}
		for (MeterRegistration registration : registered) {
			registration.meters().forEach(registration.registry::remove);
		}
	}

}
