package io.github.rdmacounters.verbs;

import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.Structure.FieldOrder;
import org.jspecify.annotations.Nullable;

/**
 * {@code struct ibv_qp_init_attr} with its {@code struct ibv_qp_cap}, passed to
 * {@code ibv_create_qp}.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@FieldOrder({ "qp_context", "send_cq", "recv_cq", "srq", "max_send_wr", "max_recv_wr", "max_send_sge", "max_recv_sge",
		"max_inline_data", "qp_type", "sq_sig_all" })
public class IbvQpInitAttr extends Structure {

	/** {@code void *qp_context}. */
	public @Nullable Pointer qp_context;

	/** {@code struct ibv_cq *send_cq}. */
	public @Nullable Pointer send_cq;

	/** {@code struct ibv_cq *recv_cq}. */
	public @Nullable Pointer recv_cq;

	/** {@code struct ibv_srq *srq}. */
	public @Nullable Pointer srq;

	/** {@code cap.max_send_wr}. */
	public int max_send_wr;

	/** {@code cap.max_recv_wr}. */
	public int max_recv_wr;

	/** {@code cap.max_send_sge}. */
	public int max_send_sge;

	/** {@code cap.max_recv_sge}. */
	public int max_recv_sge;

	/** {@code cap.max_inline_data}. */
	public int max_inline_data;

	/** {@code enum ibv_qp_type qp_type}. */
	public int qp_type;

	/** {@code int sq_sig_all}. */
	public int sq_sig_all;

	/**
	 * Describe the type and capacities, without the structure's address or its pointer
	 * fields.
	 * @return e.g. {@code ibv_qp_init_attr[qp_type=8, ...]}
	 */
	@Override
	public String toString() {
		return "ibv_qp_init_attr[qp_type=" + this.qp_type + ", max_send_wr=" + this.max_send_wr + ", max_recv_wr="
				+ this.max_recv_wr + ", max_send_sge=" + this.max_send_sge + ", max_recv_sge=" + this.max_recv_sge
				+ "]";
	}

	static int offsetOf(String field) {
		return new IbvQpInitAttr().fieldOffset(field);
	}

	static int sizeOf() {
		return new IbvQpInitAttr().size();
	}

}
