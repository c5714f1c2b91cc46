package io.github.rdmacounters.netlink;

/**
 * The numbers of RDMA netlink's device interface (the {@code RDMA_NL_NLDEV} client), from
 * the kernel's {@code include/uapi/rdma/rdma_netlink.h}; the test build compares each
 * with the installed header.
 *
 * @author rdma-counters
 */
public final class RdmaNldev {

	/** {@code RDMA_NL_NLDEV}: the client of the device interface. */
	public static final int RDMA_NL_NLDEV = 5;

	/** {@code RDMA_NLDEV_CMD_GET}: a device's information; can dump. */
	public static final int CMD_GET = 1;

	/** {@code RDMA_NLDEV_CMD_RES_QP_GET}: the queue pairs of a device; can dump. */
	public static final int CMD_RES_QP_GET = 10;

	/**
	 * {@code RDMA_NLDEV_CMD_STAT_SET}: counter modes and optional counters; needs
	 * CAP_NET_ADMIN.
	 */
	public static final int CMD_STAT_SET = 16;

	/** {@code RDMA_NLDEV_CMD_STAT_GET}: a port's hardware counters; can dump. */
	public static final int CMD_STAT_GET = 17;

	/**
	 * {@code RDMA_NLDEV_CMD_STAT_DEL}: unbind a queue pair from a counter; needs
	 * CAP_NET_ADMIN.
	 */
	public static final int CMD_STAT_DEL = 18;

	/**
	 * {@code RDMA_NLDEV_CMD_STAT_GET_STATUS}: which counters a port has, optional ones
	 * marked.
	 */
	public static final int CMD_STAT_GET_STATUS = 24;

	/** {@code RDMA_NLDEV_ATTR_DEV_INDEX} (u32). */
	public static final int ATTR_DEV_INDEX = 1;

	/** {@code RDMA_NLDEV_ATTR_DEV_NAME} (string). */
	public static final int ATTR_DEV_NAME = 2;

	/**
	 * {@code RDMA_NLDEV_ATTR_PORT_INDEX} (u32): a port, or in a device the number of
	 * ports.
	 */
	public static final int ATTR_PORT_INDEX = 3;

	/** {@code RDMA_NLDEV_ATTR_FW_VERSION} (string). */
	public static final int ATTR_FW_VERSION = 5;

	/** {@code RDMA_NLDEV_ATTR_NODE_GUID} (u64). */
	public static final int ATTR_NODE_GUID = 6;

	/** {@code RDMA_NLDEV_ATTR_RES_QP} (nested table). */
	public static final int ATTR_RES_QP = 19;

	/** {@code RDMA_NLDEV_ATTR_RES_QP_ENTRY} (nested table). */
	public static final int ATTR_RES_QP_ENTRY = 20;

	/** {@code RDMA_NLDEV_ATTR_RES_LQPN} (u32). */
	public static final int ATTR_RES_LQPN = 21;

	/** {@code RDMA_NLDEV_ATTR_RES_TYPE} (u8): {@code enum ib_qp_type}. */
	public static final int ATTR_RES_TYPE = 26;

	/** {@code RDMA_NLDEV_ATTR_RES_STATE} (u8): {@code enum ib_qp_state}. */
	public static final int ATTR_RES_STATE = 27;

	/** {@code RDMA_NLDEV_ATTR_RES_PID} (u32): the owner of a user resource. */
	public static final int ATTR_RES_PID = 28;

	/** {@code RDMA_NLDEV_ATTR_RES_KERN_NAME} (string): the owner of a kernel resource. */
	public static final int ATTR_RES_KERN_NAME = 29;

	/**
	 * {@code RDMA_NLDEV_ATTR_DEV_PROTOCOL} (string): {@code ib}, {@code roce},
	 * {@code iw}.
	 */
	public static final int ATTR_DEV_PROTOCOL = 67;

	/**
	 * {@code RDMA_NLDEV_ATTR_STAT_MODE} (u32): {@code enum rdma_nl_counter_mode}, e.g.
	 * {@link #COUNTER_MODE_MANUAL}.
	 */
	public static final int ATTR_STAT_MODE = 74;

	/**
	 * {@code RDMA_NLDEV_ATTR_STAT_RES} (u32): the resource counted, for queue pairs
	 * {@link #ATTR_RES_QP}.
	 */
	public static final int ATTR_STAT_RES = 75;

	/**
	 * {@code RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK} (u32):
	 * {@code enum rdma_nl_counter_mask}.
	 */
	public static final int ATTR_STAT_AUTO_MODE_MASK = 76;

	/** {@code RDMA_NLDEV_ATTR_STAT_COUNTER} (nested table). */
	public static final int ATTR_STAT_COUNTER = 77;

	/** {@code RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY} (nested table). */
	public static final int ATTR_STAT_COUNTER_ENTRY = 78;

	/** {@code RDMA_NLDEV_ATTR_STAT_COUNTER_ID} (u32). */
	public static final int ATTR_STAT_COUNTER_ID = 79;

	/** {@code RDMA_NLDEV_ATTR_STAT_HWCOUNTERS} (nested table). */
	public static final int ATTR_STAT_HWCOUNTERS = 80;

	/** {@code RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY} (nested table). */
	public static final int ATTR_STAT_HWCOUNTER_ENTRY = 81;

	/** {@code RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME} (string). */
	public static final int ATTR_STAT_HWCOUNTER_ENTRY_NAME = 82;

	/** {@code RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE} (u64). */
	public static final int ATTR_STAT_HWCOUNTER_ENTRY_VALUE = 83;

	/** {@code RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX} (u32). */
	public static final int ATTR_STAT_HWCOUNTER_INDEX = 94;

	/**
	 * {@code RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC} (u8): present for optional counters,
	 * 1 if enabled.
	 */
	public static final int ATTR_STAT_HWCOUNTER_DYNAMIC = 95;

	/** {@code RDMA_COUNTER_MODE_NONE}: no queue pair of the port is bound. */
	public static final int COUNTER_MODE_NONE = 0;

	/** {@code RDMA_COUNTER_MODE_AUTO}: the kernel binds new queue pairs by a mask. */
	public static final int COUNTER_MODE_AUTO = 1;

	/** {@code RDMA_COUNTER_MODE_MANUAL}: queue pairs are bound by their number. */
	public static final int COUNTER_MODE_MANUAL = 2;

	/** {@code RDMA_COUNTER_MASK_QP_TYPE}: auto mode groups queue pairs by type. */
	public static final int COUNTER_MASK_QP_TYPE = 1;

	/** {@code RDMA_COUNTER_MASK_PID}: auto mode groups queue pairs by process. */
	public static final int COUNTER_MASK_PID = 2;

	private RdmaNldev() {
	}

	/**
	 * {@code RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, op)}: the message type of a command.
	 * @param op the command, e.g. {@link #CMD_STAT_GET}
	 * @return the message type
	 */
	public static int type(int op) {
		return (RDMA_NL_NLDEV << 10) + op;
	}

}
