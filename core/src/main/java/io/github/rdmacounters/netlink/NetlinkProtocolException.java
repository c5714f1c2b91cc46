package io.github.rdmacounters.netlink;

import io.github.rdmacounters.core.RdmaException;

/**
 * A netlink reply broke the protocol: a malformed message or attribute, a sequence number
 * or port id that does not belong to the request, a reply cut short. The socket it came
 * from is closed, as nothing read from it afterwards could be trusted.
 *
 * @author rdma-counters
 */
public class NetlinkProtocolException extends RdmaException {

	private static final long serialVersionUID = 1L;

	/**
	 * Create an exception.
	 * @param message what was wrong
	 */
	public NetlinkProtocolException(String message) {
		super(message);
	}

}
