package io.github.rdmacounters.core;

import java.util.List;

/**
 * A counter set names no device and the backend does not see exactly one device with flow
 * counters to choose.
 *
 * @since 0.1.0
 */
public class NoUniqueRdmaDeviceException extends RdmaException {

	private static final long serialVersionUID = 1L;

	private final String backend;

	private final String property;

	private final List<String> devices;

	/**
	 * Create an exception.
	 * @param backend the backend name
	 * @param property the property of the set, e.g. {@code rdma.counter-sets.storage}
	 * @param devices the devices to choose from: none, or several with flow counters
	 */
	public NoUniqueRdmaDeviceException(String backend, String property, List<String> devices) {
		super(property + " names no device and the " + backend + " backend finds "
				+ (devices.isEmpty() ? "no RDMA device with flow counters"
						: devices.size() + " RDMA devices with flow counters: " + String.join(", ", devices)));
		this.backend = backend;
		this.property = property;
		this.devices = List.copyOf(devices);
	}

	/**
	 * Return the property of the set that names no device, e.g.
	 * {@code rdma.counter-sets.storage}.
	 */
	public String property() {
		return this.property;
	}

	public String backend() {
		return this.backend;
	}

	public List<String> devices() {
		return this.devices;
	}

}
