package io.github.rdmacounters.core;

import org.jspecify.annotations.Nullable;

/**
 * RDMA cannot be used on this host at all: libibverbs cannot be loaded, or the kernel has
 * no RDMA stack.
 *
 * @since 0.1.0
 */
public class RdmaUnavailableException extends RdmaException {

	private static final long serialVersionUID = 1L;

	private final Reason reason;

	/**
	 * Create an exception.
	 * @param reason why RDMA is unavailable
	 * @param message the message, naming the cause
	 * @param cause the cause, if any
	 */
	public RdmaUnavailableException(Reason reason, String message, @Nullable Throwable cause) {
		super(message, cause);
		this.reason = reason;
	}

	public Reason reason() {
		return this.reason;
	}

	/** Why RDMA is unavailable. */
	public enum Reason {

		/** {@code libibverbs.so.1} could not be loaded. */
		LIBRARY_NOT_LOADABLE,

		/**
		 * {@code ibv_get_device_list} failed with {@code ENOSYS}: no kernel RDMA stack.
		 */
		NO_KERNEL_STACK

	}

}
