package io.github.rdmacounters.event;

import org.springframework.context.ApplicationEvent;

import io.github.rdmacounters.core.DeviceEvent;
import io.github.rdmacounters.core.ManagedDevice;

/**
 * Published when a managed RDMA device reports {@code IBV_EVENT_DEVICE_FATAL}: the device
 * is unusable; it is marked failed and reopened with its counter sets when it is present
 * again.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public class RdmaDeviceFatalEvent extends ApplicationEvent {

	private static final long serialVersionUID = 1L;

	private final transient ManagedDevice device;

	private final transient DeviceEvent event;

	/**
	 * Create an event.
	 * @param device the managed device, the source
	 * @param event the device's event
	 */
	public RdmaDeviceFatalEvent(ManagedDevice device, DeviceEvent event) {
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
