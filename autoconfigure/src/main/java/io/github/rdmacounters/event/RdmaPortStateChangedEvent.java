package io.github.rdmacounters.event;

import io.github.rdmacounters.core.DeviceEvent;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.PortState;

/**
 * Published when a port of a managed RDMA device becomes ACTIVE
 * ({@code IBV_EVENT_PORT_ACTIVE}) or leaves it ({@code IBV_EVENT_PORT_ERR}), on the
 * device's event thread, as soon as the device reports it.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public class RdmaPortStateChangedEvent extends RdmaDeviceEvent {

	private static final long serialVersionUID = 1L;

	/**
	 * Create an event.
	 * @param device the managed device, the source
	 * @param event the device's event
	 */
	public RdmaPortStateChangedEvent(ManagedDevice device, DeviceEvent event) {
		super(device, event);
	}

	/**
	 * Return the port number.
	 * @return the port
	 */
	public int getPort() {
		return getEvent().port();
	}

	/**
	 * Return the state the event implies.
	 * @return {@code ACTIVE} or {@code DOWN}
	 */
	public PortState getState() {
		return (getEvent().type() == DeviceEvent.Type.PORT_ACTIVE) ? PortState.ACTIVE : PortState.DOWN;
	}

	/**
	 * Return whether the port is active now.
	 * @return {@code true} after {@code PORT_ACTIVE}
	 */
	public boolean isActive() {
		return getState() == PortState.ACTIVE;
	}

}
