package io.github.rdmacounters.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.DefaultValue;

import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;

/**
 * Settings of the simulated backend ({@code rdma.simulated}).
 *
 * @param devices Simulated devices by name; none means one device sim_mlx5_0 with the
 * defaults.
 * @param traffic Synthetic traffic that matches each counter set's flow on the simulated
 * devices.
 * @since 0.1.0
 * @author rdma-counters
 */
public record SimulatedProperties(@DefaultValue Map<String, Device> devices, @DefaultValue Traffic traffic) {

	/**
	 * Return the simulated devices: those configured, or sim_mlx5_0 with the defaults.
	 * @return the devices by name
	 */
	Map<String, Device> effectiveDevices() {
		return this.devices.isEmpty() ? Map.of(SimulatedDeviceSpec.DEFAULT_NAME, Device.DEFAULT) : this.devices;
	}

	/**
	 * One simulated device of rdma.simulated.devices.
	 *
	 * @param ports Number of ports of the device.
	 * @param linkLayer Link layer of the device's ports.
	 * @param countersSupported Whether the device implements flow counters, as only mlx5
	 * devices do.
	 * @param roceEnabled Whether RoCE is enabled on the device.
	 * @param managedFlowSteering Whether the device supports managed flow steering, which
	 * flows need.
	 * @param netdevs Network interfaces of the device, as sysfs lists them under
	 * device/net.
	 */
	public record Device(@DefaultValue("1") int ports, @DefaultValue("ethernet") LinkLayer linkLayer,
			@DefaultValue("true") boolean countersSupported, @DefaultValue("true") boolean roceEnabled,
			@DefaultValue("true") boolean managedFlowSteering, @DefaultValue List<String> netdevs) {

		static final Device DEFAULT = new Device(1, LinkLayer.ETHERNET, true, true, true, List.of());

	}

	/**
	 * Synthetic traffic that matches each counter set's flow on the simulated devices.
	 *
	 * @param enabled Whether to deliver synthetic traffic to the simulated devices.
	 * @param interval How often the packets the rates owe are delivered.
	 * @param packetsPerSecond Packets per second delivered to each counter set's flow.
	 * @param packetSize Frame length in bytes of each packet, 60 to 9000.
	 * @param sets Rate and packet size by counter set name, overriding the ones above.
	 */
	public record Traffic(@DefaultValue("false") boolean enabled, @DefaultValue("100ms") Duration interval,
			@DefaultValue("100") double packetsPerSecond, @DefaultValue("1024") int packetSize,
			@DefaultValue Map<String, SetTraffic> sets) {

	}

	/**
	 * Synthetic traffic of one counter set.
	 *
	 * @param packetsPerSecond Packets per second delivered to the set's flow.
	 * @param packetSize Frame length in bytes of each packet, 60 to 9000.
	 */
	public record SetTraffic(@Nullable Double packetsPerSecond, @Nullable Integer packetSize) {

	}

}
