package io.github.rdmacounters.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.IpPrefix;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.MacAddress;
import io.github.rdmacounters.core.ReadMode;

/**
 * Configuration of one RDMA device: which device, which port, its port counters and the
 * counter sets counting on it. {@link RdmaProperties} extends it for the single device
 * the auto-configuration manages today.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public class RdmaDeviceProperties {

	/**
	 * Name of the RDMA device to open, e.g. mlx5_0. When not set and the backend sees
	 * exactly one device, that device is used.
	 */
	private @Nullable String device;

	/**
	 * Port of the device that flows are attached to, from 1.
	 */
	private int port = 1;

	/**
	 * Whether startup fails when the device is missing, cannot be opened or does not
	 * support the configured counter sets. When false, the application starts without the
	 * device and reports why through health.
	 */
	private boolean failOnUnavailable = true;

	private final PortCounters portCounters = new PortCounters();

	/**
	 * Counter sets by name, each counting the packets of one flow. The name (a letter,
	 * then letters, digits, '-' or '_') is the bean name of the set's Counters. Each set
	 * has counters (counter type to index, e.g. packets: 0), read-mode (fresh or
	 * prefer-cached) and flow (ether-type, source-mac, destination-mac, vlan-id,
	 * source-ip, destination-ip, protocol, source-port, destination-port, priority,
	 * dont-trap); any other key fails startup.
	 */
	private final Map<String, CounterSetProperties> counterSets = new LinkedHashMap<>();

	public @Nullable String getDevice() {
		return this.device;
	}

	public void setDevice(@Nullable String device) {
		this.device = device;
	}

	public int getPort() {
		return this.port;
	}

	public void setPort(int port) {
		this.port = port;
	}

	public boolean isFailOnUnavailable() {
		return this.failOnUnavailable;
	}

	public void setFailOnUnavailable(boolean failOnUnavailable) {
		this.failOnUnavailable = failOnUnavailable;
	}

	public PortCounters getPortCounters() {
		return this.portCounters;
	}

	public Map<String, CounterSetProperties> getCounterSets() {
		return this.counterSets;
	}

	/**
	 * Port counters read from sysfs.
	 */
	public static class PortCounters {

		/**
		 * Whether to read the device's port counters.
		 */
		private boolean enabled = true;

		/**
		 * Directory that holds one directory per RDMA device, as /sys/class/infiniband
		 * does.
		 */
		private String sysfsRoot = "/sys/class/infiniband";

		/**
		 * Names of the port counters to expose, as file names or globs such as port_*;
		 * empty exposes every counter.
		 */
		private List<String> include = new ArrayList<>();

		/**
		 * Names of the port counters not to expose, as file names or globs; applied after
		 * the includes.
		 */
		private List<String> exclude = new ArrayList<>();

		private final DeviceFilter devices = new DeviceFilter();

		public DeviceFilter getDevices() {
			return this.devices;
		}

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

		public void setInclude(List<String> include) {
			this.include = include;
		}

		public List<String> getExclude() {
			return this.exclude;
		}

		public void setExclude(List<String> exclude) {
			this.exclude = exclude;
		}

	}

	/**
	 * Which devices of the host get port counters.
	 */
	public static class DeviceFilter {

		/**
		 * Names of the devices whose port counters are read, as names or globs such as
		 * mlx5_*; empty reads every device under the sysfs root.
		 */
		private List<String> include = new ArrayList<>();

		/**
		 * Names of the devices whose port counters are not read, as names or globs;
		 * applied after the includes.
		 */
		private List<String> exclude = new ArrayList<>();

		public List<String> getInclude() {
			return this.include;
		}

		public void setInclude(List<String> include) {
			this.include = include;
		}

		public List<String> getExclude() {
			return this.exclude;
		}

		public void setExclude(List<String> exclude) {
			this.exclude = exclude;
		}

	}

	/**
	 * A counter set: counters at indexes, fed by one flow.
	 */
	public static class CounterSetProperties {

		/**
		 * Index of each counter type in a read. When none is given, packets at 0 and
		 * bytes at 1.
		 */
		private final Map<CounterType, Integer> counters = new LinkedHashMap<>();

		/**
		 * How the counters are read.
		 */
		private ReadMode readMode = ReadMode.FRESH;

		private final FlowProperties flow = new FlowProperties();

		public Map<CounterType, Integer> getCounters() {
			return this.counters;
		}

		public ReadMode getReadMode() {
			return this.readMode;
		}

		public void setReadMode(ReadMode readMode) {
			this.readMode = readMode;
		}

		public FlowProperties getFlow() {
			return this.flow;
		}

	}

	/**
	 * The traffic a counter set counts. Fields left unset match anything.
	 */
	public static class FlowProperties {

		/**
		 * Ethernet type to match, e.g. 0x8915 for RoCEv1. Implied by the IP prefixes when
		 * not set.
		 */
		private @Nullable Integer etherType;

		/**
		 * Source MAC address to match, e.g. 02:00:5e:10:00:01 (quoted in YAML).
		 */
		private @Nullable MacAddress sourceMac;

		/**
		 * Destination MAC address to match (quoted in YAML).
		 */
		private @Nullable MacAddress destinationMac;

		/**
		 * VLAN id to match, 0 to 4095.
		 */
		private @Nullable Integer vlanId;

		/**
		 * Source IPv4 or IPv6 address or prefix to match, e.g. 10.0.0.0/24 or fd00::/64.
		 */
		private @Nullable IpPrefix sourceIp;

		/**
		 * Destination IPv4 or IPv6 address or prefix to match.
		 */
		private @Nullable IpPrefix destinationIp;

		/**
		 * Transport protocol to match. Required when a port is matched.
		 */
		private @Nullable L4Protocol protocol;

		/**
		 * Source TCP or UDP port to match.
		 */
		private @Nullable Integer sourcePort;

		/**
		 * Destination TCP or UDP port to match, e.g. 4420 for NVMe/TCP.
		 */
		private @Nullable Integer destinationPort;

		/**
		 * Priority of the flow, 0 to 65535; lower wins.
		 */
		private int priority = 0;

		/**
		 * Whether matched packets still reach the kernel and other flows, so that
		 * counting never steals traffic.
		 */
		private boolean dontTrap = true;

		public @Nullable Integer getEtherType() {
			return this.etherType;
		}

		public void setEtherType(@Nullable Integer etherType) {
			this.etherType = etherType;
		}

		public @Nullable MacAddress getSourceMac() {
			return this.sourceMac;
		}

		public void setSourceMac(@Nullable MacAddress sourceMac) {
			this.sourceMac = sourceMac;
		}

		public @Nullable MacAddress getDestinationMac() {
			return this.destinationMac;
		}

		public void setDestinationMac(@Nullable MacAddress destinationMac) {
			this.destinationMac = destinationMac;
		}

		public @Nullable Integer getVlanId() {
			return this.vlanId;
		}

		public void setVlanId(@Nullable Integer vlanId) {
			this.vlanId = vlanId;
		}

		public @Nullable IpPrefix getSourceIp() {
			return this.sourceIp;
		}

		public void setSourceIp(@Nullable IpPrefix sourceIp) {
			this.sourceIp = sourceIp;
		}

		public @Nullable IpPrefix getDestinationIp() {
			return this.destinationIp;
		}

		public void setDestinationIp(@Nullable IpPrefix destinationIp) {
			this.destinationIp = destinationIp;
		}

		public @Nullable L4Protocol getProtocol() {
			return this.protocol;
		}

		public void setProtocol(@Nullable L4Protocol protocol) {
			this.protocol = protocol;
		}

		public @Nullable Integer getSourcePort() {
			return this.sourcePort;
		}

		public void setSourcePort(@Nullable Integer sourcePort) {
			this.sourcePort = sourcePort;
		}

		public @Nullable Integer getDestinationPort() {
			return this.destinationPort;
		}

		public void setDestinationPort(@Nullable Integer destinationPort) {
			this.destinationPort = destinationPort;
		}

		public int getPriority() {
			return this.priority;
		}

		public void setPriority(int priority) {
			this.priority = priority;
		}

		public boolean isDontTrap() {
			return this.dontTrap;
		}

		public void setDontTrap(boolean dontTrap) {
			this.dontTrap = dontTrap;
		}

	}

}
