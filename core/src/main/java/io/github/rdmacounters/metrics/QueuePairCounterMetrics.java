package io.github.rdmacounters.metrics;

import java.util.HashMap;
import java.util.Map;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.netlink.QueuePairCounters;

/**
 * {@link MeterBinder} for the hardware counters of this process's queue pairs
 * ({@link QueuePairCounters}, RDMA netlink counter binding): one {@link FunctionCounter}
 * per counter, summed by {@code device}, {@code port} and queue pair {@code type}, named
 * after the port counter of the same kernel name with {@code rdma.process.qp.} in place
 * of {@code rdma.} ({@code out_of_sequence} is
 * {@code rdma_process_qp_out_of_sequence_packets_received_total}, the optional
 * {@code rdma_tx_bytes} {@code rdma_process_qp_roce_data_transmitted_bytes_total}). With
 * {@link QueuePairCounters.Settings#perQueuePair()} each queue pair has its own series
 * instead, tagged {@code qpn} too (Prometheus wants one set of tags per name), removed
 * once the queue pair is gone. Reading {@code rdma.process.qp.counters} registers the
 * meters of new groups. Removes its meters on {@link #close()}.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public class QueuePairCounterMetrics extends SnapshotMetrics<QueuePairCounters, QueuePairCounters.Snapshot> {

	/** Name of the gauge of the kernel counters of this process's queue pairs. */
	public static final String COUNTERS = "rdma.process.qp.counters";

	private static final String PREFIX = "rdma.process.qp.";

	/**
	 * Create a binder.
	 * @param source the counters of this process's queue pairs
	 * @param tags tags added to every meter
	 */
	public QueuePairCounterMetrics(QueuePairCounters source, Iterable<Tag> tags) {
		super(source, tags, COUNTERS,
				"Kernel counters bound to queue pairs of this process only; reading it registers new ones");
	}

	@Override
	QueuePairCounters.Snapshot snapshot() {
		return this.source.snapshot();
	}

	@Override
	Registration registration(MeterRegistry registry) {
		return new GroupRegistration(registry);
	}

	/**
	 * Return the meter name of a queue pair counter.
	 * @param name the kernel's name, e.g. {@code out_of_sequence} or
	 * {@code rdma_tx_bytes}
	 * @return e.g. {@code rdma.process.qp.out.of.sequence.packets.received}
	 */
	public static String meterName(String name) {
		return PREFIX + portMeterName(name).substring("rdma.".length());
	}

	private static String portMeterName(String name) {
		PortCountersMetrics.KnownCounter known = PortCountersMetrics.KNOWN_COUNTERS.get("hw_counters/" + name);
		if (known != null) {
			return known.meterName();
		}
		return OptionalCountersMetrics.meterName(name);
	}

	private static PortCountersMetrics.@Nullable KnownCounter known(String name) {
		PortCountersMetrics.KnownCounter known = PortCountersMetrics.KNOWN_COUNTERS.get("hw_counters/" + name);
		return (known != null) ? known : OptionalCountersMetrics.KNOWN_COUNTERS.get(name);
	}

	private static double value(QueuePairCounters source, QueuePairCounters.Group group, String name) {
		QueuePairCounters.Snapshot snapshot = source.snapshot();
		Map<String, Long> values = snapshot.values().get(group);
		Long value = (values != null) ? values.get(name) : null;
		return (value != null) ? PortStatus.unsignedToDouble(value) : Double.NaN;
	}

	/** The meters of one registry, by group and counter. */
	private final class GroupRegistration extends Registration {

		private final Map<QueuePairCounters.Group, Map<String, Meter>> bound = new HashMap<>();

		GroupRegistration(MeterRegistry registry) {
			super(registry);
		}

		@Override
		double gaugeValue(QueuePairCounters.Snapshot snapshot) {
			return (snapshot.unavailable() != null) ? Double.NaN : snapshot.counters();
		}

		@Override
		void update(QueuePairCounters.Snapshot snapshot) {
			if (snapshot.unavailable() != null) {
				return;
			}
			QueuePairCounters source = QueuePairCounterMetrics.this.source;
			// Prometheus wants one set of tags per name: per queue pair or per type
			boolean perQueuePair = source.settings().perQueuePair();
			snapshot.values().forEach((group, values) -> {
				if ((group.lqpn() != null) == perQueuePair) {
					values.keySet().forEach((name) -> bind(source, group, name));
				}
			});
			// a queue pair's own series go with it
			this.bound.entrySet().removeIf((entry) -> {
				if (entry.getKey().lqpn() == null || snapshot.values().containsKey(entry.getKey())) {
					return false;
				}
				entry.getValue().values().forEach(this::remove);
				return true;
			});
		}

		private void bind(QueuePairCounters source, QueuePairCounters.Group group, String name) {
			Map<String, Meter> meters = this.bound.computeIfAbsent(group, (key) -> new HashMap<>());
			if (meters.containsKey(name)) {
				return;
			}
			Tags groupTags = Tags.of(QueuePairCounterMetrics.this.tags)
				.and("device", group.device())
				.and("port", Integer.toString(group.port()))
				.and("type", group.type());
			if (group.lqpn() != null) {
				groupTags = groupTags.and("qpn", Long.toString(group.lqpn()));
			}
			PortCountersMetrics.KnownCounter known = known(name);
			Meter meter = FunctionCounter.builder(meterName(name), source, (s) -> value(s, group, name))
				.description((known != null) ? known.description() + ", of this process's queue pairs"
						: "Counter " + name + " of this process's queue pairs (RDMA netlink)")
				.baseUnit((known != null) ? known.baseUnit() : null)
				.tags(groupTags)
				.register(registry());
			meters.put(name, meter);
			add(meter);
		}

	}

}
