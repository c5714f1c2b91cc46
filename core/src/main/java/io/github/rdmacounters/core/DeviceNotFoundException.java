package io.github.rdmacounters.core;

import java.util.List;

/**
 * No device has the requested name.
 *
 * @since 0.1.0
 */
public class DeviceNotFoundException extends RdmaException {

	private static final long serialVersionUID = 1L;

	private final String deviceName;

	private final List<String> available;

	/**
	 * Create an exception.
	 * @param deviceName the name asked for
	 * @param available the names of the devices that exist
	 */
	public DeviceNotFoundException(String deviceName, List<String> available) {
		super("No RDMA device named '" + deviceName + "'; devices found: "
				+ (available.isEmpty() ? "none" : String.join(", ", available)));
		this.deviceName = deviceName;
		this.available = List.copyOf(available);
	}

	public String deviceName() {
		return this.deviceName;
	}

	public List<String> available() {
		return this.available;
	}

}
