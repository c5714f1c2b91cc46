package io.github.rdmacounters.core;

import java.util.List;

/**
 * Where the port counters of every RDMA device of a host come from: the sysfs root
 * ({@code /sys/class/infiniband}) for real devices. Devices are discovered at each read,
 * so one that appears later is in the next snapshot. Implementations read each file once
 * per {@link #snapshot()} and memoise the result for their cache time-to-live.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public interface HostPortCountersSource {

	/**
	 * Read (or reuse) the device information, port states and port counters of every
	 * device. A file, port or device that cannot be read is reported in the snapshot;
	 * this method never fails for one of them.
	 * @return the snapshot
	 */
	HostPortCountersSnapshot snapshot();

	/**
	 * Return a view of one device, whose snapshots are taken from this source's: the
	 * device's part of {@link #snapshot()}, or a snapshot {@link Presence#GONE} without
	 * ports while the device is not there.
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
