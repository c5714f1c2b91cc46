package io.github.rdmacounters.core;

import java.util.List;

/**
 * {@code rdma.device} is not set and the backend does not see exactly one device to
 * choose.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public class NoUniqueRdmaDeviceException extends RdmaException {

	private static final long serialVersionUID = 1L;

	private final String backend;

	private final List<String> devices;

	/**
	 * Create an exception.
	 * @param backend the backend name
	 * @param devices the names of the devices the backend sees: none or several
	 */
	public NoUniqueRdmaDeviceException(String backend, List<String> devices) {
		super(devices.isEmpty() ? "rdma.device is not set and the " + backend + " backend finds no RDMA device"
				: "rdma.device is not set and the " + backend + " backend finds " + devices.size() + " RDMA devices: "
						+ String.join(", ", devices));
		this.backend = backend;
		this.devices = List.copyOf(devices);
	}

	/**
	 * Return the backend name.
	 * @return {@code native} or {@code simulated}
	 */
	public String backend() {
		return this.backend;
	}

	/**
	 * Return the names of the devices the backend sees.
	 * @return the device names, none or several
	 */
	public List<String> devices() {
		return this.devices;
	}

}
