package io.github.rdmacounters.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.IpPrefix;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.MacAddress;
import io.github.rdmacounters.core.ReadMode;

/**
 * One counter set of {@code rdma.counter-sets}: where it counts, its counters and its
 * flow.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public class CounterSetProperties {

	/**
	 * RDMA device the set counts on, e.g. mlx5_1; else the host's only flow-capable one.
	 */
	private @Nullable String device;

	/**
	 * Network interface of the device the set counts on, e.g. ens1f0np0, instead of
	 * device.
	 */
	private @Nullable String netdev;

	/**
	 * Port the set's flow is attached to, 1 to 255; else the device's first ACTIVE port.
	 */
	private @Nullable Integer port;

	/**
	 * Index of each counter type in a read; none means packets at 0 and bytes at 1.
	 */
	private final Map<CounterType, Integer> counters = new LinkedHashMap<>();

	/**
	 * How the counters are read.
	 */
	private ReadMode readMode = ReadMode.FRESH;

	private final Flow flow = new Flow();

	public @Nullable String getDevice() {
		return this.device;
	}

	public void setDevice(@Nullable String device) {
		this.device = device;
	}

	public @Nullable String getNetdev() {
		return this.netdev;
	}

	public void setNetdev(@Nullable String netdev) {
		this.netdev = netdev;
	}

	public @Nullable Integer getPort() {
		return this.port;
	}

	public void setPort(@Nullable Integer port) {
		this.port = port;
	}

	public Map<CounterType, Integer> getCounters() {
		return this.counters;
	}

	public ReadMode getReadMode() {
		return this.readMode;
	}

	public void setReadMode(ReadMode readMode) {
		this.readMode = readMode;
	}

	public Flow getFlow() {
		return this.flow;
	}

	/**
	 * The traffic a counter set counts. Fields left unset match anything.
	 */
	public static class Flow {

		/**
		 * Ethernet type to match, e.g. 0x8915 for RoCEv1; implied by the IP prefixes.
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
		 * Source IP address or prefix to match, e.g. 10.0.0.0/24 or fd00::/64.
		 */
		private @Nullable IpPrefix sourceIp;

		/**
		 * Destination IP address or prefix to match.
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
		 * Whether matched packets still reach the kernel and other flows.
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

		/**
		 * Start the flow of these properties; its rules are {@link FlowSpec}'s.
		 * @param property the flow's property, e.g. {@code rdma.counter-sets.web.flow}
		 * @return the builder, which reports each field at fault under its property
		 */
		FlowSpec.Builder toBuilder(String property) {
			return FlowSpec.builder(property)
				.etherType(this.etherType)
				.sourceMac(this.sourceMac)
				.destinationMac(this.destinationMac)
				.vlanId(this.vlanId)
				.sourceIp(this.sourceIp)
				.destinationIp(this.destinationIp)
				.protocol(this.protocol)
				.sourcePort(this.sourcePort)
				.destinationPort(this.destinationPort)
				.priority(this.priority)
				.dontTrap(this.dontTrap);
		}

	}

}
