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
	 * Whether the asynchronous events of the devices are published as Spring application
	 * events (RdmaPortStateChangedEvent, RdmaDeviceFatalEvent) and counted in
	 * rdma.port.events.
	 */
	private boolean enabled = true;

	/**
	 * What a port that counter sets need going down does to readiness.
	 */
	private PortDownReadiness portDownReadiness = PortDownReadiness.NONE;

	/**
	 * How a device that failed (IBV_EVENT_DEVICE_FATAL, or a call failing with ENODEV or
	 * EIO) is reopened; applies whether or not the events are published.
	 */
	private final ReopenBackoff reopenBackoff = new ReopenBackoff();

	public ReopenBackoff getReopenBackoff() {
		return this.reopenBackoff;
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
	 * The waits between attempts to reopen a failed device.
	 */
	public static class ReopenBackoff {

		/**
		 * Wait before the first attempt to reopen a failed device, doubled after each
		 * failed attempt up to the maximum; at least 1ms.
		 */
		private Duration initial = Duration.ofMillis(100);

		/**
		 * Longest wait between attempts to reopen a failed device, at least the initial
		 * wait and at most 1h: a device that is back is reopened within one such wait.
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
	 * What a port that counter sets need going down does to readiness.
	 */
	public enum PortDownReadiness {

		/** Readiness is not changed. */
		NONE,

		/**
		 * Readiness moves to REFUSING_TRAFFIC while the port is down and back to
		 * ACCEPTING_TRAFFIC once it is active again; liveness is never changed.
		 */
		REFUSE_TRAFFIC

	}

}
