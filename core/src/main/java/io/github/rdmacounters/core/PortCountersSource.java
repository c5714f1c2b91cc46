package io.github.rdmacounters.core;

/**
 * Where the port counters and information of one device come from: sysfs for a real
 * device, the simulator's own tree for a simulated one. Each file is read once per
 * {@link #snapshot()}, which is reused for the cache time-to-live.
 *
 * @since 0.1.0
 */
public interface PortCountersSource {

	String deviceName();

	/**
	 * Read (or reuse) the device information, port states and port counters; never fails
	 * for a file that cannot be read, it is listed instead.
	 * @return the snapshot
	 */
	PortCountersSnapshot snapshot();

}
