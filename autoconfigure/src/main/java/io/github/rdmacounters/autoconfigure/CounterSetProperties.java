package io.github.rdmacounters.autoconfigure;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.DefaultValue;

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
 * @param device RDMA device the set counts on, e.g. mlx5_1; else the host's only
 * flow-capable one
 * @param netdev network interface of the device the set counts on, e.g. ens1f0np0,
 * instead of device
 * @param port port the set's flow is attached to, 1 to 255; else the device's first
 * ACTIVE port
 * @param counters index of each counter type in a read; none means packets at 0 and bytes
 * at 1
 * @param readMode how the counters are read; the default is the constant's own name,
 * which Boot's enum conversion takes without the exception another spelling costs per set
 * @param flow the traffic the set counts
 * @since 0.1.0
 * @author rdma-counters
 */
public record CounterSetProperties(@Nullable String device, @Nullable String netdev, @Nullable Integer port,
		@DefaultValue Map<CounterType, Integer> counters, @DefaultValue("FRESH") ReadMode readMode,
		@DefaultValue Flow flow) {

	/**
	 * The traffic a counter set counts. Fields left unset match anything.
	 *
	 * @param etherType Ethernet type to match, 0x0600 to 0xffff, e.g. 0x0806 for ARP;
	 * implied by the IP prefixes. RoCEv1 (0x8915) is taken by the adapter before steering
	 * while RoCE is enabled
	 * @param sourceMac source MAC address to match, e.g. 02:00:5e:10:00:01 (quoted in
	 * YAML)
	 * @param destinationMac destination MAC address to match (quoted in YAML)
	 * @param vlanId VLAN id to match, 0 to 4094 (4095 is reserved)
	 * @param sourceIp source IP address or prefix to match, e.g. 10.0.0.0/24 or fd00::/64
	 * @param destinationIp destination IP address or prefix to match
	 * @param protocol transport protocol to match; required when a port is matched
	 * @param sourcePort source TCP or UDP port to match, 1 to 65535
	 * @param destinationPort destination TCP or UDP port to match, 1 to 65535, e.g. 4420
	 * for NVMe/TCP
	 * @param priority priority of the flow, 0 to 15 (mlx5's user priorities); lower wins
	 * @param dontTrap whether matched packets still reach the kernel and other flows
	 */
	public record Flow(@Nullable Integer etherType, @Nullable MacAddress sourceMac, @Nullable MacAddress destinationMac,
			@Nullable Integer vlanId, @Nullable IpPrefix sourceIp, @Nullable IpPrefix destinationIp,
			@Nullable L4Protocol protocol, @Nullable Integer sourcePort, @Nullable Integer destinationPort,
			@DefaultValue("0") int priority, @DefaultValue("true") boolean dontTrap) {

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
