package io.github.rdmacounters.core;

/**
 * A call on an object that was closed, or whose device was closed; no native call was
 * made.
 *
 * @since 0.1.0
 */
public class RdmaClosedException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	/**
	 * Create an exception.
	 * @param what the object, e.g. {@code Counters on mlx5_0}
	 */
	public RdmaClosedException(String what) {
		super(what + " is closed");
	}

}
