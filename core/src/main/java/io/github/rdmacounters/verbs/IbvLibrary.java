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
 * The symbols of {@code libibverbs.so.1} this binding calls, with their C names.
 * Functions returning {@code int} return 0 or an errno value; those returning a handle
 * return {@code null} and set {@code errno}. The counters and flow verbs are
 * {@code static inline} in {@code verbs.h} and are reached through {@link VerbsOps}.
 * Internal; not part of the API (public because JNA proxies it).
 *
 * @since 0.1.0
 */
public interface IbvLibrary extends Library {

	/** Bit of {@code device_cap_flags}. */
	int IBV_DEVICE_MANAGED_FLOW_STEERING = 1 << 29;

	/** Queue pair type that receives raw Ethernet frames. */
	int IBV_QPT_RAW_PACKET = 8;

	/** {@code ibv_modify_qp} mask bits. */
	int IBV_QP_STATE = 1;

	int IBV_QP_PORT = 1 << 5;

	/** Queue pair states. */
	int IBV_QPS_RESET = 0;

	int IBV_QPS_INIT = 1;

	int IBV_QPS_RTR = 2;

	int IBV_FLOW_ATTR_NORMAL = 0;

	/** Matched packets still go to the kernel. */
	int IBV_FLOW_ATTR_FLAGS_DONT_TRAP = 1 << 1;

	int IBV_FLOW_SPEC_ETH = 0x20;

	int IBV_FLOW_SPEC_IPV4 = 0x30;

	int IBV_FLOW_SPEC_IPV6 = 0x31;

	int IBV_FLOW_SPEC_TCP = 0x40;

	int IBV_FLOW_SPEC_UDP = 0x41;

	int IBV_FLOW_SPEC_ACTION_COUNT = 0x1003;

	int IBV_COUNTER_PACKETS = 0;

	int IBV_COUNTER_BYTES = 1;

	int IBV_READ_COUNTERS_ATTR_PREFER_CACHED = 1;

	/** {@code offsetof(struct ibv_context, async_fd)}. */
	int CONTEXT_ASYNC_FD = 268;

	/** {@code sizeof(struct ibv_async_event)}. */
	int ASYNC_EVENT_SIZE = 16;

	/** {@code offsetof(struct ibv_async_event, element)} ({@code port_num} is an int). */
	int ASYNC_EVENT_ELEMENT = 0;

	/** {@code offsetof(struct ibv_async_event, event_type)}. */
	int ASYNC_EVENT_EVENT_TYPE = 8;

	@Nullable Pointer ibv_get_device_list(IntByReference numDevices);

	void ibv_free_device_list(Pointer list);

	@Nullable String ibv_get_device_name(IbvDevice device);

	/** Returns the node GUID in network byte order. */
	long ibv_get_device_guid(IbvDevice device);

	@Nullable IbvContext ibv_open_device(IbvDevice device);

	int ibv_close_device(IbvContext context);

	int ibv_query_device(IbvContext context, IbvDeviceAttr attr);

	/** The exported compat symbol, which fills the fields up to {@code flags}. */
	int ibv_query_port(IbvContext context, byte port, IbvPortAttr attr);

	@Nullable IbvPd ibv_alloc_pd(IbvContext context);

	int ibv_dealloc_pd(IbvPd pd);

	@Nullable IbvCq ibv_create_cq(IbvContext context, int cqe, @Nullable Pointer cqContext, @Nullable Pointer channel,
			int compVector);

	int ibv_destroy_cq(IbvCq cq);

	@Nullable IbvQp ibv_create_qp(IbvPd pd, IbvQpInitAttr attr);

	/** {@code attr} is a {@code struct ibv_qp_attr}. */
	int ibv_modify_qp(IbvQp qp, Pointer attr, int attrMask);

	int ibv_destroy_qp(IbvQp qp);

	/**
	 * Returns -1 with errno set; {@code EAGAIN} on a non-blocking descriptor with no
	 * event.
	 */
	int ibv_get_async_event(IbvContext context, Pointer event);

	/** Every event must be acknowledged: destroying a QP or CQ waits for it. */
	void ibv_ack_async_event(Pointer event);

}
