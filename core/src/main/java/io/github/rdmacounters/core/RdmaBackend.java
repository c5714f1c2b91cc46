package io.github.rdmacounters.core;

import java.util.List;

/**
 * Entry point of one way to reach RDMA devices: the native libibverbs binding or the
 * simulated device.
 *
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

}
