package io.github.rdmacounters.event;

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
public class RdmaDeviceFatalEvent extends RdmaDeviceEvent {

	private static final long serialVersionUID = 1L;

	/**
	 * Create an event.
	 * @param device the managed device, the source
	 * @param event the device's event
	 */
	public RdmaDeviceFatalEvent(ManagedDevice device, DeviceEvent event) {
		super(device, event);
	}

}
