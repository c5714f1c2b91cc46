package io.github.rdmacounters.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

import io.github.rdmacounters.autoconfigure.ethtool.RdmaEthtoolProperties;
import io.github.rdmacounters.autoconfigure.netlink.RdmaOptionalCountersProperties;
import io.github.rdmacounters.autoconfigure.netlink.RdmaQueuePairsProperties;
import io.github.rdmacounters.autoconfigure.ui.RdmaUiProperties;

/**
 * Configuration properties of RDMA counters ({@code rdma.*}), where an unknown key fails
 * startup.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@ConfigurationProperties(prefix = RdmaProperties.PREFIX, ignoreUnknownFields = false)
public class RdmaProperties {

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
	 * How long a read of counters or port state is reused, 100ms to 10m.
	 */
	private Duration readCacheTtl = Duration.ofSeconds(1);

	/**
	 * Whether startup fails when a device that counter sets need is unavailable; else
	 * health reports it.
	 */
	private boolean failOnUnavailable = true;

	private final Native nativeBackend = new Native();

	private final PortCounters portCounters = new PortCounters();

	/**
	 * Options of devices by device name, e.g. mlx5_1.
	 */
	private final Map<String, Device> devices = new LinkedHashMap<>();

	/**
	 * Counter sets by name (also their Counters bean name), each counting one flow on one
	 * device and port.
	 */
	private final Map<String, CounterSetProperties> counterSets = new LinkedHashMap<>();

	@NestedConfigurationProperty
	private final RdmaEventsProperties events = new RdmaEventsProperties();

	@NestedConfigurationProperty
	private final RdmaUiProperties ui = new RdmaUiProperties();

	@NestedConfigurationProperty
	private final RdmaOptionalCountersProperties optionalCounters = new RdmaOptionalCountersProperties();

	@NestedConfigurationProperty
	private final RdmaQueuePairsProperties queuePairs = new RdmaQueuePairsProperties();

	@NestedConfigurationProperty
	private final SimulatedProperties simulated = new SimulatedProperties();

	@NestedConfigurationProperty
	private final RdmaEthtoolProperties ethtool = new RdmaEthtoolProperties();

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

	public boolean isFailOnUnavailable() {
		return this.failOnUnavailable;
	}

	public void setFailOnUnavailable(boolean failOnUnavailable) {
		this.failOnUnavailable = failOnUnavailable;
	}

	public Native getNative() {
		return this.nativeBackend;
	}

	public PortCounters getPortCounters() {
		return this.portCounters;
	}

	public Map<String, Device> getDevices() {
		return this.devices;
	}

	public Map<String, CounterSetProperties> getCounterSets() {
		return this.counterSets;
	}

	public RdmaEventsProperties getEvents() {
		return this.events;
	}

	public RdmaUiProperties getUi() {
		return this.ui;
	}

	public RdmaOptionalCountersProperties getOptionalCounters() {
		return this.optionalCounters;
	}

	public RdmaQueuePairsProperties getQueuePairs() {
		return this.queuePairs;
	}

	public SimulatedProperties getSimulated() {
		return this.simulated;
	}

	public RdmaEthtoolProperties getEthtool() {
		return this.ethtool;
	}

	/**
	 * Return whether startup fails without a device: its own setting, else the global
	 * one.
	 * @param device the device name
	 * @return whether startup fails without it
	 */
	boolean failOnUnavailable(String device) {
		Device options = this.devices.get(device);
		Boolean own = (options != null) ? options.failOnUnavailable() : null;
		return (own != null) ? own : this.failOnUnavailable;
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
		 * Simulated devices in the JVM, for development and tests.
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
	 * Options of one device.
	 *
	 * @param failOnUnavailable whether startup fails when this device is unavailable;
	 * else rdma.fail-on-unavailable
	 */
	public record Device(@Nullable Boolean failOnUnavailable) {

	}

	/**
	 * Port counters of every RDMA device of the host, read from sysfs.
	 */
	public static class PortCounters {

		/**
		 * Whether to read the port counters of the host's devices.
		 */
		private boolean enabled = true;

		/**
		 * Directory that holds one directory per RDMA device.
		 */
		private String sysfsRoot = "/sys/class/infiniband";

		/**
		 * Port counters to expose, as file names or globs such as port_*; empty for all.
		 */
		private final List<String> include = new ArrayList<>();

		/**
		 * Port counters not to expose, as file names or globs, applied after include.
		 */
		private final List<String> exclude = new ArrayList<>();

		private final DeviceFilter devices = new DeviceFilter();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getSysfsRoot() {
			return this.sysfsRoot;
		}

		public void setSysfsRoot(String sysfsRoot) {
			this.sysfsRoot = sysfsRoot;
		}

		public List<String> getInclude() {
			return this.include;
		}

		public List<String> getExclude() {
			return this.exclude;
		}

		public DeviceFilter getDevices() {
			return this.devices;
		}

	}

	/**
	 * Which devices of the host get port counters.
	 */
	public static class DeviceFilter {

		/**
		 * Devices whose port counters are read, as names or globs such as mlx5_*; empty
		 * for all.
		 */
		private final List<String> include = new ArrayList<>();

		/**
		 * Devices whose port counters are not read, applied after include.
		 */
		private final List<String> exclude = new ArrayList<>();

		public List<String> getInclude() {
			return this.include;
		}

		public List<String> getExclude() {
			return this.exclude;
		}

	}

}
