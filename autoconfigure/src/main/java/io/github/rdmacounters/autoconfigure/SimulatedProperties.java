package io.github.rdmacounters.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.DefaultValue;

import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;

/**
 * Settings of the simulated backend ({@code rdma.simulated}).
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public class SimulatedProperties {

	/**
	 * Simulated devices by name; none means one device sim_mlx5_0 with the defaults.
	 */
	private final Map<String, Device> devices = new LinkedHashMap<>();

	private final Traffic traffic = new Traffic();

	public Map<String, Device> getDevices() {
		return this.devices;
	}

	public Traffic getTraffic() {
		return this.traffic;
	}

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
	 * @param ports number of ports of the device
	 * @param linkLayer link layer of the device's ports
	 * @param countersSupported whether the device implements flow counters, as only mlx5
	 * devices do
	 * @param roceEnabled whether RoCE is enabled on the device
	 * @param managedFlowSteering whether the device supports managed flow steering, which
	 * flows need
	 * @param netdevs network interfaces of the device, as sysfs lists them under
	 * device/net
	 */
	public record Device(@DefaultValue("1") int ports, @DefaultValue("ethernet") LinkLayer linkLayer,
			@DefaultValue("true") boolean countersSupported, @DefaultValue("true") boolean roceEnabled,
			@DefaultValue("true") boolean managedFlowSteering, @DefaultValue List<String> netdevs) {

		static final Device DEFAULT = new Device(1, LinkLayer.ETHERNET, true, true, true, List.of());

	}

	/**
	 * Synthetic traffic that matches each counter set's flow on the simulated devices.
	 */
	public static class Traffic {

		/**
		 * Whether to deliver synthetic traffic to the simulated devices.
		 */
		private boolean enabled = false;

		/**
		 * How often the packets the rates owe are delivered.
		 */
		private Duration interval = Duration.ofMillis(100);

		/**
		 * Packets per second delivered to each counter set's flow.
		 */
		private double packetsPerSecond = 100;

		/**
		 * Frame length in bytes of each packet, 60 to 9000.
		 */
		private int packetSize = 1024;

		/**
		 * Rate and packet size by counter set name, overriding the ones above.
		 */
		private final Map<String, SetTraffic> sets = new LinkedHashMap<>();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getInterval() {
			return this.interval;
		}

		public void setInterval(Duration interval) {
			this.interval = interval;
		}

		public double getPacketsPerSecond() {
			return this.packetsPerSecond;
		}

		public void setPacketsPerSecond(double packetsPerSecond) {
			this.packetsPerSecond = packetsPerSecond;
		}

		public int getPacketSize() {
			return this.packetSize;
		}

		public void setPacketSize(int packetSize) {
			this.packetSize = packetSize;
		}

		public Map<String, SetTraffic> getSets() {
			return this.sets;
		}

	}

	/**
	 * Synthetic traffic of one counter set.
	 *
	 * @param packetsPerSecond packets per second delivered to the set's flow
	 * @param packetSize frame length in bytes of each packet, 60 to 9000
	 */
	public record SetTraffic(@Nullable Double packetsPerSecond, @Nullable Integer packetSize) {

	}

}
