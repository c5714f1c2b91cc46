package io.github.rdmacounters.autoconfigure;

import java.time.Duration;

/**
 * Asynchronous events of the devices that counter sets count on ({@code rdma.events}).
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public class RdmaEventsProperties {

	/**
	 * Whether device events are published as application events and counted.
	 */
	private boolean enabled = true;

	/**
	 * What a port that counter sets need going down does to readiness.
	 */
	private PortDownReadiness portDownReadiness = PortDownReadiness.NONE;

	private final ReopenBackoff reopenBackoff = new ReopenBackoff();

	private final Monitor monitor = new Monitor();

	public ReopenBackoff getReopenBackoff() {
		return this.reopenBackoff;
	}

	public Monitor getMonitor() {
		return this.monitor;
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public PortDownReadiness getPortDownReadiness() {
		return this.portDownReadiness;
	}

	public void setPortDownReadiness(PortDownReadiness portDownReadiness) {
		this.portDownReadiness = portDownReadiness;
	}

	/**
	 * Waits between attempts to reopen a failed device (IBV_EVENT_DEVICE_FATAL, ENODEV,
	 * EIO).
	 */
	public static class ReopenBackoff {

		/**
		 * Wait before the first attempt to reopen a failed device, doubled after each.
		 */
		private Duration initial = Duration.ofMillis(100);

		/**
		 * Longest wait between attempts to reopen a failed device, at most 1h.
		 */
		private Duration max = Duration.ofSeconds(30);

		public Duration getInitial() {
			return this.initial;
		}

		public void setInitial(Duration initial) {
			this.initial = initial;
		}

		public Duration getMax() {
			return this.max;
		}

		public void setMax(Duration max) {
			this.max = max;
		}

	}

	/**
	 * RDMA netlink's device monitor.
	 */
	public static class Monitor {

		/**
		 * Whether RDMA netlink's device monitor (Linux 6.12 and later) is followed, so
		 * that a device registered, unregistered or renamed, or a netdev attached or
		 * detached, is seen at once instead of at the next read.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * What a port that counter sets need going down does to readiness.
	 */
	public enum PortDownReadiness {

		/** Readiness is not changed. */
		NONE,

		/**
		 * Readiness is REFUSING_TRAFFIC while the port is down.
		 */
		REFUSE_TRAFFIC

	}

}
