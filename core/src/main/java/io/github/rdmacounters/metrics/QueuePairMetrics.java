package io.github.rdmacounters.metrics;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

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
public class QueuePairMetrics extends SnapshotMetrics<ProcessQueuePairs, ProcessQueuePairs.Snapshot> {

	/** Name of the gauge of the process's queue pairs by device, port, type and state. */
	public static final String QUEUE_PAIRS = "rdma.process.queue.pairs";

	/** Name of the gauge of the process's queue pairs in the error state. */
	public static final String ERRORS = "rdma.process.queue.pairs.error";

	/**
	 * Create a binder.
	 * @param source the process's queue pairs
	 * @param tags tags added to every meter
	 */
	public QueuePairMetrics(ProcessQueuePairs source, Iterable<Tag> tags) {
		super(source, tags, ERRORS,
				"Queue pairs of this process in the error state; reading it registers new combinations");
	}

	@Override
	ProcessQueuePairs.Snapshot snapshot() {
		return this.source.snapshot();
	}

	@Override
	Registration registration(MeterRegistry registry) {
		return new QueuePairRegistration(registry);
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

	/** The combinations that have a gauge in one registry. */
	private final class QueuePairRegistration extends Registration {

		private final Set<String> bound = new HashSet<>();

		QueuePairRegistration(MeterRegistry registry) {
			super(registry);
		}

		@Override
		void update(ProcessQueuePairs.Snapshot snapshot) {
			for (Map.Entry<String, List<NldevQueuePair>> device : snapshot.devices().entrySet()) {
				for (NldevQueuePair queuePair : device.getValue()) {
					bind(device.getKey(), queuePair.port(), queuePair.typeName(), queuePair.stateName());
				}
			}
		}

		@Override
		double gaugeValue(ProcessQueuePairs.Snapshot snapshot) {
			return (snapshot.unavailable() != null) ? Double.NaN : snapshot.inError().size();
		}

		private void bind(String device, int port, String type, String state) {
			if (!this.bound.add(device + "/" + port + "/" + type + "/" + state)) {
				return;
			}
			add(Gauge.builder(QUEUE_PAIRS, QueuePairMetrics.this.source, (s) -> count(s, device, port, type, state))
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
