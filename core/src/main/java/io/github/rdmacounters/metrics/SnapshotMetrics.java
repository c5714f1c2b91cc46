package io.github.rdmacounters.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

/**
 * A binder whose meters follow what its source's snapshots show: a port seen for the
 * first time, a new queue pair type. Each registry has a {@link Registration} that
 * registers the meters of what a new snapshot shows first when the binder's own gauge is
 * read (once per scrape), so that hotplug needs no restart and cardinality stays bounded
 * by what was seen. Removes its meters on {@link #close()}.
 *
 * @param <S> the source
 * @param <P> its snapshot
 * @author rdma-counters
 */
abstract class SnapshotMetrics<S, P> implements MeterBinder, AutoCloseable {

	final S source;

	final Iterable<Tag> tags;

	private final String gaugeName;

	private final String gaugeDescription;

	private final List<Registration> registrations = new ArrayList<>();

	SnapshotMetrics(S source, Iterable<Tag> tags, String gaugeName, String gaugeDescription) {
		this.source = Objects.requireNonNull(source, "source");
		this.tags = tags;
		this.gaugeName = gaugeName;
		this.gaugeDescription = gaugeDescription;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Registration registration = registration(registry);
		synchronized (this.registrations) {
			this.registrations.add(registration);
		}
		registration.refresh();
		registration.add(Gauge.builder(this.gaugeName, this.source, (source) -> registration.refresh())
			.description(this.gaugeDescription)
			.tags(this.tags)
			.register(registry));
	}

	/**
	 * Remove the meters this binder registered.
	 */
	@Override
	public void close() {
		MeterRegistration.removeAll(this.registrations);
	}

	abstract Registration registration(MeterRegistry registry);

	/**
	 * Return the source's current snapshot.
	 * @return the snapshot, the same instance while it is memoised
	 */
	abstract P snapshot();

	/** The meters of one registry, and what they were registered for. */
	abstract class Registration extends MeterRegistration {

		private @Nullable P lastSeen;

		Registration(MeterRegistry registry) {
			super(registry);
		}

		/**
		 * Register the meters of what a snapshot seen for the first time shows.
		 * @return the value of the binder's gauge
		 */
		final synchronized double refresh() {
			P snapshot;
			try {
				snapshot = snapshot();
			}
			catch (RuntimeException ex) {
				return Double.NaN;
			}
			if (snapshot != this.lastSeen) {
				this.lastSeen = snapshot;
				update(snapshot);
			}
			return gaugeValue(snapshot);
		}

		/**
		 * Register the meters of what the snapshot shows that have none yet.
		 * @param snapshot a snapshot not seen before
		 */
		abstract void update(P snapshot);

		/**
		 * Return the value of the binder's gauge.
		 * @param snapshot the current snapshot
		 * @return the value, NaN if the snapshot is unavailable
		 */
		abstract double gaugeValue(P snapshot);

	}

}
