package io.github.rdmacounters.core;

import java.time.Instant;

/**
 * The state of a port as the last event set it, with no query: {@code ACTIVE} after
 * {@code IBV_EVENT_PORT_ACTIVE}, {@code DOWN} after {@code IBV_EVENT_PORT_ERR} (the port
 * left ACTIVE; which state it is in now, DOWN, INIT or ARMED, takes a query).
 *
 * @param port the port number
 * @param state the state
 * @param changedAt when the event that set it was read
 * @param event the event that set it
 * @since 0.1.0
 */
public record PortEventState(int port, PortState state, Instant changedAt, DeviceEvent.Type event) {

	/**
	 * Return whether the port is active.
	 * @return {@code true} after {@code PORT_ACTIVE}
	 */
	public boolean isActive() {
		return this.state == PortState.ACTIVE;
	}

}
