package io.github.rdmacounters.core;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A validated device configuration: which device and the counter sets on it.
 *
 * @param device the device name, or {@code null} for the host's only device with flow
 * counters
 * @param counterSets the counter sets to create
 * @param propertyPrefix the prefix messages name the sets' properties with, e.g.
 * {@code rdma}
 * @since 0.1.0
 */
public record DeviceDefinition(@Nullable String device, List<CounterSetDefinition> counterSets, String propertyPrefix) {

	public DeviceDefinition {
		counterSets = List.copyOf(counterSets);
	}

	/**
	 * Create a definition whose messages name the sets
	 * {@code device.counter-sets.<name>}.
	 * @param device the device name, or {@code null} for the host's only device with flow
	 * counters
	 * @param counterSets the counter sets to create
	 * @return the definition
	 */
	public static DeviceDefinition of(@Nullable String device, CounterSetDefinition... counterSets) {
		return new DeviceDefinition(device, List.of(counterSets), "device");
	}

	/**
	 * Return the property of one of the sets, for messages.
	 * @param set the set name
	 * @param key the key below the set, e.g. {@code port}, or empty for the set itself
	 * @return e.g. {@code rdma.counter-sets.storage.port}
	 */
	public String property(String set, String key) {
		return this.propertyPrefix + ".counter-sets." + set + (key.isEmpty() ? "" : "." + key);
	}

}
