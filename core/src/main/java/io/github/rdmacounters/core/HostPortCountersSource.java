package io.github.rdmacounters.core;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Where the port counters of every RDMA device of a host come from. Devices are
 * discovered at each read; each file is read once per {@link #snapshot()}, which is
 * reused for the cache time-to-live.
 *
 * @since 0.1.0
 */
public interface HostPortCountersSource {

	/**
	 * Read (or reuse) the information, port states and counters of every device; never
	 * fails for a file, port or device that cannot be read, it is listed instead.
	 * @return the snapshot
	 */
	HostPortCountersSnapshot snapshot();

	/**
	 * Return the names of the devices a snapshot would show, present or gone. By default
	 * those of a {@link #snapshot()}; a source may list them without reading counters.
	 * @return the device names
	 */
	default Set<String> deviceNames() {
		Set<String> names = new LinkedHashSet<>();
		snapshot().devices().forEach((device) -> names.add(device.deviceName()));
		return names;
	}

	/**
	 * Drop the snapshot kept for the read cache time-to-live, so that the next read lists
	 * the devices again, e.g. after RDMA netlink's monitor reported one gone. Does
	 * nothing by default.
	 */
	default void invalidate() {
	}

	/**
	 * Return a view of one device, taken from this source's snapshots; a device that is
	 * not there is {@link Presence#GONE}.
	 * @param deviceName the device name
	 * @return the view
	 */
	default PortCountersSource device(String deviceName) {
		return new PortCountersSource() {

			@Override
			public String deviceName() {
				return deviceName;
			}

			@Override
			public PortCountersSnapshot snapshot() {
				HostPortCountersSnapshot host = HostPortCountersSource.this.snapshot();
				PortCountersSnapshot device = host.device(deviceName);
				return (device != null) ? device : new PortCountersSnapshot(deviceName, null, null, null, null,
						List.of(), host.readAt(), Presence.GONE, DeviceIdentity.UNKNOWN);
			}

			@Override
			public String toString() {
				return "Device " + deviceName + " of " + HostPortCountersSource.this;
			}

		};
	}

}
