package io.github.rdmacounters.verbs;

import java.util.Map;

import com.sun.jna.Native;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.DeviceAttributes;
import io.github.rdmacounters.core.DeviceEvent;
import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.ReadMode;
import io.github.rdmacounters.testsupport.NativeBuildProbe;
import io.github.rdmacounters.verbs.VerbsOps.Op;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves the binding's view of the ABI against the installed
 * {@code <infiniband/verbs.h>}: a probe compiled against the header prints every size,
 * offset and constant the Java side uses, and each must equal the Java value.
 *
 * @author rdma-counters
 */
class AbiTests {

	private static Map<String, Long> header;

	@BeforeAll
	static void runProbe() {
		header = NativeBuildProbe.values();
	}

	private static long header(String name) {
		assertThat(header).as("the probe prints %s", name).containsKey(name);
		return header.get(name);
	}

	@Test
	void contextLayoutMatchesHeader() {
		assertThat(VerbsOps.SIZEOF_IBV_CONTEXT).isEqualTo(header("sizeof(ibv_context)"));
		assertThat(VerbsOps.ABI_COMPAT_OFFSET).isEqualTo(header("ibv_context.abi_compat"));
		assertThat(VerbsOps.SZ_OFFSET).isEqualTo(header("verbs_context.sz"));
		assertThat(VerbsOps.VERBS_ABI_IS_EXTENDED).isEqualTo(header("UINTPTR_MAX"));
		assertThat(Native.POINTER_SIZE).isEqualTo(8);
	}

	@Test
	void opOffsetsAndNeededSizesMatchVerbsGetCtxOp() {
		Map<Op, String> fields = Map.of(Op.QUERY_PORT, "query_port", Op.READ_COUNTERS, "read_counters",
				Op.ATTACH_COUNTERS_POINT_FLOW, "attach_counters_point_flow", Op.CREATE_COUNTERS, "create_counters",
				Op.DESTROY_COUNTERS, "destroy_counters", Op.DESTROY_FLOW, "ibv_destroy_flow", Op.CREATE_FLOW,
				"ibv_create_flow");
		assertThat(fields).hasSize(Op.values().length);
		fields.forEach((op, field) -> {
			assertThat(op.offset()).as(field).isEqualTo(header("verbs_context." + field));
			assertThat(op.neededSize()).as(field).isEqualTo(header("needed_sz." + field));
		});
	}

	@Test
	void countersStructsAndConstantsMatchHeader() {
		assertThat(NativeDevice.COUNTERS_INIT_ATTR_SIZE).isEqualTo(header("sizeof(ibv_counters_init_attr)"));
		assertThat(NativeDevice.COUNTERS_INIT_ATTR_COMP_MASK).isEqualTo(header("ibv_counters_init_attr.comp_mask"));
		assertThat(header("ibv_counters.context")).isZero();
		assertThat(NativeCounters.ATTACH_ATTR_SIZE).isEqualTo(header("sizeof(ibv_counter_attach_attr)"));
		assertThat(NativeCounters.ATTACH_ATTR_COUNTER_DESC).isEqualTo(header("ibv_counter_attach_attr.counter_desc"));
		assertThat(NativeCounters.ATTACH_ATTR_INDEX).isEqualTo(header("ibv_counter_attach_attr.index"));
		assertThat(NativeCounters.ATTACH_ATTR_COMP_MASK).isEqualTo(header("ibv_counter_attach_attr.comp_mask"));
		assertThat(IbvLibrary.IBV_COUNTER_PACKETS).isEqualTo(header("IBV_COUNTER_PACKETS"))
			.isEqualTo(CounterType.PACKETS.nativeValue());
		assertThat(IbvLibrary.IBV_COUNTER_BYTES).isEqualTo(header("IBV_COUNTER_BYTES"))
			.isEqualTo(CounterType.BYTES.nativeValue());
		assertThat(IbvLibrary.IBV_READ_COUNTERS_ATTR_PREFER_CACHED)
			.isEqualTo(header("IBV_READ_COUNTERS_ATTR_PREFER_CACHED"))
			.isEqualTo(ReadMode.PREFER_CACHED.flags());
		assertThat(ReadMode.FRESH.flags()).isZero();
	}

