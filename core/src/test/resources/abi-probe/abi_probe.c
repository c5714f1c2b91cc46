/*
 * Prints every size, offset and constant of <infiniband/verbs.h> that the JNA binding of
 * rdma-counters relies on, one "name value" pair a line. AbiTests compiles it against the
 * installed header and compares the output with the Java constants.
 */
#include <infiniband/verbs.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <sys/eventfd.h>
#include <stdint.h>
#include <stdio.h>

#define SIZE(s) printf("sizeof(%s) %ld\n", #s, (long)sizeof(struct s))
#define OFF(s, f) printf("%s.%s %ld\n", #s, #f, (long)offsetof(struct s, f))
#define CONST(c) printf("%s %ld\n", #c, (long)(c))
/* offset of an op of struct verbs_context from the struct ibv_context the library hands out */
#define OP(f) printf("verbs_context.%s %ld\n", #f, \
		(long)offsetof(struct verbs_context, f) - (long)offsetof(struct verbs_context, context))
/* the sz a context needs for the op to exist, as verbs_get_ctx_op computes it */
/*
 * rdma-core 50 (commit 91b4ed8dd, "verbs: Add support for XDR speed in ibv_query_port")
 * appends uint32_t active_speed_ex after port_cap_flags2. No macro marks it, so the field
 * is there when the struct is large enough to hold a uint32_t at the next 4-byte boundary
 * after port_cap_flags2.
 */
#define PORT_ATTR_SPEED_EX_OFFSET \
	((offsetof(struct ibv_port_attr, port_cap_flags2) + sizeof(uint16_t) + 3) & ~(size_t)3)
#define PORT_ATTR_HAS_SPEED_EX (sizeof(struct ibv_port_attr) >= PORT_ATTR_SPEED_EX_OFFSET + sizeof(uint32_t))
#define NEED(f) printf("needed_sz.%s %ld\n", #f, (long)(sizeof(struct verbs_context) - offsetof(struct verbs_context, f)))

