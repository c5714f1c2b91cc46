package io.github.rdmacounters.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.LinkLayer;

/**
 * Settings of the simulated backend ({@code rdma.simulated}): its devices and the
 * synthetic traffic it may deliver to the counter sets.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public class SimulatedProperties {

	/**
	 * Name of the device simulated when none is configured.
	 */
	static final String DEFAULT_DEVICE_NAME = "sim_mlx5_0";

	/**
	 * Simulated devices by name, for a host of one or several devices; when none is set,
	 * one device sim_mlx5_0 with the defaults.
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
	 * Not named like a getter, so it is no configuration property.
	 * @return the devices by name
	 */
	Map<String, Device> effectiveDevices() {
		return this.devices.isEmpty() ? Map.of(DEFAULT_DEVICE_NAME, new Device()) : this.devices;
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
		 * Whether RoCE is enabled on the device (an Ethernet device with RoCE disabled
		 * does not count RoCE traffic).
		 */
		private boolean roceEnabled = true;

		/**
		 * Whether the device supports managed flow steering, which flows need.
		 */
		private boolean managedFlowSteering = true;

		/**
		 * Network interfaces of the device, as sysfs lists them under device/net, for
		 * counter sets that name their device by netdev.
		 */
		private List<String> netdevs = new ArrayList<>();

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

		public void setNetdevs(List<String> netdevs) {
			this.netdevs = netdevs;
		}

	}

	/**
	 * Synthetic traffic on the simulated devices: packets that match each counter set's
	 * flow on its device and port, so that counters move without code of your own.
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
		 * Packets per second delivered to each counter set's flow, unless the set says
		 * otherwise.
		 */
		private double packetsPerSecond = 100;

		/**
		 * Frame length in bytes of each packet, 60 to 9000, unless the set says
		 * otherwise.
		 */
		private int packetSize = 1024;

		/**
		 * Rate and packet size by counter set name, overriding packets-per-second and
		 * packet-size; a rate of 0 leaves the set without traffic.
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
