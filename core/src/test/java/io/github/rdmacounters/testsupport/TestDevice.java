package io.github.rdmacounters.testsupport;

/**
 * A device a backend contract test asks for, described once for every backend: an
 * mlx5-like adapter by default (flow counters, managed flow steering, one active Ethernet
 * port, RoCE enabled, a kernel of 5.8 or later).
 *
 * @param name the device name
 * @param guid the node GUID
 * @param firmware the firmware version
 * @param ports the number of ports
 * @param countersSupported whether the provider implements flow counters (only mlx5)
 * @param flowSteering whether the device reports managed flow steering
 * @param roceEnabled whether RoCE is enabled (mlx5 devlink {@code enable_roce})
 * @param linuxBefore58 whether the device behaves like Linux before 5.8
 * @author rdma-counters
 */
public record TestDevice(String name, long guid, String firmware, int ports, boolean countersSupported,
		boolean flowSteering, boolean roceEnabled, boolean linuxBefore58) {

	/**
	 * Return an mlx5-like device.
	 * @param name the device name
	 * @return the device
	 */
	public static TestDevice mlx5(String name) {
		return new TestDevice(name, 0x0c42_a103_0065_0f2cL, "22.36.1010", 1, true, true, true, false);
	}

	/**
	 * Return a copy with another GUID.
	 * @param newGuid the GUID
	 * @return the device
	 */
	public TestDevice withGuid(long newGuid) {
		return new TestDevice(this.name, newGuid, this.firmware, this.ports, this.countersSupported, this.flowSteering,
				this.roceEnabled, this.linuxBefore58);
	}

	/**
	 * Return a copy with another number of ports.
	 * @param count the port count
	 * @return the device
	 */
	public TestDevice withPorts(int count) {
		return new TestDevice(this.name, this.guid, this.firmware, count, this.countersSupported, this.flowSteering,
				this.roceEnabled, this.linuxBefore58);
	}

	/**
	 * Return a copy of a provider without flow counters (every provider but mlx5).
	 * @return the device
	 */
	public TestDevice withoutCounters() {
		return new TestDevice(this.name, this.guid, this.firmware, this.ports, false, this.flowSteering,
				this.roceEnabled, this.linuxBefore58);
	}

	/**
	 * Return a copy without managed flow steering.
	 * @return the device
	 */
	public TestDevice withoutFlowSteering() {
		return new TestDevice(this.name, this.guid, this.firmware, this.ports, this.countersSupported, false,
				this.roceEnabled, this.linuxBefore58);
	}

	/**
	 * Return a copy with RoCE disabled: UDP 4791 is then plain Ethernet traffic.
	 * @return the device
	 */
	public TestDevice withRoceDisabled() {
		return new TestDevice(this.name, this.guid, this.firmware, this.ports, this.countersSupported,
				this.flowSteering, false, this.linuxBefore58);
	}

	/**
	 * Return a copy that behaves like Linux before 5.8.
	 * @return the device
	 */
	public TestDevice withLinuxBefore58() {
		return new TestDevice(this.name, this.guid, this.firmware, this.ports, this.countersSupported,
				this.flowSteering, this.roceEnabled, true);
	}

}
