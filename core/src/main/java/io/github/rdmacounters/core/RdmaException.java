package io.github.rdmacounters.core;

import org.jspecify.annotations.Nullable;

/**
 * Base class of the exceptions this project throws for RDMA failures.
 *
 * @since 0.1.0
 */
public class RdmaException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * Create an exception.
	 * @param message the message
	 * @param cause the cause, if any
	 */
	public RdmaException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

	/**
	 * Create an exception.
	 * @param message the message
	 */
	public RdmaException(String message) {
		super(message);
	}

}