	@Test
	void flowAttrLayoutMatchesHeader() {
		assertThat(FlowEncoder.ATTR_SIZE).isEqualTo(header("sizeof(ibv_flow_attr)"));
		assertThat(FlowEncoder.ATTR_COMP_MASK).isEqualTo(header("ibv_flow_attr.comp_mask"));
		assertThat(FlowEncoder.ATTR_TYPE).isEqualTo(header("ibv_flow_attr.type"));
		assertThat(FlowEncoder.ATTR_SIZE_FIELD).isEqualTo(header("ibv_flow_attr.size"));
		assertThat(FlowEncoder.ATTR_PRIORITY).isEqualTo(header("ibv_flow_attr.priority"));
		assertThat(FlowEncoder.ATTR_NUM_OF_SPECS).isEqualTo(header("ibv_flow_attr.num_of_specs"));
		assertThat(FlowEncoder.ATTR_PORT).isEqualTo(header("ibv_flow_attr.port"));
		assertThat(FlowEncoder.ATTR_FLAGS).isEqualTo(header("ibv_flow_attr.flags"));
		assertThat(IbvLibrary.IBV_FLOW_ATTR_NORMAL).isEqualTo(header("IBV_FLOW_ATTR_NORMAL"));
		assertThat(IbvLibrary.IBV_FLOW_ATTR_FLAGS_DONT_TRAP).isEqualTo(header("IBV_FLOW_ATTR_FLAGS_DONT_TRAP"));
	}

	@Test
	void flowSpecLayoutsMatchHeader() {
		assertThat(FlowEncoder.SPEC_TYPE).isEqualTo(header("ibv_flow_spec_eth.type"));
		assertThat(FlowEncoder.SPEC_SIZE).isEqualTo(header("ibv_flow_spec_eth.size"));
		assertThat(FlowEncoder.ETH_SIZE).isEqualTo(header("sizeof(ibv_flow_spec_eth)"));
		assertThat(FlowEncoder.ETH_VAL).isEqualTo(header("ibv_flow_spec_eth.val"));
		assertThat(FlowEncoder.ETH_MASK).isEqualTo(header("ibv_flow_spec_eth.mask"));
		assertThat(FlowEncoder.ETH_DST_MAC).isEqualTo(header("ibv_flow_eth_filter.dst_mac"));
		assertThat(FlowEncoder.ETH_SRC_MAC).isEqualTo(header("ibv_flow_eth_filter.src_mac"));
		assertThat(FlowEncoder.ETH_ETHER_TYPE).isEqualTo(header("ibv_flow_eth_filter.ether_type"));
		assertThat(FlowEncoder.ETH_VLAN_TAG).isEqualTo(header("ibv_flow_eth_filter.vlan_tag"));
		assertThat(FlowEncoder.IPV4_SIZE).isEqualTo(header("sizeof(ibv_flow_spec_ipv4)"));
		assertThat(FlowEncoder.IPV4_VAL).isEqualTo(header("ibv_flow_spec_ipv4.val"));
		assertThat(FlowEncoder.IPV4_MASK).isEqualTo(header("ibv_flow_spec_ipv4.mask"));
		assertThat(FlowEncoder.IPV4_SRC).isEqualTo(header("ibv_flow_ipv4_filter.src_ip"));
		assertThat(FlowEncoder.IPV4_DST).isEqualTo(header("ibv_flow_ipv4_filter.dst_ip"));
		assertThat(FlowEncoder.IPV6_SIZE).isEqualTo(header("sizeof(ibv_flow_spec_ipv6)"));
		assertThat(FlowEncoder.IPV6_VAL).isEqualTo(header("ibv_flow_spec_ipv6.val"));
		assertThat(FlowEncoder.IPV6_MASK).isEqualTo(header("ibv_flow_spec_ipv6.mask"));
		assertThat(FlowEncoder.IPV6_SRC).isEqualTo(header("ibv_flow_ipv6_filter.src_ip"));
		assertThat(FlowEncoder.IPV6_DST).isEqualTo(header("ibv_flow_ipv6_filter.dst_ip"));
		assertThat(FlowEncoder.TCP_UDP_SIZE).isEqualTo(header("sizeof(ibv_flow_spec_tcp_udp)"));
		assertThat(FlowEncoder.TCP_UDP_VAL).isEqualTo(header("ibv_flow_spec_tcp_udp.val"));
		assertThat(FlowEncoder.TCP_UDP_MASK).isEqualTo(header("ibv_flow_spec_tcp_udp.mask"));
		assertThat(FlowEncoder.TCP_UDP_DST_PORT).isEqualTo(header("ibv_flow_tcp_udp_filter.dst_port"));
		assertThat(FlowEncoder.TCP_UDP_SRC_PORT).isEqualTo(header("ibv_flow_tcp_udp_filter.src_port"));
		assertThat(FlowEncoder.COUNT_SIZE).isEqualTo(header("sizeof(ibv_flow_spec_counter_action)"));
		assertThat(FlowEncoder.SPEC_TYPE).isEqualTo(header("ibv_flow_spec_counter_action.type"));
		assertThat(FlowEncoder.SPEC_SIZE).isEqualTo(header("ibv_flow_spec_counter_action.size"));
		assertThat(FlowEncoder.COUNT_COUNTERS).isEqualTo(header("ibv_flow_spec_counter_action.counters"));
		assertThat(IbvLibrary.IBV_FLOW_SPEC_ETH).isEqualTo(header("IBV_FLOW_SPEC_ETH"));
		assertThat(IbvLibrary.IBV_FLOW_SPEC_IPV4).isEqualTo(header("IBV_FLOW_SPEC_IPV4"));
		assertThat(IbvLibrary.IBV_FLOW_SPEC_IPV6).isEqualTo(header("IBV_FLOW_SPEC_IPV6"));
		assertThat(IbvLibrary.IBV_FLOW_SPEC_TCP).isEqualTo(header("IBV_FLOW_SPEC_TCP"));
		assertThat(IbvLibrary.IBV_FLOW_SPEC_UDP).isEqualTo(header("IBV_FLOW_SPEC_UDP"));
		assertThat(IbvLibrary.IBV_FLOW_SPEC_ACTION_COUNT).isEqualTo(header("IBV_FLOW_SPEC_ACTION_COUNT"));
	}

