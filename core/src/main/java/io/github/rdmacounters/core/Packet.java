package io.github.rdmacounters.core;

import java.net.Inet4Address;
import java.net.InetAddress;

import org.jspecify.annotations.Nullable;

/**
 * A packet to deliver to a simulated or fake device: the header fields flows match on and
 * its length on the wire.
 *
 * @param sourceMac the source MAC
 * @param destinationMac the destination MAC
 * @param vlanId the VLAN id, or {@code null} for an untagged frame
 * @param etherType the Ethernet type, e.g. {@code 0x0800}
 * @param sourceIp the source address, or {@code null} for a non-IP frame
 * @param destinationIp the destination address, or {@code null} for a non-IP frame
 * @param ipProtocol the IP protocol number, or 0
 * @param sourcePort the source port, or 0
 * @param destinationPort the destination port, or 0
 * @param length the frame length in bytes
 * @since 0.1.0
 */
public record Packet(MacAddress sourceMac, MacAddress destinationMac, @Nullable Integer vlanId, int etherType,
		@Nullable InetAddress sourceIp, @Nullable InetAddress destinationIp, int ipProtocol, int sourcePort,
		int destinationPort, int length) {

	public static final int ETHERTYPE_IPV4 = 0x0800;

	public static final int ETHERTYPE_IPV6 = 0x86DD;

	/** The Ethernet type of RoCEv1 (the InfiniBand transport over Ethernet). */
	public static final int ETHERTYPE_ROCE_V1 = 0x8915;

	/** The UDP destination port of RoCEv2. */
	public static final int ROCE_V2_PORT = 4791;

	private static final MacAddress DEFAULT_SOURCE_MAC = new MacAddress(0x02_00_00_00_00_01L);

	private static final MacAddress DEFAULT_DESTINATION_MAC = new MacAddress(0x02_00_00_00_00_02L);

	public Packet {
		if (length <= 0) {
			throw new IllegalArgumentException("Packet length must be positive, but was " + length);
		}
	}

	/**
	 * Create an untagged UDP packet between two addresses of one family; the length is
	 * the frame's, in bytes.
	 */
	public static Packet udp(InetAddress source, int sourcePort, InetAddress destination, int destinationPort,
			int length) {
		return ip(source, destination, L4Protocol.UDP.ipProtocol(), sourcePort, destinationPort, length);
	}

	/**
	 * Create an untagged TCP packet between two addresses of one family; the length is
	 * the frame's, in bytes.
	 */
	public static Packet tcp(InetAddress source, int sourcePort, InetAddress destination, int destinationPort,
			int length) {
		return ip(source, destination, L4Protocol.TCP.ipProtocol(), sourcePort, destinationPort, length);
	}

	private static Packet ip(InetAddress source, InetAddress destination, int protocol, int sourcePort,
			int destinationPort, int length) {
		int etherType = (source instanceof Inet4Address) ? ETHERTYPE_IPV4 : ETHERTYPE_IPV6;
		return new Packet(DEFAULT_SOURCE_MAC, DEFAULT_DESTINATION_MAC, null, etherType, source, destination, protocol,
				sourcePort, destinationPort, length);
	}

	public Packet withMacs(MacAddress source, MacAddress destination) {
		return new Packet(source, destination, this.vlanId, this.etherType, this.sourceIp, this.destinationIp,
				this.ipProtocol, this.sourcePort, this.destinationPort, this.length);
	}

	public Packet withVlan(int vlan) {
		return new Packet(this.sourceMac, this.destinationMac, vlan, this.etherType, this.sourceIp, this.destinationIp,
				this.ipProtocol, this.sourcePort, this.destinationPort, this.length);
	}

}
