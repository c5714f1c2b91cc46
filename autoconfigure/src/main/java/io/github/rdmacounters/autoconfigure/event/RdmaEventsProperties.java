package io.github.rdmacounters.autoconfigure.event;

import java.time.Duration;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Asynchronous events of the devices that counter sets count on ({@code rdma.events}).
 *
 * @param enabled Whether device events are published as application events and counted.
 * @param portDownReadiness What a port that counter sets need going down does to
 * readiness.
 * @param reopenBackoff Waits between attempts to reopen a failed device
 * (IBV_EVENT_DEVICE_FATAL, ENODEV, EIO).
 * @param monitor RDMA netlink's device monitor.
 * @since 0.1.0
 * @author rdma-counters
 */
public record RdmaEventsProperties(@DefaultValue("true") boolean enabled,
		@DefaultValue("none") PortDownReadiness portDownReadiness, @DefaultValue ReopenBackoff reopenBackoff,
		@DefaultValue Monitor monitor) {

	/**
	 * Waits between attempts to reopen a failed device (IBV_EVENT_DEVICE_FATAL, ENODEV,
	 * EIO).
	 *
	 * @param initial Wait before the first attempt to reopen a failed device, doubled
	 * after each.
	 * @param max Longest wait between attempts to reopen a failed device, at most 1h.
	 */
	public record ReopenBackoff(@DefaultValue("100ms") Duration initial, @DefaultValue("30s") Duration max) {

	}

	/**
	 * RDMA netlink's device monitor.
	 *
	 * @param enabled Whether RDMA netlink's device monitor (Linux 6.12 and later) is
	 * followed, so that a device registered, unregistered or renamed, or a netdev
	 * attached or detached, is seen at once instead of at the next read.
	 */
	public record Monitor(@DefaultValue("true") boolean enabled) {

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
