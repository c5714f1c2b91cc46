package io.github.rdmacounters.event;

import org.springframework.context.ApplicationEvent;

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
public class RdmaPortStateChangedEvent extends ApplicationEvent {

	private static final long serialVersionUID = 1L;

	private final transient ManagedDevice device;

	private final transient DeviceEvent event;

	/**
	 * Create an event.
	 * @param device the managed device, the source
	 * @param event the device's event
	 */
	public RdmaPortStateChangedEvent(ManagedDevice device, DeviceEvent event) {
		super(device);
		this.device = device;
		this.event = event;
	}

	/**
	 * Return the managed device.
	 * @return the device
	 */
	public ManagedDevice getDevice() {
		return this.device;
	}

	/**
	 * Return the device's event.
	 * @return the event
	 */
	public DeviceEvent getEvent() {
		return this.event;
	}

	/**
	 * Return the port number.
	 * @return the port
	 */
	public int getPort() {
		return this.event.port();
	}

	/**
	 * Return the state the event implies.
	 * @return {@code ACTIVE} or {@code DOWN}
	 */
	public PortState getState() {
		return (this.event.type() == DeviceEvent.Type.PORT_ACTIVE) ? PortState.ACTIVE : PortState.DOWN;
	}

	/**
	 * Return whether the port is active now.
	 * @return {@code true} after {@code PORT_ACTIVE}
	 */
	public boolean isActive() {
		return getState() == PortState.ACTIVE;
	}

}
