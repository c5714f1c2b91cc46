package io.github.rdmacounters.core;

/**
 * Where the port counters and device information of one device come from: sysfs
 * ({@code /sys/class/infiniband/<dev>}) for a real device, the simulated device's own
 * tree for the simulator. Implementations read each file once per {@link #snapshot()} and
 * memoise the result for their cache time-to-live.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public interface PortCountersSource {

	/**
	 * Return the device name.
	 * @return the name
	 */
	String deviceName();

	/**
	 * Read (or reuse) the device information, port states and port counters. A file that
	 * cannot be read is skipped and listed; this method never fails for one bad file.
	 * @return the snapshot
	 */
	PortCountersSnapshot snapshot();

}
