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
 * @since 0.1.0
 */
public record DeviceDefinition(@Nullable String device, int port, List<CounterSetDefinition> counterSets,
		String propertyPrefix) {

	/**
	 * Create a definition for a library user: messages name the device's settings
	 * {@code device.port}, {@code device.counter-sets.<name>}, and so on.
	 * @param device the device name, or {@code null} to use the only device there is
	 * @param port the port the sets' flows attach to, from 1
	 * @param counterSets the counter sets to create
	 * @return the definition
	 * @since 0.1.0
	 */
	public static DeviceDefinition of(@Nullable String device, int port, CounterSetDefinition... counterSets) {
		return new DeviceDefinition(device, port, List.of(counterSets), "device");
	}

	/**
	 * The port of a definition that leaves the port to the device: its first ACTIVE port,
	 * or port 1 if none is active.
	 */
	public static final int FIRST_ACTIVE_PORT = 0;

}
