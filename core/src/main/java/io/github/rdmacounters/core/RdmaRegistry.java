package io.github.rdmacounters.core;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Every device the application manages and the counter sets on them.
 *
 * @param devices the managed devices
 * @since 0.1.0
 */
public record RdmaRegistry(List<ManagedDevice> devices) {

	public RdmaRegistry {
		devices = List.copyOf(devices);
	}

	public List<CounterSet> counterSets() {
		return this.devices.stream().flatMap((device) -> device.counterSets().stream()).toList();
	}

	/**
	 * Find a counter set by name.
	 * @param name the set name
	 * @return the set, or {@code null} if none has that name
	 */
	public @Nullable CounterSet counterSet(String name) {
		for (ManagedDevice device : this.devices) {
			for (CounterSet set : device.counterSets()) {
				if (set.name().equals(name)) {
					return set;
				}
			}
		}
		return null;
	}

	/**
	 * Find a device by name.
	 * @param name the device name
	 * @return the device, or {@code null} if none has that name
	 */
	public @Nullable ManagedDevice device(String name) {
		for (ManagedDevice device : this.devices) {
			if (device.name().equals(name)) {
				return device;
			}
		}
		return null;
	}

}
