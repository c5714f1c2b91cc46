package io.github.rdmacounters.autoconfigure;

import io.github.rdmacounters.core.RdmaException;

/**
 * A device of {@code rdma.devices} that failed startup, wrapping why, so that the failure
 * analysis names the device's properties instead of the shorthand's.
 *
 * @author rdma-counters
 */
class DeviceStartupException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String propertyPrefix;

	DeviceStartupException(String propertyPrefix, RdmaException cause) {
		super("RDMA device " + propertyPrefix + " could not be started: " + cause.getMessage(), cause);
		this.propertyPrefix = propertyPrefix;
	}

	/**
	 * Return the prefix of the device's properties.
	 * @return e.g. {@code rdma.devices.mlx5_1}
	 */
	String propertyPrefix() {
		return this.propertyPrefix;
	}

}