int main(void)
{
	SIZE(ibv_context);
	OFF(ibv_context, abi_compat);
	SIZE(verbs_context);
	OP(sz);
	OP(query_port);
	OP(read_counters);
	OP(attach_counters_point_flow);
	OP(create_counters);
	OP(destroy_counters);
	OP(query_device_ex);
	OP(ibv_destroy_flow);
	OP(ibv_create_flow);
	NEED(query_device_ex);
	NEED(query_port);
	NEED(read_counters);
	NEED(attach_counters_point_flow);
	NEED(create_counters);
	NEED(destroy_counters);
	NEED(ibv_destroy_flow);
	NEED(ibv_create_flow);
	printf("UINTPTR_MAX %ld\n", (long)(intptr_t)UINTPTR_MAX);

	SIZE(ibv_counters_init_attr);
	OFF(ibv_counters_init_attr, comp_mask);
	SIZE(ibv_counters);
	OFF(ibv_counters, context);
	SIZE(ibv_counter_attach_attr);
	OFF(ibv_counter_attach_attr, counter_desc);
	OFF(ibv_counter_attach_attr, index);
	OFF(ibv_counter_attach_attr, comp_mask);
	CONST(IBV_COUNTER_PACKETS);
	CONST(IBV_COUNTER_BYTES);
	CONST(IBV_READ_COUNTERS_ATTR_PREFER_CACHED);

	SIZE(ibv_flow_attr);
	OFF(ibv_flow_attr, comp_mask);
	OFF(ibv_flow_attr, type);
	OFF(ibv_flow_attr, size);
	OFF(ibv_flow_attr, priority);
	OFF(ibv_flow_attr, num_of_specs);
	OFF(ibv_flow_attr, port);
	OFF(ibv_flow_attr, flags);
	CONST(IBV_FLOW_ATTR_NORMAL);
	CONST(IBV_FLOW_ATTR_FLAGS_DONT_TRAP);
	SIZE(ibv_flow_spec_eth);
	OFF(ibv_flow_spec_eth, type);
	OFF(ibv_flow_spec_eth, size);
	OFF(ibv_flow_spec_eth, val);
	OFF(ibv_flow_spec_eth, mask);
	OFF(ibv_flow_eth_filter, dst_mac);
	OFF(ibv_flow_eth_filter, src_mac);
	OFF(ibv_flow_eth_filter, ether_type);
	OFF(ibv_flow_eth_filter, vlan_tag);
	SIZE(ibv_flow_spec_ipv4);
	OFF(ibv_flow_spec_ipv4, val);
	OFF(ibv_flow_spec_ipv4, mask);
	OFF(ibv_flow_ipv4_filter, src_ip);
	OFF(ibv_flow_ipv4_filter, dst_ip);
	SIZE(ibv_flow_spec_ipv6);
	OFF(ibv_flow_spec_ipv6, val);
	OFF(ibv_flow_spec_ipv6, mask);
	OFF(ibv_flow_ipv6_filter, src_ip);
	OFF(ibv_flow_ipv6_filter, dst_ip);
	SIZE(ibv_flow_spec_tcp_udp);
	OFF(ibv_flow_spec_tcp_udp, val);
	OFF(ibv_flow_spec_tcp_udp, mask);
	OFF(ibv_flow_tcp_udp_filter, dst_port);
	OFF(ibv_flow_tcp_udp_filter, src_port);
	SIZE(ibv_flow_spec_counter_action);
	OFF(ibv_flow_spec_counter_action, type);
	OFF(ibv_flow_spec_counter_action, size);
	OFF(ibv_flow_spec_counter_action, counters);
	CONST(IBV_FLOW_SPEC_ETH);
	CONST(IBV_FLOW_SPEC_IPV4);
	CONST(IBV_FLOW_SPEC_IPV6);
	CONST(IBV_FLOW_SPEC_TCP);
	CONST(IBV_FLOW_SPEC_UDP);
	CONST(IBV_FLOW_SPEC_ACTION_COUNT);

	SIZE(ibv_device_attr);
	OFF(ibv_device_attr, fw_ver);
	OFF(ibv_device_attr, node_guid);
	OFF(ibv_device_attr, sys_image_guid);
	OFF(ibv_device_attr, max_mr_size);
	OFF(ibv_device_attr, page_size_cap);
	OFF(ibv_device_attr, vendor_id);
	OFF(ibv_device_attr, vendor_part_id);
	OFF(ibv_device_attr, hw_ver);
	OFF(ibv_device_attr, max_qp);
	OFF(ibv_device_attr, device_cap_flags);
	OFF(ibv_device_attr, atomic_cap);
	OFF(ibv_device_attr, max_srq_sge);
	OFF(ibv_device_attr, max_pkeys);
	OFF(ibv_device_attr, local_ca_ack_delay);
	OFF(ibv_device_attr, phys_port_cnt);
	CONST(IBV_DEVICE_MANAGED_FLOW_STEERING);

	SIZE(ibv_port_attr);
	OFF(ibv_port_attr, state);
	OFF(ibv_port_attr, max_mtu);
	OFF(ibv_port_attr, active_mtu);
	OFF(ibv_port_attr, gid_tbl_len);
	OFF(ibv_port_attr, port_cap_flags);
	OFF(ibv_port_attr, max_msg_sz);
	OFF(ibv_port_attr, pkey_tbl_len);
	OFF(ibv_port_attr, lid);
	OFF(ibv_port_attr, sm_lid);
	OFF(ibv_port_attr, lmc);
	OFF(ibv_port_attr, init_type_reply);
	OFF(ibv_port_attr, active_width);
	OFF(ibv_port_attr, active_speed);
	OFF(ibv_port_attr, phys_state);
	OFF(ibv_port_attr, link_layer);
	OFF(ibv_port_attr, flags);
	OFF(ibv_port_attr, port_cap_flags2);
	if (PORT_ATTR_HAS_SPEED_EX)
		printf("ibv_port_attr.active_speed_ex %ld\n", (long)PORT_ATTR_SPEED_EX_OFFSET);
	CONST(IBV_PORT_NOP);
	CONST(IBV_PORT_DOWN);
	CONST(IBV_PORT_INIT);
	CONST(IBV_PORT_ARMED);
	CONST(IBV_PORT_ACTIVE);
	CONST(IBV_PORT_ACTIVE_DEFER);
	CONST(IBV_LINK_LAYER_UNSPECIFIED);
	CONST(IBV_LINK_LAYER_INFINIBAND);
	CONST(IBV_LINK_LAYER_ETHERNET);
	CONST(IBV_MTU_256);
	CONST(IBV_MTU_4096);

	SIZE(ibv_qp_init_attr);
	OFF(ibv_qp_init_attr, qp_context);
	OFF(ibv_qp_init_attr, send_cq);
	OFF(ibv_qp_init_attr, recv_cq);
	OFF(ibv_qp_init_attr, srq);
	printf("ibv_qp_init_attr.cap.max_send_wr %ld\n", (long)(offsetof(struct ibv_qp_init_attr, cap) + offsetof(struct ibv_qp_cap, max_send_wr)));
	printf("ibv_qp_init_attr.cap.max_recv_wr %ld\n", (long)(offsetof(struct ibv_qp_init_attr, cap) + offsetof(struct ibv_qp_cap, max_recv_wr)));
	printf("ibv_qp_init_attr.cap.max_send_sge %ld\n", (long)(offsetof(struct ibv_qp_init_attr, cap) + offsetof(struct ibv_qp_cap, max_send_sge)));
	printf("ibv_qp_init_attr.cap.max_recv_sge %ld\n", (long)(offsetof(struct ibv_qp_init_attr, cap) + offsetof(struct ibv_qp_cap, max_recv_sge)));
	printf("ibv_qp_init_attr.cap.max_inline_data %ld\n", (long)(offsetof(struct ibv_qp_init_attr, cap) + offsetof(struct ibv_qp_cap, max_inline_data)));
	OFF(ibv_qp_init_attr, qp_type);
	OFF(ibv_qp_init_attr, sq_sig_all);
	CONST(IBV_QPT_RAW_PACKET);

	SIZE(ibv_qp_attr);
	OFF(ibv_qp_attr, qp_state);
	OFF(ibv_qp_attr, port_num);
	CONST(IBV_QP_STATE);
	CONST(IBV_QP_PORT);
	CONST(IBV_QPS_RESET);
	CONST(IBV_QPS_INIT);
	CONST(IBV_QPS_RTR);

	/* async events: the reader of AsyncEventReader */
	OFF(ibv_context, async_fd);
	SIZE(ibv_async_event);
	OFF(ibv_async_event, element);
	OFF(ibv_async_event, element.port_num);
	OFF(ibv_async_event, event_type);
	CONST(IBV_EVENT_DEVICE_FATAL);
	CONST(IBV_EVENT_PORT_ACTIVE);
	CONST(IBV_EVENT_PORT_ERR);
	CONST(IBV_EVENT_LID_CHANGE);
	CONST(IBV_EVENT_PKEY_CHANGE);
	CONST(IBV_EVENT_SM_CHANGE);
	CONST(IBV_EVENT_CLIENT_REREGISTER);
	CONST(IBV_EVENT_GID_CHANGE);
	CONST(F_GETFL);
	CONST(F_SETFL);
	CONST(O_NONBLOCK);
	CONST(EFD_CLOEXEC);
	CONST(POLLIN);
	SIZE(pollfd);
	OFF(pollfd, events);
	OFF(pollfd, revents);
	CONST(EAGAIN);
	CONST(EINTR);
	return 0;
}
