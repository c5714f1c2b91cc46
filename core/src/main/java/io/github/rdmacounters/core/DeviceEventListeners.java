package io.github.rdmacounters.core;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The listeners of one device; an exception a listener throws is logged and the others
 * are still called. Internal; not part of the API (public for the backends).
 *
 * @since 0.1.0
 */
public final class DeviceEventListeners {

	private static final Logger logger = System.getLogger(DeviceEventListeners.class.getName());

	private final List<DeviceEventListener> listeners = new CopyOnWriteArrayList<>();

	public void add(DeviceEventListener listener) {
		this.listeners.add(listener);
	}

	public void remove(DeviceEventListener listener) {
		this.listeners.remove(listener);
	}

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
