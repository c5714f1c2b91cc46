package io.github.rdmacounters.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What a steering flow matches: Ethernet fields, an IPv4 or IPv6 source and destination
 * prefix, a TCP or UDP source and destination port; plus the flow's priority and whether
 * it leaves the packet to the kernel ({@code IBV_FLOW_ATTR_FLAGS_DONT_TRAP}). Fields left
 * {@code null} match anything. Immutable; built with {@link #builder()}.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public final class FlowSpec {

	/** The tag protocol identifiers of 802.1Q, 802.1ad and the older QinQ. */
	private static final List<Integer> VLAN_TAG_TYPES = List.of(0x8100, 0x88A8, 0x9100);

	/** The lowest Ethernet type: below it the field is an IEEE 802.3 frame's length. */
	private static final int FIRST_ETHER_TYPE = 0x0600;

	private static final IpPrefix LIMITED_BROADCAST = IpPrefix.parse("255.255.255.255");

	private static final FlowSpec ANY = builder().build();

	private final @Nullable Integer etherType;

	private final @Nullable MacAddress sourceMac;

	private final @Nullable MacAddress destinationMac;

	private final @Nullable Integer vlanId;

	private final @Nullable IpPrefix sourceIp;

	private final @Nullable IpPrefix destinationIp;

	private final @Nullable L4Protocol protocol;

	private final @Nullable Integer sourcePort;

	private final @Nullable Integer destinationPort;

	private final int priority;

	private final boolean dontTrap;

	private FlowSpec(Builder builder) {
		this.etherType = builder.etherType;
		this.sourceMac = builder.sourceMac;
		this.destinationMac = builder.destinationMac;
		this.vlanId = builder.vlanId;
		this.sourceIp = builder.sourceIp;
		this.destinationIp = builder.destinationIp;
		this.protocol = builder.protocol;
		this.sourcePort = builder.sourcePort;
		this.destinationPort = builder.destinationPort;
		this.priority = builder.priority;
		this.dontTrap = builder.dontTrap;
	}

	/**
	 * Return a spec that matches every packet, with priority 0 and don't-trap.
	 * @return the spec
	 */
	public static FlowSpec any() {
		return ANY;
	}

	/**
	 * Start a spec.
	 * @return a builder with don't-trap set and priority 0
	 */
	public static Builder builder() {
		return new Builder(null);
	}

	/**
	 * Start a spec from configuration: {@link Builder#build()} reports every field at
	 * fault at once, each under its property, e.g. {@code <property>.destination-port}.
	 * @param property the flow's property, e.g. {@code rdma.counter-sets.web.flow}
	 * @return a builder with don't-trap set and priority 0
	 * @since 0.1.0
	 */
	public static Builder builder(String property) {
		return new Builder(property);
	}

	/**
	 * Start a builder with the fields of this spec, e.g. to move it to another priority.
	 * @return a builder holding this spec's fields as set
	 */
	public Builder toBuilder() {
		Builder builder = new Builder(null);
		builder.etherType = this.etherType;
		builder.sourceMac = this.sourceMac;
		builder.destinationMac = this.destinationMac;
		builder.vlanId = this.vlanId;
		builder.sourceIp = this.sourceIp;
		builder.destinationIp = this.destinationIp;
		builder.protocol = this.protocol;
		builder.sourcePort = this.sourcePort;
		builder.destinationPort = this.destinationPort;
		builder.priority = this.priority;
		builder.dontTrap = this.dontTrap;
		return builder;
	}

	/**
	 * Return the Ethernet type to match: as set, or implied by the IP family.
	 * @return the Ethernet type, or {@code null} for any
	 */
	public @Nullable Integer etherType() {
		if (this.etherType != null) {
			return this.etherType;
		}
		if (ipVersion() == 4) {
			return Packet.ETHERTYPE_IPV4;
		}
		if (ipVersion() == 6) {
			return Packet.ETHERTYPE_IPV6;
		}
		return null;
	}

	/**
	 * Return the source MAC to match.
	 * @return the MAC, or {@code null} for any
	 */
	public @Nullable MacAddress sourceMac() {
		return this.sourceMac;
	}

	/**
	 * Return the destination MAC to match.
	 * @return the MAC, or {@code null} for any
	 */
	public @Nullable MacAddress destinationMac() {
		return this.destinationMac;
	}

	/**
	 * Return the VLAN id to match.
	 * @return the VLAN id, or {@code null} for any
	 */
	public @Nullable Integer vlanId() {
		return this.vlanId;
	}

	/**
	 * Return the source prefix to match.
	 * @return the prefix, or {@code null} for any
	 */
	public @Nullable IpPrefix sourceIp() {
		return this.sourceIp;
	}

	/**
	 * Return the destination prefix to match.
	 * @return the prefix, or {@code null} for any
	 */
	public @Nullable IpPrefix destinationIp() {
		return this.destinationIp;
	}

	/**
	 * Return the IP version the flow matches: 4, 6, or 0 when it has no IP prefix.
	 * @return the IP version
	 */
	public int ipVersion() {
		IpPrefix prefix = (this.sourceIp != null) ? this.sourceIp : this.destinationIp;
		if (prefix == null) {
			return 0;
		}
		return prefix.isIpv4() ? 4 : 6;
	}

	/**
	 * Return the transport protocol to match.
	 * @return the protocol, or {@code null} for any
	 */
	public @Nullable L4Protocol protocol() {
		return this.protocol;
	}

	/**
	 * Return the source port to match.
	 * @return the port, or {@code null} for any
	 */
	public @Nullable Integer sourcePort() {
		return this.sourcePort;
	}

	/**
	 * Return the destination port to match.
	 * @return the port, or {@code null} for any
	 */
	public @Nullable Integer destinationPort() {
		return this.destinationPort;
	}

	/**
	 * Return the flow priority ({@code ibv_flow_attr.priority}); lower wins.
	 * @return the priority
	 */
	public int priority() {
		return this.priority;
	}

	/**
	 * Return whether matched packets still reach the kernel and other flows
	 * ({@code IBV_FLOW_ATTR_FLAGS_DONT_TRAP}).
	 * @return {@code true} if counting must not steal traffic
	 */
	public boolean dontTrap() {
		return this.dontTrap;
	}

	/**
	 * Return whether a packet matches every field this spec sets. This is the reference
	 * semantics the simulated device uses; the fake libibverbs implements the same on the
	 * encoded specs.
	 * @param packet the packet
	 * @return {@code true} if it matches
	 */
	public boolean matches(Packet packet) {
		Integer type = etherType();
		if (type != null && type != packet.etherType()) {
			return false;
		}
		if (this.sourceMac != null && !this.sourceMac.equals(packet.sourceMac())) {
			return false;
		}
		if (this.destinationMac != null && !this.destinationMac.equals(packet.destinationMac())) {
			return false;
		}
		if (this.vlanId != null && !this.vlanId.equals(packet.vlanId())) {
			return false;
		}
		if (!matches(this.sourceIp, packet.sourceIp()) || !matches(this.destinationIp, packet.destinationIp())) {
			return false;
		}
		if (this.protocol != null && this.protocol.ipProtocol() != packet.ipProtocol()) {
			return false;
		}
		if (this.sourcePort != null && this.sourcePort != packet.sourcePort()) {
			return false;
		}
		return this.destinationPort == null || this.destinationPort == packet.destinationPort();
	}

	private static boolean matches(@Nullable IpPrefix prefix, java.net.@Nullable InetAddress address) {
		return prefix == null || (address != null && prefix.contains(address));
	}

	/**
	 * Describe the spec the way a user wrote it, e.g. {@code udp dst-port 4791}.
	 * @return the description
	 */
	public String describe() {
		List<String> parts = new ArrayList<>();
		if (this.etherType != null) {
			parts.add(String.format("ether-type 0x%04x", this.etherType));
		}
		if (this.sourceMac != null) {
			parts.add("src-mac " + this.sourceMac);
		}
		if (this.destinationMac != null) {
			parts.add("dst-mac " + this.destinationMac);
		}
		if (this.vlanId != null) {
			parts.add("vlan " + this.vlanId);
		}
		if (this.sourceIp != null) {
			parts.add("src " + this.sourceIp);
		}
		if (this.destinationIp != null) {
			parts.add("dst " + this.destinationIp);
		}
		if (this.protocol != null) {
			parts.add(this.protocol.name().toLowerCase(java.util.Locale.ROOT));
		}
		if (this.sourcePort != null) {
			parts.add("src-port " + this.sourcePort);
		}
		if (this.destinationPort != null) {
			parts.add("dst-port " + this.destinationPort);
		}
		if (parts.isEmpty()) {
			parts.add("any");
		}
		return String.join(" ", parts);
	}

	@Override
	public boolean equals(@Nullable Object obj) {
		if (this == obj) {
			return true;
		}
		if (!(obj instanceof FlowSpec other)) {
			return false;
		}
		return Objects.equals(this.etherType, other.etherType) && Objects.equals(this.sourceMac, other.sourceMac)
				&& Objects.equals(this.destinationMac, other.destinationMac)
				&& Objects.equals(this.vlanId, other.vlanId) && Objects.equals(this.sourceIp, other.sourceIp)
				&& Objects.equals(this.destinationIp, other.destinationIp) && this.protocol == other.protocol
				&& Objects.equals(this.sourcePort, other.sourcePort)
				&& Objects.equals(this.destinationPort, other.destinationPort) && this.priority == other.priority
				&& this.dontTrap == other.dontTrap;
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.etherType, this.sourceMac, this.destinationMac, this.vlanId, this.sourceIp,
				this.destinationIp, this.protocol, this.sourcePort, this.destinationPort, this.priority, this.dontTrap);
	}

	@Override
	public String toString() {
		return describe() + " (priority " + this.priority + (this.dontTrap ? ", dont-trap)" : ")");
	}

	/**
	 * Builder of {@link FlowSpec}; {@link #build()} validates the combination.
	 */
	public static final class Builder {

		private @Nullable Integer etherType;

		private @Nullable MacAddress sourceMac;

		private @Nullable MacAddress destinationMac;

		private @Nullable Integer vlanId;

		private @Nullable IpPrefix sourceIp;

		private @Nullable IpPrefix destinationIp;

		private @Nullable L4Protocol protocol;

		private @Nullable Integer sourcePort;

		private @Nullable Integer destinationPort;

		private int priority;

		private boolean dontTrap = true;

		private final @Nullable String property;

		private final List<InvalidRdmaConfigurationException.Problem> problems = new ArrayList<>();

		private Builder(@Nullable String property) {
			this.property = property;
		}

		/**
		 * Match an Ethernet type.
		 * @param etherType the type, 0 to 0xffff
		 * @return this builder
		 */
		public Builder etherType(@Nullable Integer etherType) {
			if (etherType != null) {
				checkRange("etherType", etherType, 0, 0xFFFF);
			}
			this.etherType = etherType;
			return this;
		}

		/**
		 * Match a source MAC. A group address (multicast or broadcast: the first octet is
		 * odd) is refused: IEEE 802 never sends a frame from one, so the flow would count
		 * nothing.
		 * @param mac the MAC, an individual address
		 * @return this builder
		 */
		public Builder sourceMac(@Nullable MacAddress mac) {
			if (mac != null && (mac.octets()[0] & 1) != 0) {
				fail("sourceMac", mac, "is a group (multicast or broadcast) address, its first octet odd, which is "
						+ "never a frame's source (IEEE 802), so the set would count nothing: write the sender's "
						+ "unicast address, or match the group with " + name("destinationMac"));
			}
			this.sourceMac = mac;
			return this;
		}

		/**
		 * Match a destination MAC.
		 * @param mac the MAC
		 * @return this builder
		 */
		public Builder destinationMac(@Nullable MacAddress mac) {
			this.destinationMac = mac;
			return this;
		}

		/**
		 * Match a VLAN id.
		 * @param vlanId the id, 0 to 4094 (4095 is reserved)
		 * @return this builder
		 */
		public Builder vlanId(@Nullable Integer vlanId) {
			if (vlanId != null) {
				if (vlanId == 4095) {
					fail("vlanId", vlanId, "must be 0 to 4094: VLAN id 4095 is reserved (IEEE 802.1Q) and no frame "
							+ "carries it, so the set would count nothing");
				}
				else {
					checkRange("vlanId", vlanId, 0, 4094);
				}
			}
			this.vlanId = vlanId;
			return this;
		}

		/**
		 * Match a source prefix. A prefix within the multicast range (224.0.0.0/4,
		 * ff00::/8) is refused: no packet comes from a multicast address.
		 * @param prefix the prefix, without host bits (see {@link #destinationIp})
		 * @return this builder
		 */
		public Builder sourceIp(@Nullable IpPrefix prefix) {
			checkNoHostBits("sourceIp", prefix);
			if (prefix != null) {
				checkSource(prefix);
			}
			this.sourceIp = prefix;
			return this;
		}

		/**
		 * Match a destination prefix. A prefix with bits set after its length, e.g.
		 * {@code 10.0.0.1/24}, is refused: mlx5 copies the address and the mask into the
		 * rule as given ({@code mlx5_ib}'s {@code parse_flow_attr}) and
		 * {@code mlx5_core}'s {@code check_valid_spec} fails the rule with {@code EINVAL}
		 * when the value has a bit outside the mask.
		 * @param prefix the prefix, without host bits
		 * @return this builder
		 */
		public Builder destinationIp(@Nullable IpPrefix prefix) {
			checkNoHostBits("destinationIp", prefix);
			if (prefix != null && isLoopback(prefix)) {
				failLoopback("destinationIp", prefix);
			}
			else if (prefix != null && prefix.prefixLength() == (prefix.isIpv4() ? 32 : 128)
					&& prefix.address().isAnyLocalAddress()) {
				fail("destinationIp", prefix,
						"is the unspecified address, to which no packet is sent, so the set "
								+ "would count nothing: to count every destination, leave " + name("destinationIp")
								+ " out (an address of " + prefix + " means any only where a socket is bound)");
			}
			this.destinationIp = prefix;
			return this;
		}

		/**
		 * Match a transport protocol.
		 * @param protocol the protocol
		 * @return this builder
		 */
		public Builder protocol(@Nullable L4Protocol protocol) {
			this.protocol = protocol;
			return this;
		}

		/**
		 * Match a source port; needs a protocol.
		 * @param port the port, 1 to 65535 (TCP and UDP reserve 0)
		 * @return this builder
		 */
		public Builder sourcePort(@Nullable Integer port) {
			if (port != null) {
				checkPort("sourcePort", port);
			}
			this.sourcePort = port;
			return this;
		}

		/**
		 * Match a destination port; needs a protocol.
		 * @param port the port, 1 to 65535 (TCP and UDP reserve 0)
		 * @return this builder
		 */
		public Builder destinationPort(@Nullable Integer port) {
			if (port != null) {
				checkPort("destinationPort", port);
			}
			this.destinationPort = port;
			return this;
		}

		/**
		 * Set the flow priority. A counter set's builder
		 * ({@link FlowSpec#builder(String)}) takes 0 to 15, mlx5's user priorities, among
		 * which the sets are placed.
		 * @param priority the priority, 0 to 65535
		 * @return this builder
		 */
		public Builder priority(int priority) {
			if (this.property != null) {
				// a set's priority is placed among mlx5's user priorities
				if (priority < 0 || priority > CounterSetPlacement.LAST_PRIORITY) {
					fail("priority", priority, CounterSetPlacement.PRIORITY_RULE);
				}
			}
			else {
				checkRange("priority", priority, 0, 0xFFFF);
			}
			this.priority = priority;
			return this;
		}

		/**
		 * Set whether matched packets still reach the kernel and other flows.
		 * @param dontTrap {@code true} (the default) to count without stealing traffic
		 * @return this builder
		 */
		public Builder dontTrap(boolean dontTrap) {
			this.dontTrap = dontTrap;
			return this;
		}

		/**
		 * Validate and build the spec.
		 * @return the spec
		 * @throws InvalidFieldException if ports are set without a protocol, the two
		 * prefixes are of different families, or the Ethernet type contradicts the
		 * prefixes
		 * @throws InvalidRdmaConfigurationException instead, listing every field at
		 * fault, for a builder made by {@link FlowSpec#builder(String)}
		 */
		public FlowSpec build() {
			if (this.problems.isEmpty()) {
				checkCombination();
			}
			if (!this.problems.isEmpty()) {
				throw new InvalidRdmaConfigurationException(this.problems);
			}
			return new FlowSpec(this);
		}

		private void checkCombination() {
			if ((this.sourcePort != null || this.destinationPort != null) && this.protocol == null) {
				String field = (this.destinationPort != null) ? "destinationPort" : "sourcePort";
				Integer port = (this.destinationPort != null) ? this.destinationPort : this.sourcePort;
				if (this.property != null) {
					// report the port the user wrote, not the protocol they left out
					fail(field, port, "needs " + this.property
							+ ".protocol (tcp or udp): a port is matched only within a protocol");
					return;
				}
				fail("protocol", null, "must be tcp or udp when a port is matched (" + field + " " + port + ")");
			}
			if (this.sourceIp != null && this.destinationIp != null
					&& this.sourceIp.isIpv4() != this.destinationIp.isIpv4()) {
				fail("destinationIp", this.destinationIp, "must be of the same IP family as " + name("sourceIp") + " ("
						+ this.sourceIp + "): both IPv4 or both IPv6");
			}
			if (this.etherType != null && this.etherType < FIRST_ETHER_TYPE) {
				// IEEE 802.3 clause 3.2.6: in that field a value up to 1500 is the length
				// of an 802.3 frame (whose LLC header names the protocol), 1501 to 1535
				// is undefined, and Ethernet types start at 1536
				fail("etherType", String.format("0x%04x", this.etherType),
						"is not an Ethernet type: below 0x0600 (1536) that field names no protocol (up to 1500 it "
								+ "is the length of an IEEE 802.3 frame), so the flow would count no protocol's "
								+ "traffic; Ethernet types start at 0x0600, e.g. 0x0800 (IPv4), 0x86dd (IPv6) or "
								+ "0x0806 (ARP)");
				return;
			}
			if (this.etherType != null && VLAN_TAG_TYPES.contains(this.etherType)) {
				// mlx5 matches a VLAN with the eth spec's vlan_tag (first_vid, cvlan_tag
				// in
				// Linux drivers/infiniband/hw/mlx5/fs.c parse_flow_attr) and its
				// ethertype
				// with the type after the tags: a tag type there matches no frame
				fail("etherType", String.format("0x%04x", this.etherType),
						"is a VLAN tag type (0x8100, 0x88a8 or 0x9100), which the adapter's steering never sees as "
								+ "the Ethernet type: it compares the type after the VLAN tag; match a VLAN with "
								+ name("vlanId") + ", and leave the Ethernet type unset or name the type the VLAN "
								+ "carries (0x0800 for IPv4)");
				return;
			}
			if (this.etherType != null && this.etherType != Packet.ETHERTYPE_IPV4
					&& this.etherType != Packet.ETHERTYPE_IPV6
					&& (this.protocol != null || this.sourcePort != null || this.destinationPort != null)) {
				fail("etherType", String.format("0x%04x", this.etherType),
						"is not IP (0x0800 or 0x86dd), but " + name("protocol")
								+ " and ports are matched in an IP packet, so the flow would count nothing; leave the "
								+ "Ethernet type unset, use 0x0800 or 0x86dd, or remove the protocol and ports");
				return;
			}
			IpPrefix prefix = (this.sourceIp != null) ? this.sourceIp : this.destinationIp;
			if (prefix != null && this.etherType != null) {
				int implied = prefix.isIpv4() ? Packet.ETHERTYPE_IPV4 : Packet.ETHERTYPE_IPV6;
				if (this.etherType != implied) {
					fail("etherType", String.format("0x%04x", this.etherType),
							String.format("must match the %s prefix %s: leave it unset or use 0x%04x",
									prefix.isIpv4() ? "IPv4" : "IPv6", prefix, implied));
				}
			}
		}

		private void checkNoHostBits(String name, @Nullable IpPrefix prefix) {
			if (prefix == null) {
				return;
			}
			IpPrefix network = prefix.network();
			if (!network.equals(prefix)) {
				fail(name, prefix,
						"has host bits set beyond its /" + prefix.prefixLength() + " prefix: write the network "
								+ network + ", or " + IpPrefix.format(prefix.address()) + "/"
								+ (prefix.isIpv4() ? 32 : 128) + " for that one address; mlx5 refuses a flow "
								+ "whose value has bits outside its mask (check_valid_spec, EINVAL)");
			}
		}

		private void checkPort(String name, int port) {
			if (port == 0) {
				// a rule with port 0 under a full mask matches only port 0
				// (parse_flow_attr copies value and mask), which no service uses
				fail(name, port, "must be 1 to 65535: port 0 is reserved in TCP and UDP, so a flow matching it counts "
						+ "nothing; to count every port, leave " + name(name) + " out");
				return;
			}
			checkRange(name, port, 1, 0xFFFF);
		}

		private void checkSource(IpPrefix prefix) {
			if (isLoopback(prefix)) {
				failLoopback("sourceIp", prefix);
			}
			else if (prefix.equals(LIMITED_BROADCAST)) {
				fail("sourceIp", prefix, "is the limited broadcast address, which is never a packet's source "
						+ "(RFC 1122 3.2.1.3), so the set would count nothing: write the senders' unicast prefix, or "
						+ "match broadcasts with " + name("destinationIp"));
			}
			else if (isMulticast(prefix)) {
				fail("sourceIp", prefix, "is a multicast prefix, and a multicast address is never a packet's source "
						+ "(RFC 1112 for IPv4, RFC 4291 2.7 for IPv6), so the set would count nothing: write the "
						+ "senders' unicast prefix, or match the group with " + name("destinationIp"));
			}
		}

		private void failLoopback(String field, IpPrefix prefix) {
			fail(field, prefix, "is a loopback prefix: the host's loopback traffic stays on the kernel's lo "
					+ "interface and never reaches the NIC (and the kernel drops such an address arriving on the "
					+ "wire, RFC 1122 3.2.1.3), so the set would count nothing: match the NIC's own addresses");
		}

		private static boolean isLoopback(IpPrefix prefix) {
			// the whole prefix within 127.0.0.0/8, or ::1/128
			return prefix.address().isLoopbackAddress() && prefix.prefixLength() >= (prefix.isIpv4() ? 8 : 128);
		}

		private static boolean isMulticast(IpPrefix prefix) {
			// the whole prefix within 224.0.0.0/4 or ff00::/8
			return prefix.address().isMulticastAddress() && prefix.prefixLength() >= (prefix.isIpv4() ? 4 : 8);
		}

		private void checkRange(String name, int value, int min, int max) {
			if (value < min || value > max) {
				fail(name, value, "must be " + min + " to " + max);
			}
		}

		/** Throw at once, or note the problem under the field's property. */
		private void fail(String field, @Nullable Object value, String reason) {
			if (this.property == null) {
				throw new InvalidFieldException(field, value, reason);
			}
			this.problems.add(new InvalidRdmaConfigurationException.Problem(name(field), value, reason));
		}

		/** The field's property, e.g. {@code <property>.destination-port}. */
		private String name(String field) {
			return (this.property != null)
					? this.property + "." + field.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT)
					: field;
		}

	}

	/**
	 * Thrown by {@link Builder} when a field, or a combination of fields, is not a valid
	 * flow. {@link #field()} names the builder method (e.g. {@code destinationPort}), so
	 * that a caller that maps properties onto the builder can name its own property.
	 *
	 * @since 0.1.0
	 */
	public static final class InvalidFieldException extends IllegalArgumentException {

		private static final long serialVersionUID = 1L;

		private final String field;

		private final transient @Nullable Object value;

		private final String reason;

		InvalidFieldException(String field, @Nullable Object value, String reason) {
			super(field + " " + reason + ((value != null) ? ", but was " + value : ""));
			this.field = field;
			this.value = value;
			this.reason = reason;
		}

		/**
		 * Return the builder field at fault, e.g. {@code destinationPort}.
		 * @return the field name
		 */
		public String field() {
			return this.field;
		}

		/**
		 * Return the value the field was given.
		 * @return the value, or {@code null} if the field was not set
		 */
		public @Nullable Object value() {
			return this.value;
		}

		/**
		 * Return what the field must be, without the field name.
		 * @return the reason
		 */
		public String reason() {
			return this.reason;
		}

	}

}
