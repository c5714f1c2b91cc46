package io.github.rdmacounters.netlink;

import io.github.rdmacounters.core.RdmaException;

/**
 * A dump was larger than its {@link NetlinkBudget}; it was abandoned and its socket
 * closed.
 *
 * @author rdma-counters
 */
public class NetlinkBudgetExceededException extends RdmaException {

	private static final long serialVersionUID = 1L;

	private final NetlinkBudget budget;

	private final long bytes;

	private final int messages;

	/**
	 * Create an exception.
	 * @param request what was dumped
	 * @param budget the budget it exceeded
	 * @param bytes the bytes received when it was abandoned
	 * @param messages the messages received when it was abandoned
	 */
	public NetlinkBudgetExceededException(String request, NetlinkBudget budget, long bytes, int messages) {
		super("The " + request + " dump exceeded its budget of " + budget.maxMessages() + " messages and "
				+ budget.maxBytes() + " bytes (it had sent " + messages + " messages and " + bytes
				+ " bytes) and was abandoned; if this host really has that many resources, raise the budget "
				+ "(maxMessages, maxBytes)");
		this.budget = budget;
		this.bytes = bytes;
		this.messages = messages;
	}

	/**
	 * Return the budget that was exceeded.
	 * @return the budget
	 */
	public NetlinkBudget budget() {
		return this.budget;
	}

	/**
	 * Return the bytes received when the dump was abandoned.
	 * @return the bytes
	 */
	public long bytes() {
		return this.bytes;
	}

	/**
	 * Return the messages received when the dump was abandoned.
	 * @return the messages
	 */
	public int messages() {
		return this.messages;
	}

}
