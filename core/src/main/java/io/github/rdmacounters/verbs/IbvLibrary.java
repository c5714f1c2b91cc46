package io.github.rdmacounters.verbs;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.verbs.IbvHandles.IbvContext;
import io.github.rdmacounters.verbs.IbvHandles.IbvCq;
import io.github.rdmacounters.verbs.IbvHandles.IbvDevice;
import io.github.rdmacounters.verbs.IbvHandles.IbvPd;
import io.github.rdmacounters.verbs.IbvHandles.IbvQp;

/**
 * The symbols {@code libibverbs.so.1} exports that this binding calls, with their C
 * names. Functions returning {@code int} return 0 or an errno value, as libibverbs does;
 * functions returning a handle return {@code null} and set {@code errno}. The counters
 * and flow verbs and the full-size {@code ibv_query_port} are {@code static inline} in
 * {@code verbs.h} and are reached through {@link VerbsOps} instead.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public interface IbvLibrary extends Library {

	/** {@code IBV_DEVICE_MANAGED_FLOW_STEERING}: bit of {@code device_cap_flags}. */
	int IBV_DEVICE_MANAGED_FLOW_STEERING = 1 << 29;

	/** {@code IBV_QPT_RAW_PACKET}: queue pair type that receives raw Ethernet frames. */
	int IBV_QPT_RAW_PACKET = 8;

	/** {@code IBV_QP_STATE}: {@code ibv_modify_qp} mask bit of {@code qp_state}. */
	int IBV_QP_STATE = 1;

	/** {@code IBV_QP_PORT}: {@code ibv_modify_qp} mask bit of {@code port_num}. */
	int IBV_QP_PORT = 1 << 5;

	/** {@code IBV_QPS_RESET}: state of a new queue pair. */
	int IBV_QPS_RESET = 0;

	/** {@code IBV_QPS_INIT}: state in which a queue pair is bound to its port. */
	int IBV_QPS_INIT = 1;

	/** {@code IBV_QPS_RTR}: ready to receive. */
	int IBV_QPS_RTR = 2;

	/** {@code IBV_FLOW_ATTR_NORMAL}: steering by the rule's specs. */
	int IBV_FLOW_ATTR_NORMAL = 0;

	/** {@code IBV_FLOW_ATTR_FLAGS_DONT_TRAP}: matched packets still go to the kernel. */
	int IBV_FLOW_ATTR_FLAGS_DONT_TRAP = 1 << 1;

	/** {@code IBV_FLOW_SPEC_ETH}. */
	int IBV_FLOW_SPEC_ETH = 0x20;

	/** {@code IBV_FLOW_SPEC_IPV4}. */
	int IBV_FLOW_SPEC_IPV4 = 0x30;

	/** {@code IBV_FLOW_SPEC_IPV6}. */
	int IBV_FLOW_SPEC_IPV6 = 0x31;

	/** {@code IBV_FLOW_SPEC_TCP}. */
	int IBV_FLOW_SPEC_TCP = 0x40;

	/** {@code IBV_FLOW_SPEC_UDP}. */
	int IBV_FLOW_SPEC_UDP = 0x41;

	/** {@code IBV_FLOW_SPEC_ACTION_COUNT}: feeds a counters handle. */
	int IBV_FLOW_SPEC_ACTION_COUNT = 0x1003;

	/** {@code IBV_COUNTER_PACKETS}. */
	int IBV_COUNTER_PACKETS = 0;

	/** {@code IBV_COUNTER_BYTES}. */
	int IBV_COUNTER_BYTES = 1;

	/** {@code IBV_READ_COUNTERS_ATTR_PREFER_CACHED}. */
	int IBV_READ_COUNTERS_ATTR_PREFER_CACHED = 1;

	/** {@code offsetof(struct ibv_context, async_fd)}. */
	int CONTEXT_ASYNC_FD = 268;

	/** {@code sizeof(struct ibv_async_event)}. */
	int ASYNC_EVENT_SIZE = 16;

	/** {@code offsetof(struct ibv_async_event, element)} ({@code port_num} is an int). */
	int ASYNC_EVENT_ELEMENT = 0;

	/** {@code offsetof(struct ibv_async_event, event_type)}. */
	int ASYNC_EVENT_EVENT_TYPE = 8;

	/**
	 * {@code struct ibv_device **ibv_get_device_list(int *num_devices)}.
	 * @param numDevices receives the number of devices
	 * @return a NULL-terminated array, or {@code null} with errno set
	 */
	@Nullable Pointer ibv_get_device_list(IntByReference numDevices);

	/**
	 * {@code void ibv_free_device_list(struct ibv_device **list)}.
	 * @param list the list
	 */
	void ibv_free_device_list(Pointer list);

	/**
	 * {@code const char *ibv_get_device_name(struct ibv_device *device)}.
	 * @param device the device
	 * @return the kernel device name
	 */
	@Nullable String ibv_get_device_name(IbvDevice device);

	/**
	 * {@code __be64 ibv_get_device_guid(struct ibv_device *device)}.
	 * @param device the device
	 * @return the node GUID in network byte order
	 */
	long ibv_get_device_guid(IbvDevice device);

	/**
	 * {@code struct ibv_context *ibv_open_device(struct ibv_device *device)}.
	 * @param device the device
	 * @return the context, or {@code null} with errno set
	 */
	@Nullable IbvContext ibv_open_device(IbvDevice device);

	/**
	 * {@code int ibv_close_device(struct ibv_context *context)}.
	 * @param context the context
	 * @return 0 or an errno value
	 */
	int ibv_close_device(IbvContext context);

	/**
	 * {@code int ibv_query_device(struct ibv_context *context, struct ibv_device_attr *attr)}.
	 * @param context the context
	 * @param attr receives the attributes
	 * @return 0 or an errno value
	 */
	int ibv_query_device(IbvContext context, IbvDeviceAttr attr);

	/**
	 * The exported compat {@code ibv_query_port}, which fills the fields up to
	 * {@code flags}.
	 * @param context the context
	 * @param port the port number ({@code uint8_t})
	 * @param attr receives the attributes
	 * @return 0 or an errno value
	 */
	int ibv_query_port(IbvContext context, byte port, IbvPortAttr attr);

	/**
	 * {@code struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)}.
	 * @param context the context
	 * @return the protection domain, or {@code null} with errno set
	 */
	@Nullable IbvPd ibv_alloc_pd(IbvContext context);

	/**
	 * {@code int ibv_dealloc_pd(struct ibv_pd *pd)}.
	 * @param pd the protection domain
	 * @return 0 or an errno value
	 */
	int ibv_dealloc_pd(IbvPd pd);

	/**
	 * {@code struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context,
	 * struct ibv_comp_channel *channel, int comp_vector)}.
	 * @param context the context
	 * @param cqe the minimum number of entries
	 * @param cqContext user data, here {@code null}
	 * @param channel the completion channel, here {@code null}
	 * @param compVector the completion vector
	 * @return the completion queue, or {@code null} with errno set
	 */
	@Nullable IbvCq ibv_create_cq(IbvContext context, int cqe, @Nullable Pointer cqContext, @Nullable Pointer channel,
			int compVector);

	/**
	 * {@code int ibv_destroy_cq(struct ibv_cq *cq)}.
	 * @param cq the completion queue
	 * @return 0 or an errno value
	 */
	int ibv_destroy_cq(IbvCq cq);

	/**
	 * {@code struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr)}.
	 * @param pd the protection domain
	 * @param attr the initial attributes
	 * @return the queue pair, or {@code null} with errno set
	 */
	@Nullable IbvQp ibv_create_qp(IbvPd pd, IbvQpInitAttr attr);

	/**
	 * {@code int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)}.
	 * @param qp the queue pair
	 * @param attr a {@code struct ibv_qp_attr} (see
	 * {@code RawPacketQueuePairs.QP_ATTR_SIZE})
	 * @param attrMask the {@code IBV_QP_*} bits of the fields to apply
	 * @return 0 or an errno value
	 */
	int ibv_modify_qp(IbvQp qp, Pointer attr, int attrMask);

	/**
	 * {@code int ibv_destroy_qp(struct ibv_qp *qp)}.
	 * @param qp the queue pair
	 * @return 0 or an errno value
	 */
	int ibv_destroy_qp(IbvQp qp);

	/**
	 * {@code int ibv_get_async_event(struct ibv_context *context, struct ibv_async_event *event)}:
	 * reads one event from {@code context->async_fd}; with a non-blocking descriptor it
	 * fails with {@code EAGAIN} when there is none.
	 * @param context the context
	 * @param event receives the event ({@link #ASYNC_EVENT_SIZE} bytes)
	 * @return 0, or -1 with errno set
	 */
	int ibv_get_async_event(IbvContext context, Pointer event);

	/**
	 * {@code void ibv_ack_async_event(struct ibv_async_event *event)}: every event must
	 * be acknowledged; destroying a QP or CQ waits for the acknowledgement of its events.
	 * @param event the event returned by {@link #ibv_get_async_event}
	 */
	void ibv_ack_async_event(Pointer event);

}
