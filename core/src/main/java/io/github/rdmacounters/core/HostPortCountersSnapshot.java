package io.github.rdmacounters.core;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The port counters of every device of a host read at one time, including devices seen
 * before that are now {@link Presence#GONE}.
 *
 * @param devices the devices, by name
 * @param readAt when the files were read
 * @param stall the read that has not returned within its deadline, whose devices are
 * shown without values; {@code null} for a snapshot that was read
 * @since 0.1.0
 */
public record HostPortCountersSnapshot(List<PortCountersSnapshot> devices, Instant readAt, @Nullable ReadStall stall) {

	public HostPortCountersSnapshot {
		devices = List.copyOf(devices);
	}

	/**
	 * Create a snapshot that was read.
	 * @param devices the devices, by name
	 * @param readAt when the files were read
	 */
	public HostPortCountersSnapshot(List<PortCountersSnapshot> devices, Instant readAt) {
		this(devices, readAt, null);
	}

	/**
	 * Return a device by name.
	 * @param deviceName the device name
	 * @return its snapshot, or {@code null} if the device was never seen
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
	 * Return the names of the devices found in this snapshot.
	 * @return the names, sorted
	 */
	public List<String> presentDevices() {
		return this.devices.stream()
			.filter(PortCountersSnapshot::isPresent)
			.map(PortCountersSnapshot::deviceName)
			.toList();
	}

	/**
	 * Return the names of the devices seen before and not found in this snapshot.
	 * @return the names, sorted
	 */
	public List<String> goneDevices() {
		return this.devices.stream()
			.filter((device) -> !device.isPresent())
			.map(PortCountersSnapshot::deviceName)
			.toList();
	}

}
