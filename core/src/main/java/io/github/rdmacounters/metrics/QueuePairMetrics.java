package io.github.rdmacounters.metrics;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.netlink.NldevQueuePair;
import io.github.rdmacounters.netlink.ProcessQueuePairs;

/**
 * {@link MeterBinder} for the queue pairs of this process ({@link ProcessQueuePairs},
 * RDMA netlink): {@code rdma.process.queue.pairs}, their number by {@code device},
 * {@code port}, {@code type} ({@code RC}, {@code UD}, {@code RAW_PACKET}, ...) and
 * {@code state} ({@code RTS}, {@code ERR}, ...) as {@code rdma resource show qp} names
 * them, 0 once none is left in a combination; and {@code rdma.process.queue.pairs.error},
 * how many are in the error state. Reading the latter registers the gauges of
 * combinations seen for the first time, so cardinality is bounded by the combinations the
 * process used, never by queue pair numbers. Removes its meters on {@link #close()}.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public class QueuePairMetrics implements MeterBinder, AutoCloseable {

	/** Name of the gauge of the process's queue pairs by device, port, type and state. */
	public static final String QUEUE_PAIRS = "rdma.process.queue.pairs";

	/** Name of the gauge of the process's queue pairs in the error state. */
	public static final String ERRORS = "rdma.process.queue.pairs.error";

	private final ProcessQueuePairs source;

	private final Iterable<Tag> tags;

	private final List<Registration> registrations = new ArrayList<>();

	/**
	 * Create a binder.
	 * @param source the process's queue pairs
	 * @param tags tags added to every meter
	 */
	public QueuePairMetrics(ProcessQueuePairs source, Iterable<Tag> tags) {
		this.source = Objects.requireNonNull(source, "source");
		this.tags = tags;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Registration registration = new Registration(registry);
		synchronized (this.registrations) {
			this.registrations.add(registration);
		}
		registration.refresh(this.source);
		registration.add(Gauge.builder(ERRORS, this.source, registration::refresh)
			.description("Queue pairs of this process in the error state; reading it registers new combinations")
			.tags(this.tags)
			.register(registry));
	}

	private static double count(ProcessQueuePairs source, String device, int port, String type, String state) {
		ProcessQueuePairs.Snapshot snapshot = source.snapshot();
		if (snapshot.unavailable() != null || snapshot.failures().containsKey(device)) {
			return Double.NaN;
		}
		return snapshot.devices()
			.getOrDefault(device, List.of())
			.stream()
			.filter((queuePair) -> queuePair.port() == port && queuePair.typeName().equals(type)
					&& queuePair.stateName().equals(state))
			.count();
	}

	/**
	 * Remove the meters this binder registered.
	 */
	@Override
	public void close() {
		MeterRegistration.removeAll(this.registrations);
	}

	/** The meters of one registry, and the combinations that have them. */
	private final class Registration extends MeterRegistration {

		private final Set<String> bound = new HashSet<>();

		private ProcessQueuePairs.@Nullable Snapshot lastSeen;

		Registration(MeterRegistry registry) {
			super(registry);
		}

		synchronized double refresh(ProcessQueuePairs source) {
			ProcessQueuePairs.Snapshot snapshot;
			try {
				snapshot = source.snapshot();
			}
			catch (RuntimeException ex) {
				return Double.NaN;
			}
			if (snapshot != this.lastSeen) {
				this.lastSeen = snapshot;
				for (Map.Entry<String, List<NldevQueuePair>> device : snapshot.devices().entrySet()) {
					for (NldevQueuePair queuePair : device.getValue()) {
						bind(source, device.getKey(), queuePair.port(), queuePair.typeName(), queuePair.stateName());
					}
				}
			}
			return (snapshot.unavailable() != null) ? Double.NaN : snapshot.inError().size();
		}

		private void bind(ProcessQueuePairs source, String device, int port, String type, String state) {
			if (!this.bound.add(device + "/" + port + "/" + type + "/" + state)) {
				return;
			}
			add(Gauge.builder(QUEUE_PAIRS, source, (s) -> count(s, device, port, type, state))
				.description("Queue pairs of this process")
				.tags(Tags.of(QueuePairMetrics.this.tags)
					.and("device", device)
					.and("port", Integer.toString(port))
					.and("type", type)
					.and("state", state))
				.register(registry()));
		}

	}

}
