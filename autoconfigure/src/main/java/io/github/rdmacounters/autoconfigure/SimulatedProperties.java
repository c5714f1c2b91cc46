package io.github.rdmacounters.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

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
		return this.devices.isEmpty() ? Map.of(SimulatedDeviceSpec.DEFAULT_NAME, new Device()) : this.devices;
	}

	/**
	 * One simulated device of rdma.simulated.devices.
	 */
	public static class Device {

		/**
		 * Number of ports of the device.
		 */
		private int ports = 1;

		/**
		 * Link layer of the device's ports.
		 */
		private LinkLayer linkLayer = LinkLayer.ETHERNET;

		/**
		 * Whether the device implements flow counters, as only mlx5 devices do.
		 */
		private boolean countersSupported = true;

		/**
		 * Whether RoCE is enabled on the device.
		 */
		private boolean roceEnabled = true;

		/**
		 * Whether the device supports managed flow steering, which flows need.
		 */
		private boolean managedFlowSteering = true;

		/**
		 * Network interfaces of the device, as sysfs lists them under device/net.
		 */
		private final List<String> netdevs = new ArrayList<>();

		public int getPorts() {
			return this.ports;
		}

		public void setPorts(int ports) {
			this.ports = ports;
		}

		public LinkLayer getLinkLayer() {
			return this.linkLayer;
		}

		public void setLinkLayer(LinkLayer linkLayer) {
			this.linkLayer = linkLayer;
		}

		public boolean isCountersSupported() {
			return this.countersSupported;
		}

		public void setCountersSupported(boolean countersSupported) {
			this.countersSupported = countersSupported;
		}

		public boolean isRoceEnabled() {
			return this.roceEnabled;
		}

		public void setRoceEnabled(boolean roceEnabled) {
			this.roceEnabled = roceEnabled;
		}

		public boolean isManagedFlowSteering() {
			return this.managedFlowSteering;
		}

		public void setManagedFlowSteering(boolean managedFlowSteering) {
			this.managedFlowSteering = managedFlowSteering;
		}

		public List<String> getNetdevs() {
			return this.netdevs;
		}

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
	 */
	public static class SetTraffic {

		/**
		 * Packets per second delivered to the set's flow.
		 */
		private @Nullable Double packetsPerSecond;

		/**
		 * Frame length in bytes of each packet, 60 to 9000.
		 */
		private @Nullable Integer packetSize;

		public @Nullable Double getPacketsPerSecond() {
			return this.packetsPerSecond;
		}

		public void setPacketsPerSecond(@Nullable Double packetsPerSecond) {
			this.packetsPerSecond = packetsPerSecond;
		}

		public @Nullable Integer getPacketSize() {
			return this.packetSize;
		}

		public void setPacketSize(@Nullable Integer packetSize) {
			this.packetSize = packetSize;
		}

	}

}