	@Test
	void deviceAttrStructureMatchesHeader() {
		assertThat(IbvDeviceAttr.sizeOf()).isEqualTo(header("sizeof(ibv_device_attr)"));
		for (String field : new String[] { "fw_ver", "node_guid", "sys_image_guid", "max_mr_size", "page_size_cap",
				"vendor_id", "vendor_part_id", "hw_ver", "max_qp", "device_cap_flags", "atomic_cap", "max_srq_sge",
				"max_pkeys", "local_ca_ack_delay", "phys_port_cnt" }) {
			assertThat(IbvDeviceAttr.offsetOf(field)).as(field).isEqualTo(header("ibv_device_attr." + field));
		}
		assertThat(IbvLibrary.IBV_DEVICE_MANAGED_FLOW_STEERING).isEqualTo(header("IBV_DEVICE_MANAGED_FLOW_STEERING"))
			.isEqualTo(DeviceAttributes.MANAGED_FLOW_STEERING);
	}

	@Test
	void portAttrStructureMatchesHeader() {
		if (NativeBuildProbe.portAttrHasActiveSpeedEx()) {
			assertThat(IbvPortAttr.sizeOf()).isEqualTo(header("sizeof(ibv_port_attr)"));
			assertThat(IbvPortAttr.offsetOf("active_speed_ex")).isEqualTo(header("ibv_port_attr.active_speed_ex"));
		}
		else {
			assertThat((long) IbvPortAttr.offsetOf("active_speed_ex")).as("beyond the older header's struct, left 0")
				.isGreaterThanOrEqualTo(header("sizeof(ibv_port_attr)"));
		}
		for (String field : new String[] { "state", "max_mtu", "active_mtu", "gid_tbl_len", "port_cap_flags",
				"max_msg_sz", "pkey_tbl_len", "lid", "sm_lid", "lmc", "init_type_reply", "active_width", "active_speed",
				"phys_state", "link_layer", "flags", "port_cap_flags2" }) {
			assertThat(IbvPortAttr.offsetOf(field)).as(field).isEqualTo(header("ibv_port_attr." + field));
		}
		for (PortState state : PortState.values()) {
			assertThat(state.nativeValue()).as(state.name()).isEqualTo(header("IBV_PORT_" + state.name()));
		}
		for (LinkLayer layer : LinkLayer.values()) {
			assertThat(layer.nativeValue()).as(layer.name()).isEqualTo(header("IBV_LINK_LAYER_" + layer.name()));
		}
		assertThat(Verbs.mtuBytes((int) header("IBV_MTU_256"))).isEqualTo(256);
		assertThat(Verbs.mtuBytes((int) header("IBV_MTU_4096"))).isEqualTo(4096);
	}

