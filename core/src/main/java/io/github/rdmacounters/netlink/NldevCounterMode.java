package io.github.rdmacounters.netlink;

/**
 * How a port binds queue pairs to counters, as {@code RDMA_NLDEV_CMD_STAT_GET} with
 * {@code RDMA_NLDEV_ATTR_STAT_RES} of queue pairs answers ({@code stat_get_doit_qp} in
 * {@code drivers/infiniband/core/nldev.c}, {@code rdma_counter_get_mode} in
 * {@code counters.c}). The mode is the port's, shared by every process of the host.
 *
 * @param mode {@link RdmaNldev#COUNTER_MODE_NONE}, {@link RdmaNldev#COUNTER_MODE_AUTO} or
 * {@link RdmaNldev#COUNTER_MODE_MANUAL}
 * @param mask in auto mode, what groups queue pairs:
 * {@link RdmaNldev#COUNTER_MASK_QP_TYPE} and {@link RdmaNldev#COUNTER_MASK_PID};
 * otherwise 0
 * @author rdma-counters
 * @since 0.1.0
 */
public record NldevCounterMode(int mode, int mask) {

	/**
	 * Return whether the port is in auto mode.
	 * @return {@code true} if the kernel binds new queue pairs itself
	 */
	public boolean isAuto() {
		return this.mode == RdmaNldev.COUNTER_MODE_AUTO;
	}

	/**
	 * Describe the mode as {@code rdma statistic qp mode} does.
	 * @return e.g. {@code auto type,pid}, {@code manual} or {@code none}
	 */
	public String describe() {
		return switch (this.mode) {
			case RdmaNldev.COUNTER_MODE_AUTO -> "auto " + (((this.mask & RdmaNldev.COUNTER_MASK_QP_TYPE) != 0)
					? (((this.mask & RdmaNldev.COUNTER_MASK_PID) != 0) ? "type,pid" : "type")
					: (((this.mask & RdmaNldev.COUNTER_MASK_PID) != 0) ? "pid" : "off"));
			case RdmaNldev.COUNTER_MODE_MANUAL -> "manual";
			case RdmaNldev.COUNTER_MODE_NONE -> "none";
			default -> "mode " + this.mode;
		};
	}

}
