package io.github.rdmacounters.autoconfigure.netlink;

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

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

}