	@Test
	void qpInitAttrStructureMatchesHeader() {
		assertThat(IbvQpInitAttr.sizeOf()).isEqualTo(header("sizeof(ibv_qp_init_attr)"));
		for (String field : new String[] { "qp_context", "send_cq", "recv_cq", "srq", "qp_type", "sq_sig_all" }) {
			assertThat(IbvQpInitAttr.offsetOf(field)).as(field).isEqualTo(header("ibv_qp_init_attr." + field));
		}
		for (String field : new String[] { "max_send_wr", "max_recv_wr", "max_send_sge", "max_recv_sge",
				"max_inline_data" }) {
			assertThat(IbvQpInitAttr.offsetOf(field)).as(field).isEqualTo(header("ibv_qp_init_attr.cap." + field));
		}
		assertThat(IbvLibrary.IBV_QPT_RAW_PACKET).isEqualTo(header("IBV_QPT_RAW_PACKET"));
	}

	@Test
	void qpAttrLayoutAndModifyConstantsMatchHeader() {
		assertThat(RawPacketQueuePairs.QP_ATTR_SIZE).isEqualTo(header("sizeof(ibv_qp_attr)"));
		assertThat(RawPacketQueuePairs.QP_ATTR_QP_STATE).isEqualTo(header("ibv_qp_attr.qp_state"));
		assertThat(RawPacketQueuePairs.QP_ATTR_PORT_NUM).isEqualTo(header("ibv_qp_attr.port_num"));
		assertThat(IbvLibrary.IBV_QP_STATE).isEqualTo(header("IBV_QP_STATE"));
		assertThat(IbvLibrary.IBV_QP_PORT).isEqualTo(header("IBV_QP_PORT"));
		assertThat(IbvLibrary.IBV_QPS_RESET).isEqualTo(header("IBV_QPS_RESET"));
		assertThat(IbvLibrary.IBV_QPS_INIT).isEqualTo(header("IBV_QPS_INIT"));
		assertThat(IbvLibrary.IBV_QPS_RTR).isEqualTo(header("IBV_QPS_RTR"));
	}

	@Test
	void asyncEventLayoutAndConstantsMatchHeader() {
		assertThat(IbvLibrary.CONTEXT_ASYNC_FD).isEqualTo(header("ibv_context.async_fd"));
		assertThat(IbvLibrary.ASYNC_EVENT_SIZE).isEqualTo(header("sizeof(ibv_async_event)"));
		assertThat(IbvLibrary.ASYNC_EVENT_ELEMENT).isEqualTo(header("ibv_async_event.element"))
			.isEqualTo(header("ibv_async_event.element.port_num"));
		assertThat(IbvLibrary.ASYNC_EVENT_EVENT_TYPE).isEqualTo(header("ibv_async_event.event_type"));
		for (DeviceEvent.Type type : DeviceEvent.Type.values()) {
			assertThat(type.nativeValue()).as(type.verbsName()).isEqualTo(header(type.verbsName()));
		}
	}

}
