package io.github.rdmacounters.verbs;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.IpPrefix;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.MacAddress;

/**
 * Encodes a {@link FlowSpec} as a {@code struct ibv_flow_attr} followed by an eth spec,
 * an IPv4 or IPv6 spec for an IP prefix, a TCP/UDP spec for a protocol, and a counter
 * action. Header fields are in network byte order. A test checks every offset and size
 * against the installed header.
 */
final class FlowEncoder {

	// sizeof and offsetof of struct ibv_flow_attr
	static final int ATTR_SIZE = 20;

	static final int ATTR_COMP_MASK = 0;

	static final int ATTR_TYPE = 4;

	static final int ATTR_SIZE_FIELD = 8;

	static final int ATTR_PRIORITY = 10;

	static final int ATTR_NUM_OF_SPECS = 12;

	static final int ATTR_PORT = 13;

	static final int ATTR_FLAGS = 16;

	// Common to every spec
	static final int SPEC_TYPE = 0;

	static final int SPEC_SIZE = 4;

	// struct ibv_flow_spec_eth and its ibv_flow_eth_filter
	static final int ETH_SIZE = 40;

	static final int ETH_VAL = 6;

	static final int ETH_MASK = 22;

	static final int ETH_DST_MAC = 0;

	static final int ETH_SRC_MAC = 6;

	static final int ETH_ETHER_TYPE = 12;

	static final int ETH_VLAN_TAG = 14;

	// struct ibv_flow_spec_ipv4 and its filter
	static final int IPV4_SIZE = 24;

	static final int IPV4_VAL = 8;

	static final int IPV4_MASK = 16;

	static final int IPV4_SRC = 0;

	static final int IPV4_DST = 4;

	// struct ibv_flow_spec_ipv6 and its filter
	static final int IPV6_SIZE = 88;

	static final int IPV6_VAL = 8;

	static final int IPV6_MASK = 48;

	static final int IPV6_SRC = 0;

	static final int IPV6_DST = 16;

	// struct ibv_flow_spec_tcp_udp and its filter
	static final int TCP_UDP_SIZE = 16;

	static final int TCP_UDP_VAL = 6;

	static final int TCP_UDP_MASK = 10;

	static final int TCP_UDP_DST_PORT = 0;

	static final int TCP_UDP_SRC_PORT = 2;

	// struct ibv_flow_spec_counter_action
	static final int COUNT_SIZE = 16;

	static final int COUNT_COUNTERS = 8;

	/** 802.1Q {@code vlan_tag}: priority 3 bits, CFI 1, id 12. */
	static final int VLAN_ID_MASK = 0x0FFF;

	private FlowEncoder() {
	}

	// Returns zeroed native memory holding the attribute and its specs
	static Memory encode(int port, FlowSpec spec, Pointer counters) {
		int ipVersion = spec.ipVersion();
		int size = ATTR_SIZE + ETH_SIZE + ((ipVersion == 4) ? IPV4_SIZE : 0) + ((ipVersion == 6) ? IPV6_SIZE : 0)
				+ ((spec.protocol() != null) ? TCP_UDP_SIZE : 0) + COUNT_SIZE;
		Memory memory = new Memory(size);
		memory.clear();
		int specs = 0;
		int offset = ATTR_SIZE;
		offset = encodeEth(memory, offset, spec);
		specs++;
		if (ipVersion == 4) {
			offset = encodeIp(memory, offset, spec, IbvLibrary.IBV_FLOW_SPEC_IPV4, IPV4_SIZE, IPV4_VAL, IPV4_MASK,
					IPV4_SRC, IPV4_DST);
			specs++;
		}
		else if (ipVersion == 6) {
			offset = encodeIp(memory, offset, spec, IbvLibrary.IBV_FLOW_SPEC_IPV6, IPV6_SIZE, IPV6_VAL, IPV6_MASK,
					IPV6_SRC, IPV6_DST);
			specs++;
		}
		L4Protocol protocol = spec.protocol();
		if (protocol != null) {
			offset = encodeL4(memory, offset, spec, protocol);
			specs++;
		}
		header(memory, offset, IbvLibrary.IBV_FLOW_SPEC_ACTION_COUNT, COUNT_SIZE);
		memory.setPointer(offset + COUNT_COUNTERS, counters);
		offset += COUNT_SIZE;
		specs++;
		memory.setInt(ATTR_COMP_MASK, 0);
		memory.setInt(ATTR_TYPE, IbvLibrary.IBV_FLOW_ATTR_NORMAL);
		memory.setShort(ATTR_SIZE_FIELD, (short) offset);
		memory.setShort(ATTR_PRIORITY, (short) spec.priority());
		memory.setByte(ATTR_NUM_OF_SPECS, (byte) specs);
		memory.setByte(ATTR_PORT, (byte) port);
		memory.setInt(ATTR_FLAGS, spec.dontTrap() ? IbvLibrary.IBV_FLOW_ATTR_FLAGS_DONT_TRAP : 0);
		return memory;
	}

