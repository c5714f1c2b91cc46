package io.github.rdmacounters.core;

/**
 * A transport protocol a flow can match on; RoCEv2 is UDP port 4791.
 *
 * @since 0.1.0
 */
public enum L4Protocol {

	TCP(6),

	UDP(17);

	private final int ipProtocol;

	L4Protocol(int ipProtocol) {
		this.ipProtocol = ipProtocol;
	}

	/** Return the IP protocol number, 6 or 17. */
	public int ipProtocol() {
		return this.ipProtocol;
	}

}
