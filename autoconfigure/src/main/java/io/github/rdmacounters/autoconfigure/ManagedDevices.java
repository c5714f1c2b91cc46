package io.github.rdmacounters.autoconfigure;

import java.util.List;

import io.github.rdmacounters.core.ManagedDevice;

/**
 * The devices that the counter sets of {@code rdma.counter-sets} count on, each opened
 * once with its sets; closed last first.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public final class ManagedDevices implements AutoCloseable {

	private final List<ManagedDevice> devices;

	/**
	 * Hold devices, owned by this object from now on.
	 * @param devices the devices
	 */
	public ManagedDevices(List<ManagedDevice> devices) {
		this.devices = List.copyOf(devices);
	}

	/**
	 * Return the devices.
	 * @return the devices, in configuration order
	 */
	public List<ManagedDevice> devices() {
		return this.devices;
	}

	/**
	 * Close every device, last first, as far as possible; rethrows the first failure.
	 */
	@Override
	public void close() {
		RuntimeException failure = null;
		for (int i = this.devices.size() - 1; i >= 0; i--) {
			try {
				this.devices.get(i).close();
			}
			catch (RuntimeException ex) {
				if (failure == null) {
					failure = ex;
				}
				else {
					failure.addSuppressed(ex);
				}
			}
		}
		if (failure != null) {
			throw failure;
		}
	}

}
