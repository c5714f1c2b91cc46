package io.github.rdmacounters.core;

import java.time.Instant;

/**
 * The state of a port as the last event set it, with no query: {@code ACTIVE} after
 * {@code PORT_ACTIVE}, {@code DOWN} after {@code PORT_ERR} (only a query tells whether it
 * is DOWN, INIT or ARMED).
 *
 * @param port the port number
 * @param state the state
 * @param changedAt when the event that set it was read
 * @param event the event that set it
 * @since 0.1.0
 */
public record PortEventState(int port, PortState state, Instant changedAt, DeviceEvent.Type event) {

	public boolean isActive() {
		return this.state == PortState.ACTIVE;
	}

}
