package io.github.rdmacounters.verbs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.verbs.VerbsOps.Op;

/**
 * What the host diagnosis ({@code io.github.rdmacounters.diagnosis}) asks of the native
 * binding beyond {@link RdmaDevice}: the struct sizes the binding is built for, the op
 * table of an open context, and a port's raw packet queue pair made ahead of any flow.
 *
 * @since 0.1.0
 */
public final class VerbsDiagnostics {

	private VerbsDiagnostics() {
	}

	/**
	 * Return the sizes of the libibverbs structs the binding writes or reads, in bytes,
	 * as the ABI tests check them against the installed {@code verbs.h}.
	 * @return the sizes by C type name, in a fixed order
	 */
	public static Map<String, Integer> bindingSizes() {
		Map<String, Integer> sizes = new LinkedHashMap<>();
		sizes.put("struct ibv_context", VerbsOps.SIZEOF_IBV_CONTEXT);
		sizes.put("struct ibv_device_attr", IbvDeviceAttr.sizeOf());
		sizes.put("struct ibv_port_attr", new IbvPortAttr().size());
		sizes.put("struct ibv_qp_init_attr", IbvQpInitAttr.sizeOf());
		sizes.put("struct ibv_qp_attr", RawPacketQueuePairs.QP_ATTR_SIZE);
		sizes.put("struct ibv_counters_init_attr", NativeDevice.COUNTERS_INIT_ATTR_SIZE);
		sizes.put("struct ibv_counter_attach_attr", NativeCounters.ATTACH_ATTR_SIZE);
		sizes.put("struct ibv_flow_attr", FlowEncoder.ATTR_SIZE);
		sizes.put("struct ibv_flow_spec_eth", FlowEncoder.ETH_SIZE);
		sizes.put("struct ibv_flow_spec_counter_action", FlowEncoder.COUNT_SIZE);
		return sizes;
	}

	/**
	 * Describe the op table of an open native context, as {@code verbs_get_ctx_op} sees
	 * it.
	 * @param device an open device
	 * @return the table, or {@code null} if the device is not a native one
	 */
	public static @Nullable ContextOps contextOps(RdmaDevice device) {
		if (!(device instanceof NativeDevice nativeDevice)) {
			return null;
		}
		VerbsOps ops = nativeDevice.ops();
		List<String> missing = new ArrayList<>();
		for (Op op : Op.values()) {
			if (ops.get(op) == null) {
				missing.add(op.verb() + ": " + ops.whyMissing(op));
			}
		}
		return new ContextOps(ops.extended(), ops.size(), missing);
	}

	/**
	 * Create a port's raw packet queue pair, with the device's protection domain and
	 * completion queue, as the first flow on the port would; the device's
	 * {@link RdmaDevice#close()} destroys them in rdma-core's order.
	 * @param device an open device
	 * @param port the port number
	 * @return {@code false} if the device is not a native one (nothing was done)
	 * @throws io.github.rdmacounters.core.RdmaOperationException naming the verb that
	 * failed ({@code ibv_alloc_pd}, {@code ibv_create_cq}, {@code ibv_create_qp} or
	 * {@code ibv_modify_qp}) and its errno
	 */
	public static boolean createQueuePair(RdmaDevice device, int port) {
		if (!(device instanceof NativeDevice nativeDevice)) {
			return false;
		}
		nativeDevice.createQueuePair(port);
		return true;
	}

	/**
	 * The op table of an open context.
	 *
	 * @param extended whether the context is an extended one ({@code abi_compat})
	 * @param size {@code struct verbs_context.sz}, the size of the library's op table (0
	 * for a context that is not extended)
	 * @param missing the ops the binding uses that the context lacks, each with why
	 */
	public record ContextOps(boolean extended, long size, List<String> missing) {

		public ContextOps {
			missing = List.copyOf(missing);
		}

	}

}
