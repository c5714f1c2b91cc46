package io.github.rdmacounters.netlink;

import java.util.List;

/**
 * The messages of a completed dump, and what it cost.
 *
 * @param messages the data messages, in the order received ({@code NLMSG_DONE} excluded)
 * @param bytes the bytes received, headers included
 * @param datagrams the datagrams received
 * @param interrupted whether a message carried {@code NLM_F_DUMP_INTR}: the data changed
 * during the dump, which may be inconsistent
 * @author rdma-counters
 */
public record NetlinkDump(List<NetlinkMessage> messages, long bytes, int datagrams, boolean interrupted) {

	/**
	 * Create a dump result.
	 * @param messages the data messages
	 * @param bytes the bytes received
	 * @param datagrams the datagrams received
	 * @param interrupted whether the dump was interrupted
	 */
	public NetlinkDump {
		messages = List.copyOf(messages);
	}

}
