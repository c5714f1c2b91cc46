package io.github.rdmacounters.core;

/**
 * What {@code ibv_query_device} reports about a device, as far as this project uses it.
 *
 * @param firmwareVersion the firmware version ({@code fw_ver}), e.g. {@code 22.36.1010}
 * @param nodeGuid the node GUID in host byte order
 * @param vendorId the vendor id, e.g. {@code 0x02c9} for Mellanox
 * @param vendorPartId the vendor part id, e.g. {@code 4125} for ConnectX-6 Dx
 * @param physicalPortCount the number of physical ports ({@code phys_port_cnt})
 * @param capabilityFlags the raw {@code device_cap_flags}
 * @since 0.1.0
 */
public record DeviceAttributes(String firmwareVersion, long nodeGuid, int vendorId, int vendorPartId,
		int physicalPortCount, long capabilityFlags) {

	/** {@code IBV_DEVICE_MANAGED_FLOW_STEERING}. */
	public static final long MANAGED_FLOW_STEERING = 1L << 29;

	/**
	 * Return whether the device supports managed flow steering, which flow counters need.
	 */
	public boolean managedFlowSteering() {
		return (this.capabilityFlags & MANAGED_FLOW_STEERING) != 0;
	}

	/** Return the node GUID as sysfs prints it. */
	public String formattedNodeGuid() {
		return Guids.format(this.nodeGuid);
	}

}
