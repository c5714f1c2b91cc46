package io.github.rdmacounters.verbs;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.IpPrefix;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.MacAddress;

/**
 * Encodes a {@link FlowSpec} as a {@code struct ibv_flow_attr} followed by its specs: one
 * {@code ibv_flow_spec_eth}, an {@code ibv_flow_spec_ipv4} or {@code ibv_flow_spec_ipv6}
 * when the spec has an IP prefix, an {@code ibv_flow_spec_tcp_udp} when it names a
 * protocol, and one {@code ibv_flow_spec_counter_action}. Header fields are in network
 * byte order, as the kernel expects. Every offset and size here is checked against the
 * installed header by a test.
 *
 * @author rdma-counters
 */
final class FlowEncoder {

	/** {@code sizeof(struct ibv_flow_attr)}. */
	static final int ATTR_SIZE = 20;

	/** {@code offsetof(struct ibv_flow_attr, comp_mask)}. */
	static final int ATTR_COMP_MASK = 0;

	/** {@code offsetof(struct ibv_flow_attr, type)}. */
	static final int ATTR_TYPE = 4;

	/** {@code offsetof(struct ibv_flow_attr, size)}. */
	static final int ATTR_SIZE_FIELD = 8;

	/** {@code offsetof(struct ibv_flow_attr, priority)}. */
	static final int ATTR_PRIORITY = 10;

	/** {@code offsetof(struct ibv_flow_attr, num_of_specs)}. */
	static final int ATTR_NUM_OF_SPECS = 12;

	/** {@code offsetof(struct ibv_flow_attr, port)}. */
	static final int ATTR_PORT = 13;

	/** {@code offsetof(struct ibv_flow_attr, flags)}. */
	static final int ATTR_FLAGS = 16;

	/** Offset of {@code type} in every spec. */
	static final int SPEC_TYPE = 0;

	/** Offset of {@code size} in every spec. */
	static final int SPEC_SIZE = 4;

	/** {@code sizeof(struct ibv_flow_spec_eth)}. */
	static final int ETH_SIZE = 40;

	/** {@code offsetof(struct ibv_flow_spec_eth, val)}. */
	static final int ETH_VAL = 6;

	/** {@code offsetof(struct ibv_flow_spec_eth, mask)}. */
	static final int ETH_MASK = 22;

	/** {@code offsetof(struct ibv_flow_eth_filter, dst_mac)}. */
	static final int ETH_DST_MAC = 0;

	/** {@code offsetof(struct ibv_flow_eth_filter, src_mac)}. */
	static final int ETH_SRC_MAC = 6;

	/** {@code offsetof(struct ibv_flow_eth_filter, ether_type)}. */
	static final int ETH_ETHER_TYPE = 12;

	/** {@code offsetof(struct ibv_flow_eth_filter, vlan_tag)}. */
	static final int ETH_VLAN_TAG = 14;

	/** {@code sizeof(struct ibv_flow_spec_ipv4)}. */
	static final int IPV4_SIZE = 24;

	/** {@code offsetof(struct ibv_flow_spec_ipv4, val)}. */
	static final int IPV4_VAL = 8;

	/** {@code offsetof(struct ibv_flow_spec_ipv4, mask)}. */
	static final int IPV4_MASK = 16;

	/** {@code offsetof(struct ibv_flow_ipv4_filter, src_ip)}. */
	static final int IPV4_SRC = 0;

	/** {@code offsetof(struct ibv_flow_ipv4_filter, dst_ip)}. */
	static final int IPV4_DST = 4;

	/** {@code sizeof(struct ibv_flow_spec_ipv6)}. */
	static final int IPV6_SIZE = 88;

	/** {@code offsetof(struct ibv_flow_spec_ipv6, val)}. */
	static final int IPV6_VAL = 8;

	/** {@code offsetof(struct ibv_flow_spec_ipv6, mask)}. */
	static final int IPV6_MASK = 48;

	/** {@code offsetof(struct ibv_flow_ipv6_filter, src_ip)}. */
	static final int IPV6_SRC = 0;

	/** {@code offsetof(struct ibv_flow_ipv6_filter, dst_ip)}. */
	static final int IPV6_DST = 16;

	/** {@code sizeof(struct ibv_flow_spec_tcp_udp)}. */
	static final int TCP_UDP_SIZE = 16;

	/** {@code offsetof(struct ibv_flow_spec_tcp_udp, val)}. */
	static final int TCP_UDP_VAL = 6;

	/** {@code offsetof(struct ibv_flow_spec_tcp_udp, mask)}. */
	static final int TCP_UDP_MASK = 10;

	/** {@code offsetof(struct ibv_flow_tcp_udp_filter, dst_port)}. */
	static final int TCP_UDP_DST_PORT = 0;

	/** {@code offsetof(struct ibv_flow_tcp_udp_filter, src_port)}. */
	static final int TCP_UDP_SRC_PORT = 2;

	/** {@code sizeof(struct ibv_flow_spec_counter_action)}. */
	static final int COUNT_SIZE = 16;

	/** {@code offsetof(struct ibv_flow_spec_counter_action, counters)}. */
	static final int COUNT_COUNTERS = 8;

	/** The VLAN id bits of {@code vlan_tag} (802.1Q: priority 3, CFI 1, id 12). */
	static final int VLAN_ID_MASK = 0x0FFF;

	private FlowEncoder() {
	}

	/**
	 * Encode a flow.
	 * @param port the port number
	 * @param spec what the flow matches
	 * @param counters the {@code struct ibv_counters *} of the count action
	 * @return zeroed native memory holding the attribute and its specs
	 */
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
