package io.github.rdmacounters.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

import io.github.rdmacounters.core.LinkLayer;

/**
 * Configuration properties of RDMA counters ({@code rdma.*}). The device to open, its
 * port, port counters and counter sets come from {@link RdmaDeviceProperties}, so that a
 * future list of devices can reuse that type; the settings here apply to every device.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@ConfigurationProperties(RdmaProperties.PREFIX)
public class RdmaProperties extends RdmaDeviceProperties {

	/**
	 * Prefix of the RDMA properties.
	 */
	public static final String PREFIX = "rdma";

	/**
	 * Whether to enable RDMA counters.
	 */
	private boolean enabled = true;

	/**
	 * Backend that reaches the RDMA devices.
	 */
	private Backend backend = Backend.NATIVE;

	/**
	 * How long a read of a counter set or of the port counters is reused by meters, the
	 * endpoint and health checks. 100ms to 10m: one scrape asks each set and the port
	 * counters several times, and the cache keeps that to one read per scrape; longer
	 * than any scrape interval would only serve stale values.
	 */
	private Duration readCacheTtl = Duration.ofSeconds(1);

	private final Native nativeBackend = new Native();

	private final Simulated simulated = new Simulated();

	/**
	 * Devices by name, each with its port, fail-on-unavailable and counter sets, for
	 * counter sets on several devices; rdma.device, rdma.port and rdma.counter-sets stay
	 * the shorthand for one device.
	 */
	private final Map<String, Device> devices = new LinkedHashMap<>();

	private final DeviceDefaults deviceDefaults = new DeviceDefaults();

	public Map<String, Device> getDevices() {
		return this.devices;
	}

	public DeviceDefaults getDeviceDefaults() {
		return this.deviceDefaults;
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Backend getBackend() {
		return this.backend;
	}

	public void setBackend(Backend backend) {
		this.backend = backend;
	}

	public Duration getReadCacheTtl() {
		return this.readCacheTtl;
	}

	public void setReadCacheTtl(Duration readCacheTtl) {
		this.readCacheTtl = readCacheTtl;
	}

	public Native getNative() {
		return this.nativeBackend;
	}

	public Simulated getSimulated() {
		return this.simulated;
	}

	/**
	 * One device of rdma.devices: its port, whether startup fails without it, and its
	 * counter sets.
	 */
	public static class Device {

		/**
		 * Port of the device that the sets' flows are attached to, 1 to 255; when not
		 * set, rdma.device-defaults.port, else the device's first ACTIVE port.
		 */
		private @Nullable Integer port;

		/**
		 * Whether startup fails when this device is missing, cannot be opened or does not
		 * support its counter sets; when not set,
		 * rdma.device-defaults.fail-on-unavailable. When false, the other devices start
		 * and health reports why this one is down.
		 */
		private @Nullable Boolean failOnUnavailable;

		/**
		 * Counter sets on this device by name, with the keys of rdma.counter-sets. Each
		 * set's Counters bean is named '<device>.<set>', with the alias '<set>' when no
		 * other set has that name.
		 */
		private final Map<String, CounterSetProperties> counterSets = new LinkedHashMap<>();

		public @Nullable Integer getPort() {
			return this.port;
		}

		public void setPort(@Nullable Integer port) {
			this.port = port;
		}

		public @Nullable Boolean getFailOnUnavailable() {
			return this.failOnUnavailable;
		}

		public void setFailOnUnavailable(@Nullable Boolean failOnUnavailable) {
			this.failOnUnavailable = failOnUnavailable;
		}

		public Map<String, CounterSetProperties> getCounterSets() {
			return this.counterSets;
		}

	}

	/**
	 * What every device of rdma.devices has unless it says otherwise.
	 */
	public static class DeviceDefaults {

		/**
		 * Port of every device of rdma.devices that sets none, 1 to 255; when not set,
		 * each device's first ACTIVE port.
		 */
		private @Nullable Integer port;

		/**
		 * Whether startup fails when a device of rdma.devices that sets none is
		 * unavailable; when not set, rdma.fail-on-unavailable.
		 */
		private @Nullable Boolean failOnUnavailable;

		public @Nullable Integer getPort() {
			return this.port;
		}

		public void setPort(@Nullable Integer port) {
			this.port = port;
		}

		public @Nullable Boolean getFailOnUnavailable() {
			return this.failOnUnavailable;
		}

		public void setFailOnUnavailable(@Nullable Boolean failOnUnavailable) {
			this.failOnUnavailable = failOnUnavailable;
		}

	}

	/**
	 * Backends that reach RDMA devices.
	 */
	public enum Backend {

		/**
		 * The host's RDMA devices through libibverbs.
		 */
		NATIVE,

		/**
		 * A simulated device in the JVM, for development and tests.
		 */
		SIMULATED

	}

	/**
	 * Settings of the native backend.
	 */
	public static class Native {

		/**
		 * Name or path of the libibverbs library to load.
		 */
		private String library = "libibverbs.so.1";

		public String getLibrary() {
			return this.library;
		}

		public void setLibrary(String library) {
			this.library = library;
		}

	}

	/**
	 * Settings of the simulated backend.
	 * <p>
	 * The simulated devices are those of {@link #getDevices() devices}, or the one device
	 * {@code sim_mlx5_0} with the defaults when none is configured. The deprecated
	 * single-device properties ({@code device-name}, {@code ports}, {@code link-layer},
	 * {@code counters-supported}, {@code managed-flow-steering}) are folded into that map
	 * as they are bound, as one entry named by {@code device-name}, so that everything
	 * after binding reads the map only.
	 */
	public static class Simulated {

		/**
		 * Name of the device the deprecated single-device properties describe when
		 * device-name is not set.
		 */
		static final String DEFAULT_DEVICE_NAME = "sim_mlx5_0";

		private final Traffic traffic = new Traffic();

		/**
		 * Simulated devices by name, for a host of one or several devices; when none is
		 * set, one device sim_mlx5_0 with the defaults.
		 */
		private final Map<String, SimulatedDevice> devices = new LinkedHashMap<>();

		/**
		 * The entry of the deprecated single-device properties, once one is bound.
		 */
		private @Nullable SimulatedDevice deprecatedDevice;

		/**
		 * Name of the entry the deprecated properties are folded into.
		 */
		private String deviceName = DEFAULT_DEVICE_NAME;

		/**
		 * The deprecated properties bound, e.g. ports, in binding order.
		 */
		private final Set<String> deprecatedProperties = new LinkedHashSet<>();

		public Map<String, SimulatedDevice> getDevices() {
			return this.devices;
		}

		/**
		 * Return the simulated devices of the backend: those of {@link #getDevices()}, or
		 * the one device {@value #DEFAULT_DEVICE_NAME} with the defaults when none is
		 * configured. Not named like a getter, so it is no configuration property.
		 * @return the devices by name
		 */
		Map<String, SimulatedDevice> effectiveDevices() {
			return this.devices.isEmpty() ? Map.of(DEFAULT_DEVICE_NAME, new SimulatedDevice()) : this.devices;
		}

		// The deprecated single-device properties: bound into the entry deviceName of
		// devices; their metadata (description, default, replacement) is in
		// additional-spring-configuration-metadata.json.

		@Deprecated(since = "0.2.0")
		public String getDeviceName() {
			return this.deviceName;
		}

		@Deprecated(since = "0.2.0")
		public void setDeviceName(String deviceName) {
			SimulatedDevice device = deprecatedDevice("device-name");
			if (this.devices.get(this.deviceName) == device) {
				this.devices.remove(this.deviceName);
			}
			this.deviceName = deviceName;
			this.devices.putIfAbsent(deviceName, device);
		}

		@Deprecated(since = "0.2.0")
		public int getPorts() {
			return deprecatedOrDefault().getPorts();
		}

		@Deprecated(since = "0.2.0")
		public void setPorts(int ports) {
			deprecatedDevice("ports").setPorts(ports);
		}

		@Deprecated(since = "0.2.0")
		public LinkLayer getLinkLayer() {
			return deprecatedOrDefault().getLinkLayer();
		}

		@Deprecated(since = "0.2.0")
		public void setLinkLayer(LinkLayer linkLayer) {
			deprecatedDevice("link-layer").setLinkLayer(linkLayer);
		}

		@Deprecated(since = "0.2.0")
		public boolean isCountersSupported() {
			return deprecatedOrDefault().isCountersSupported();
		}

		@Deprecated(since = "0.2.0")
		public void setCountersSupported(boolean countersSupported) {
			deprecatedDevice("counters-supported").setCountersSupported(countersSupported);
		}

		@Deprecated(since = "0.2.0")
		public boolean isManagedFlowSteering() {
			return deprecatedOrDefault().isManagedFlowSteering();
		}

		@Deprecated(since = "0.2.0")
		public void setManagedFlowSteering(boolean managedFlowSteering) {
			deprecatedDevice("managed-flow-steering").setManagedFlowSteering(managedFlowSteering);
		}

		public Traffic getTraffic() {
			return this.traffic;
		}

		/**
		 * Return the entry of {@link #getDevices()} the deprecated single-device
		 * properties were folded into.
		 * @return the entry, or {@code null} if none of them is set
		 */
		@Nullable SimulatedDevice deprecatedDevice() {
			return this.deprecatedDevice;
		}

		/**
		 * Return the name of the entry the deprecated properties were folded into.
		 * @return the name, {@code sim_mlx5_0} unless device-name says otherwise
		 */
		String deprecatedDeviceName() {
			return this.deviceName;
		}

		/**
		 * Return the deprecated properties that are set, without the prefix.
		 * @return e.g. {@code [device-name, ports]}
		 */
		Set<String> deprecatedProperties() {
			return this.deprecatedProperties;
		}

		/**
		 * Return the property that configures a key of a simulated device, as the user
		 * wrote it: a deprecated single-device property for the entry they were folded
		 * into, else the device's key under {@code rdma.simulated.devices}.
		 * @param name the device name
		 * @param key the key, e.g. {@code ports}, or {@code null} for the device's name
		 * @return the property name
		 */
		String property(String name, @Nullable String key) {
			SimulatedDevice device = this.devices.get(name);
			String simulated = PREFIX + ".simulated";
			if (device != null && device == this.deprecatedDevice
					&& this.deprecatedProperties.contains((key != null) ? key : "device-name")) {
				return simulated + "." + ((key != null) ? key : "device-name");
			}
			return simulated + ".devices." + name + ((key != null) ? "." + key : "");
		}

		private SimulatedDevice deprecatedOrDefault() {
			return (this.deprecatedDevice != null) ? this.deprecatedDevice : new SimulatedDevice();
		}

		private SimulatedDevice deprecatedDevice(String property) {
			this.deprecatedProperties.add(property);
			SimulatedDevice device = this.deprecatedDevice;
			if (device == null) {
				device = new SimulatedDevice();
				this.deprecatedDevice = device;
				this.devices.putIfAbsent(this.deviceName, device);
			}
			return device;
		}

	}

	/**
	 * One simulated device of rdma.simulated.devices.
	 */
	public static class SimulatedDevice {

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
		 * packet-size for the sets of that name on every device; a rate of 0 leaves them
		 * without traffic.
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
