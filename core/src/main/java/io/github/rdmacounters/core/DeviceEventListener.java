package io.github.rdmacounters.core;

/**
 * Receives the asynchronous events of an RDMA device. Called on the device's event thread
 * ({@code rdma-events-<device>} for the native backend; the thread that raised the event
 * for the simulated one), outside every device lock, once per event in the order the
 * device reported them. A listener must return quickly; an exception it throws is logged
 * and does not stop the delivery to other listeners.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@FunctionalInterface
public interface DeviceEventListener {

	/**
	 * Handle an event.
	 * @param event the event, already acknowledged to the device
	 */
	void onEvent(DeviceEvent event);

	/**
	 * Return a listener that only receives the events of one port and the device-wide
	 * events ({@link DeviceEvent.Type#DEVICE_FATAL}).
	 * @param port the port number
	 * @param listener the listener to call
	 * @return the filtering listener
	 */
	static DeviceEventListener forPort(int port, DeviceEventListener listener) {
		return (event) -> {
			if (!event.type().isPortEvent() || event.port() == port) {
				listener.onEvent(event);
			}
		};
	}

}
