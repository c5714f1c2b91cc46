package io.github.rdmacounters.core;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The port counters of every device of a host read at one time: one
 * {@link PortCountersSnapshot} per device, present ones and ones that were seen before
 * and are now {@link Presence#GONE}.
 *
 * @param devices the devices, by name
 * @param readAt when the files were read
 * @author rdma-counters
 * @since 0.1.0
 */
public record HostPortCountersSnapshot(List<PortCountersSnapshot> devices, Instant readAt) {

	/**
	 * Create a host snapshot.
	 * @param devices the devices
	 * @param readAt when the files were read
	 */
	public HostPortCountersSnapshot {
		devices = List.copyOf(devices);
	}

	/**
	 * Return a device by name.
	 * @param deviceName the device name
	 * @return its snapshot, or {@code null} if the device was never seen (or is filtered
	 * out)
	 */
	public @Nullable PortCountersSnapshot device(String deviceName) {
		for (PortCountersSnapshot device : this.devices) {
			if (device.deviceName().equals(deviceName)) {
				return device;
			}
		}
		return null;
	}

	/**
	 * Return the names of the devices that were found in this snapshot.
	 * @return the names, sorted
	 */
	public List<String> presentDevices() {
		return this.devices.stream()
			.filter(PortCountersSnapshot::isPresent)
			.map(PortCountersSnapshot::deviceName)
			.toList();
	}

	/**
	 * Return the names of the devices seen before that were not found in this snapshot.
	 * @return the names, sorted
	 */
	public List<String> goneDevices() {
		return this.devices.stream()
			.filter((device) -> !device.isPresent())
			.map(PortCountersSnapshot::deviceName)
			.toList();
	}

}
