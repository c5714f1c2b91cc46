package io.github.rdmacounters.verbs;

import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.Structure.FieldOrder;
import org.jspecify.annotations.Nullable;

/**
 * {@code struct ibv_qp_init_attr} with its {@code struct ibv_qp_cap}, passed to
 * {@code ibv_create_qp}. Internal; not part of the API (public because JNA reflects on
 * it).
 */
@FieldOrder({ "qp_context", "send_cq", "recv_cq", "srq", "max_send_wr", "max_recv_wr", "max_send_sge", "max_recv_sge",
		"max_inline_data", "qp_type", "sq_sig_all" })
public class IbvQpInitAttr extends Structure {

	public @Nullable Pointer qp_context;

	public @Nullable Pointer send_cq;

	public @Nullable Pointer recv_cq;

	public @Nullable Pointer srq;

	public int max_send_wr;

	public int max_recv_wr;

	public int max_send_sge;

	public int max_recv_sge;

	public int max_inline_data;

	public int qp_type;

	public int sq_sig_all;

	// Without the structure's address or its pointers
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
