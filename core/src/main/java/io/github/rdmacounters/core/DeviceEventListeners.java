package io.github.rdmacounters.core;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The listeners of one device, for the backends: adds, removes and calls them, each in
 * turn; an exception a listener throws is logged at WARN and the others are still called.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public final class DeviceEventListeners {

	private static final Logger logger = System.getLogger(DeviceEventListeners.class.getName());

	private final List<DeviceEventListener> listeners = new CopyOnWriteArrayList<>();

	/**
	 * Add a listener.
	 * @param listener the listener
	 */
	public void add(DeviceEventListener listener) {
		this.listeners.add(listener);
	}

	/**
	 * Remove a listener.
	 * @param listener the listener
	 */
	public void remove(DeviceEventListener listener) {
		this.listeners.remove(listener);
	}

	/**
	 * Call every listener.
	 * @param event the event
	 */
	public void publish(DeviceEvent event) {
		for (DeviceEventListener listener : this.listeners) {
			try {
				listener.onEvent(event);
			}
			catch (RuntimeException ex) {
				logger.log(Level.WARNING, "RDMA event listener " + listener + " failed on " + event, ex);
			}
		}
	}

}
