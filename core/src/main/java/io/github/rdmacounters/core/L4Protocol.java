package io.github.rdmacounters.core;

/**
 * A transport protocol a flow can match on.
 *
 * @since 0.1.0
 */
public enum L4Protocol {

	/** TCP, IP protocol 6 ({@code IBV_FLOW_SPEC_TCP}). */
	TCP(6),

	/** UDP, IP protocol 17 ({@code IBV_FLOW_SPEC_UDP}); RoCEv2 is UDP port 4791. */
	UDP(17);

	private final int ipProtocol;

	L4Protocol(int ipProtocol) {
		this.ipProtocol = ipProtocol;
	}

	/**
	 * Return the IP protocol number.
	 * @return 6 or 17
	 */
	public int ipProtocol() {
		return this.ipProtocol;
	}

}
