package io.github.rdmacounters.autoconfigure.netlink;

import io.github.rdmacounters.netlink.QueuePairCounters;

/**
 * The queue pairs of this process, read over RDMA netlink ({@code rdma.queue-pairs}).
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public class RdmaQueuePairsProperties {

	/**
	 * Whether the queue pairs of this process are counted by type and state as meters, in
	 * the rdma endpoint and in health.
	 */
	private boolean enabled = true;

	private final Counters counters = new Counters();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Counters getCounters() {
		return this.counters;
	}

	/**
	 * The hardware counters of this process's queue pairs, through counter binding
	 * ({@code rdma.queue-pairs.counters}).
	 */
	public static class Counters {

		/**
		 * How this process's queue pairs are bound to hardware counters: manual (each by
		 * its number; needs CAP_NET_ADMIN), auto (switches the port to auto mode by type
		 * and pid if its mode is none, for every process, and never switches it off) or
		 * none (binds nothing; counters others bound to them are still read).
		 */
		private QueuePairCounters.Binding binding = QueuePairCounters.Binding.MANUAL;

		/**
		 * Whether each queue pair gets a counter of its own and series tagged with its
		 * number (qpn), instead of one counter per port and queue pair type. Manual
		 * binding only; one series per queue pair and counter.
		 */
		private boolean perQueuePair;

		public QueuePairCounters.Binding getBinding() {
			return this.binding;
		}

		public void setBinding(QueuePairCounters.Binding binding) {
			this.binding = binding;
		}

		public boolean isPerQueuePair() {
			return this.perQueuePair;
		}

		public void setPerQueuePair(boolean perQueuePair) {
			this.perQueuePair = perQueuePair;
		}

	}

}
