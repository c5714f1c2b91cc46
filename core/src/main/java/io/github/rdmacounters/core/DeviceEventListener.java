package io.github.rdmacounters.core;

/**
 * Receives the asynchronous events of an RDMA device, in order, on the device's event
 * thread and outside every device lock; it must return quickly. An exception it throws is
 * logged and does not stop delivery to other listeners.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface DeviceEventListener {

	/**
	 * Handle an event.
	 * @param event the event, already acknowledged to the device
	 */
	void onEvent(DeviceEvent event);

	/**
	 * Return a listener that receives only the events of one port and device-wide events.
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
