package io.github.rdmacounters.netlink;

import org.jspecify.annotations.Nullable;

/**
 * A queue pair as {@code RDMA_NLDEV_CMD_RES_QP_GET} lists it ({@code fill_res_qp_entry}
 * in {@code drivers/infiniband/core/nldev.c}).
 *
 * @param port its port, or 0 before the queue pair was given one
 * @param lqpn its local queue pair number
 * @param type {@code enum ib_qp_type} ({@code include/rdma/ib_verbs.h})
 * @param state {@code enum ib_qp_state}
 * @param pid the process that owns it, in the reader's pid namespace, or {@code null} for
 * a kernel queue pair or one whose process has exited
 * @param kernelOwner the kernel module that owns it, or {@code null} for a user one
 * @author rdma-counters
 */
public record NldevQueuePair(int port, long lqpn, int type, int state, @Nullable Long pid,
		@Nullable String kernelOwner) {

	private static final String[] TYPES = { "SMI", "GSI", "RC", "UC", "UD", "RAW_IPV6", "RAW_ETHERTYPE", "UNKNOWN",
			"RAW_PACKET", "XRC_INI", "XRC_TGT" };

	private static final String[] STATES = { "RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR" };

	/**
	 * Return the name of the type, as {@code rdma resource show qp} prints it.
	 * @return e.g. {@code RC}, or {@code UNKNOWN}
	 */
	public String typeName() {
		if (this.type == 0xff) {
			return "DRIVER";
		}
		return (this.type < TYPES.length) ? TYPES[this.type] : "UNKNOWN";
	}

	/**
	 * Return the name of the state, as {@code rdma resource show qp} prints it.
	 * @return e.g. {@code RTS}, or {@code UNKNOWN}
	 */
	public String stateName() {
		return (this.state < STATES.length) ? STATES[this.state] : "UNKNOWN";
	}

}
