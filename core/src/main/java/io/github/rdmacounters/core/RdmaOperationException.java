package io.github.rdmacounters.core;

import org.jspecify.annotations.Nullable;

/**
 * A verb failed with an errno, e.g.
 * {@code ibv_create_counters failed: EOPNOTSUPP (95) Operation not supported}.
 *
 * @since 0.1.0
 */
public class RdmaOperationException extends RdmaException {

	private static final long serialVersionUID = 1L;

	private final String verb;

	private final int errno;

	/** Create an exception for a verb that failed with an errno. */
	public RdmaOperationException(String verb, int errno) {
		this(verb, errno, null);
	}

	/**
	 * Create an exception for a failed verb with what the failure means here, appended to
	 * the message.
	 */
	public RdmaOperationException(String verb, int errno, @Nullable String detail) {
		super(verb + " failed: " + Errno.describe(errno) + ((detail != null) ? ": " + detail : ""));
		this.verb = verb;
		this.errno = errno;
	}

	public String verb() {
		return this.verb;
	}

	public int errno() {
		return this.errno;
	}

	/** Return the symbolic errno name, e.g. {@code EOPNOTSUPP}. */
	String errnoName() {
		return Errno.name(this.errno);
	}

}
