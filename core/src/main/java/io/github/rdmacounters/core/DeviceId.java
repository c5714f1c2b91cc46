package io.github.rdmacounters.core;

/**
 * A device as listed by {@code ibv_get_device_list}: its name and node GUID.
 *
 * @param name the kernel device name, e.g. {@code mlx5_0}
 * @param nodeGuid the node GUID in host byte order
 * @since 0.1.0
 */
public record DeviceId(String name, long nodeGuid) {

	/**
	 * Return the node GUID as sysfs and {@code ibv_devices} print it, e.g.
	 * {@code 0c42:a103:0065:0f2c}.
	 */
	public String formattedGuid() {
		return Guids.format(this.nodeGuid);
	}

}
