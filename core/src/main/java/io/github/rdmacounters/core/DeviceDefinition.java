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

	/**
	 * The longest device name: rdma-core's IBV_SYSFS_NAME_MAX and the kernel's
	 * IB_DEVICE_NAME_MAX are 64, with the NUL.
	 */
	public static final int MAX_NAME = 63;

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
	 * Return whether a name can be a device's: not blank, no '/' or space (a sysfs
	 * directory's name), at most {@value #MAX_NAME} characters.
	 * @param name the name
	 * @return whether a device can have it
	 */
	public static boolean isValidName(String name) {
		return !name.isBlank() && !name.contains("/") && !name.contains(" ") && name.length() <= MAX_NAME;
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
