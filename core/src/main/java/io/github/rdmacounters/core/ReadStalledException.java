package io.github.rdmacounters.core;

/**
 * Thrown by {@link ReadCache#get} when the read has not returned within the deadline. The
 * read goes on in its reader thread; the caller does not wait for it. Without a stack
 * trace: it is expected under a stall, once per caller.
 *
 * @since 0.1.0
 */
public class ReadStalledException extends RdmaException {

	private static final long serialVersionUID = 1L;

	private final transient ReadStall stall;

	/**
	 * Create an exception for a stall.
	 * @param stall the stall
	 */
	public ReadStalledException(ReadStall stall) {
		super(stall.describe());
		this.stall = stall;
	}

	@Override
	public synchronized Throwable fillInStackTrace() {
		return this;
	}

	/**
	 * Return the stall.
	 * @return the stall
	 */
	public ReadStall stall() {
		return this.stall;
	}

}
