package io.github.rdmacounters.core;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A validated device configuration: which device, which port, which counter sets.
 *
 * @param device the device name, or {@code null} to use the only device there is
 * @param port the port number, or {@link #FIRST_ACTIVE_PORT} for the device's first
 * ACTIVE port
 * @param counterSets the counter sets to create
 * @param propertyPrefix the prefix of the device's properties, e.g. {@code rdma}, for
 * messages
 */
public record DeviceDefinition(@Nullable String device, int port, List<CounterSetDefinition> counterSets,
		String propertyPrefix) {

	/**
	 * The port of a definition that leaves the port to the device: its first ACTIVE port,
	 * or port 1 if none is active.
	 */
	public static final int FIRST_ACTIVE_PORT = 0;

}
