package io.github.rdmacounters.core;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

/**
 * One way to reach RDMA devices: the native libibverbs binding or the simulator.
 *
 * @since 0.1.0
 */
public interface RdmaBackend {

	/**
	 * Return the backend name.
	 * @return {@code native} or {@code simulated}
	 */
	String name();

	/**
	 * List the RDMA devices this backend can see ({@code ibv_get_device_list}).
	 * @return the devices, possibly empty
	 * @throws RdmaUnavailableException if the backend cannot be used on this host
	 */
	List<DeviceId> devices();

	/**
	 * Open a device by name ({@code ibv_open_device}).
	 * @param deviceName the device name, e.g. {@code mlx5_0}
	 * @return the opened device, owned by the caller
	 * @throws RdmaUnavailableException if the backend cannot be used on this host
	 * @throws DeviceNotFoundException if no device has that name
	 */
	RdmaDevice open(String deviceName);

	/**
	 * Return the source of a device's port counters and port state.
	 * @param deviceName the device name, e.g. {@code mlx5_0}
	 * @param sysfsRoot e.g. {@code /sys/class/infiniband}; the simulator ignores it
	 * @param readCacheTtl how long a snapshot is reused
	 * @return the source
	 */
	PortCountersSource portCounters(String deviceName, Path sysfsRoot, Duration readCacheTtl);

	/**
	 * Return the source of the port counters of every device of the host, discovered at
	 * each read. Needs no verbs call.
	 * @param sysfsRoot e.g. {@code /sys/class/infiniband}; the simulator ignores it
	 * @param deviceFilter which devices are read, by name
	 * @param counterFilter which counter files are read, by file name
	 * @param readCacheTtl how long a snapshot is reused
	 * @return the source
	 */
	HostPortCountersSource hostPortCounters(Path sysfsRoot, Predicate<String> deviceFilter,
			Predicate<String> counterFilter, Duration readCacheTtl);

	/**
	 * Return the source of the port counters of every device of the host, whose reads run
	 * in a reader thread that no caller waits for longer than the deadline (see
	 * {@link ReadCache}). The default is for backends whose reads never block (test
	 * doubles): it reads on the caller's thread.
	 * @param sysfsRoot e.g. {@code /sys/class/infiniband}; the simulator ignores it
	 * @param deviceFilter which devices are read, by name
	 * @param counterFilter which counter files are read, by file name
	 * @param readCacheTtl how long a snapshot is reused
	 * @param readDeadline how long a caller waits for a snapshot;
	 * {@link ReadCache#NO_DEADLINE} reads on the caller's thread
	 * @return the source
	 */
	default HostPortCountersSource hostPortCounters(Path sysfsRoot, Predicate<String> deviceFilter,
			Predicate<String> counterFilter, Duration readCacheTtl, Duration readDeadline) {
		return hostPortCounters(sysfsRoot, deviceFilter, counterFilter, readCacheTtl);
	}

}
