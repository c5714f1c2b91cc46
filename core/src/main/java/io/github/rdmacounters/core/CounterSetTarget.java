package io.github.rdmacounters.core;

import org.jspecify.annotations.Nullable;

/**
 * A counter set and where it counts: on the device it names, on the device whose network
 * interface it names, or, naming neither, on the host's only device with flow counters.
 * {@link ManagedDeviceFactory#devicesOf} groups sets by that device.
 *
 * @param definition the set, with its port
 * @param device the device it names, or {@code null}
 * @param netdev the network interface it names instead, e.g. {@code ens1f0np0}, or
 * {@code null}
 * @since 0.1.0
 */
public record CounterSetTarget(CounterSetDefinition definition, @Nullable String device, @Nullable String netdev) {

	public CounterSetTarget {
		if (device != null && netdev != null) {
			throw new IllegalArgumentException(
					"Set '" + definition.name() + "' names both a device and a network interface");
		}
	}

}