	private static void header(Memory memory, int offset, int type, int size) {
		memory.setInt(offset + SPEC_TYPE, type);
		memory.setShort(offset + SPEC_SIZE, (short) size);
	}

	private static int encodeEth(Memory memory, int offset, FlowSpec spec) {
		header(memory, offset, IbvLibrary.IBV_FLOW_SPEC_ETH, ETH_SIZE);
		int val = offset + ETH_VAL;
		int mask = offset + ETH_MASK;
		mac(memory, val + ETH_DST_MAC, mask + ETH_DST_MAC, spec.destinationMac());
		mac(memory, val + ETH_SRC_MAC, mask + ETH_SRC_MAC, spec.sourceMac());
		Integer etherType = spec.etherType();
		if (etherType != null) {
			be16(memory, val + ETH_ETHER_TYPE, etherType);
			be16(memory, mask + ETH_ETHER_TYPE, 0xFFFF);
		}
		Integer vlan = spec.vlanId();
		if (vlan != null) {
			be16(memory, val + ETH_VLAN_TAG, vlan);
			be16(memory, mask + ETH_VLAN_TAG, VLAN_ID_MASK);
		}
		return offset + ETH_SIZE;
	}

	private static void mac(Memory memory, int val, int mask, @Nullable MacAddress mac) {
		if (mac != null) {
			memory.write(val, mac.octets(), 0, 6);
			memory.write(mask, new byte[] { -1, -1, -1, -1, -1, -1 }, 0, 6);
		}
	}

	private static int encodeIp(Memory memory, int offset, FlowSpec spec, int type, int size, int valOffset,
			int maskOffset, int srcOffset, int dstOffset) {
		header(memory, offset, type, size);
		prefix(memory, offset + valOffset + srcOffset, offset + maskOffset + srcOffset, spec.sourceIp());
		prefix(memory, offset + valOffset + dstOffset, offset + maskOffset + dstOffset, spec.destinationIp());
		return offset + size;
	}

	private static void prefix(Memory memory, int val, int mask, @Nullable IpPrefix prefix) {
		if (prefix == null) {
			return;
		}
		byte[] address = prefix.address().getAddress();
		byte[] bits = prefix.mask();
		for (int i = 0; i < address.length; i++) {
			address[i] &= bits[i];
		}
		memory.write(val, address, 0, address.length);
		memory.write(mask, bits, 0, bits.length);
	}

	private static int encodeL4(Memory memory, int offset, FlowSpec spec, L4Protocol protocol) {
		header(memory, offset,
				(protocol == L4Protocol.TCP) ? IbvLibrary.IBV_FLOW_SPEC_TCP : IbvLibrary.IBV_FLOW_SPEC_UDP,
				TCP_UDP_SIZE);
		Integer source = spec.sourcePort();
		if (source != null) {
			be16(memory, offset + TCP_UDP_VAL + TCP_UDP_SRC_PORT, source);
			be16(memory, offset + TCP_UDP_MASK + TCP_UDP_SRC_PORT, 0xFFFF);
		}
		Integer destination = spec.destinationPort();
		if (destination != null) {
			be16(memory, offset + TCP_UDP_VAL + TCP_UDP_DST_PORT, destination);
			be16(memory, offset + TCP_UDP_MASK + TCP_UDP_DST_PORT, 0xFFFF);
		}
		return offset + TCP_UDP_SIZE;
	}

	private static void be16(Memory memory, int offset, int value) {
		memory.setByte(offset, (byte) (value >>> 8));
		memory.setByte(offset + 1, (byte) value);
	}

}
