package io.github.rdmacounters.core;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

/**
 * Entry point of one way to reach RDMA devices: the native libibverbs binding or the
 * simulated device.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public interface RdmaBackend {

	/**
	 * Return the name of this backend as shown to users ({@code native} or
	 * {@code simulated}).
	 * @return the backend name
	 */
	String name();

	/**
	 * List the RDMA devices this backend can see ({@code ibv_get_device_list}).
	 * @return the devices, possibly empty
	 * @throws RdmaUnavailableException if the backend cannot be used on this host at all
	 * @throws RdmaOperationException if listing fails
	 */
	List<DeviceId> devices();

	/**
	 * Open a device by name ({@code ibv_open_device}).
	 * @param deviceName the device name, e.g. {@code mlx5_0}
	 * @return the opened device, owned by the caller
	 * @throws RdmaUnavailableException if the backend cannot be used on this host at all
	 * @throws DeviceNotFoundException if no device has that name
	 * @throws RdmaOperationException if opening fails
	 */
	RdmaDevice open(String deviceName);

	/**
	 * Return the source of a device's port counters and port state: the host's sysfs for
	 * the native backend, the simulator's own tree for the simulated one.
	 * @param deviceName the device name, e.g. {@code mlx5_0}
	 * @param sysfsRoot the directory holding one directory per device on the host, e.g.
	 * {@code /sys/class/infiniband}; a backend that simulates its own tree ignores it
	 * @param readCacheTtl how long a snapshot is reused
	 * @return the source
	 * @throws DeviceNotFoundException if the backend knows it has no such device
	 * @since 0.1.0
	 */
	PortCountersSource portCounters(String deviceName, Path sysfsRoot, Duration readCacheTtl);

	/**
	 * Return the source of the port counters of every device of the host: the host's
	 * sysfs root for the native backend (which needs no verbs call, so it serves them
	 * when libibverbs cannot be loaded), every simulated device for the simulated one.
	 * Devices are discovered at each read.
	 * @param sysfsRoot the directory holding one directory per device on the host, e.g.
	 * {@code /sys/class/infiniband}; a backend that simulates its own tree ignores it
	 * @param deviceFilter which devices are read, by name
	 * @param counterFilter which counter files are read, by file name
	 * @param readCacheTtl how long a snapshot is reused
	 * @return the source
	 * @since 0.1.0
	 */
	HostPortCountersSource hostPortCounters(Path sysfsRoot, Predicate<String> deviceFilter,
			Predicate<String> counterFilter, Duration readCacheTtl);

}
