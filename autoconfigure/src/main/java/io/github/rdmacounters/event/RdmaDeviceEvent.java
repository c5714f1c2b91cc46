package io.github.rdmacounters.event;

import org.springframework.context.ApplicationEvent;

import io.github.rdmacounters.core.DeviceEvent;
import io.github.rdmacounters.core.ManagedDevice;

/**
 * Base of the events published for an asynchronous event of a managed RDMA device: the
 * device, which is the source, and its event. A listener of this type receives every one
 * of them.
 *
 * @since 0.1.0
 * @author rdma-counters
 * @see RdmaPortStateChangedEvent
 * @see RdmaDeviceFatalEvent
 */
public abstract class RdmaDeviceEvent extends ApplicationEvent {

	private static final long serialVersionUID = 1L;

	private final transient ManagedDevice device;

	private final transient DeviceEvent event;

	/**
	 * Create an event.
	 * @param device the managed device, the source
	 * @param event the device's event
	 */
	protected RdmaDeviceEvent(ManagedDevice device, DeviceEvent event) {
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

}
