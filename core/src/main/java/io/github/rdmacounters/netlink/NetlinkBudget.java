package io.github.rdmacounters.netlink;

/**
 * The most a dump may send before it is abandoned: large dense hosts make large dumps,
 * and a reader must not grow without bound while it holds them.
 *
 * @param maxMessages the most netlink messages (datagrams may hold several)
 * @param maxBytes the most bytes received, headers included
 * @author rdma-counters
 */
public record NetlinkBudget(int maxMessages, long maxBytes) {

	/**
	 * The default budget: 4096 messages and 16 MiB, room for about 150,000 queue pairs of
	 * one device.
	 */
	public static final NetlinkBudget DEFAULT = new NetlinkBudget(4096, 16L * 1024 * 1024);

	/**
	 * Create a budget.
	 * @param maxMessages the most netlink messages, at least 1
	 * @param maxBytes the most bytes, at least 1
	 */
	public NetlinkBudget {
		if (maxMessages < 1) {
			throw new IllegalArgumentException("maxMessages must be at least 1, not " + maxMessages);
		}
		if (maxBytes < 1) {
			throw new IllegalArgumentException("maxBytes must be at least 1, not " + maxBytes);
		}
	}

}
