package io.github.rdmacounters.core;

/**
 * A steering flow ({@code struct ibv_flow}) with a count action.
 *
 * @since 0.1.0
 */
public interface Flow extends AutoCloseable {

	/**
	 * Return the port the flow is attached to.
	 * @return the port number
	 */
	int port();

	/**
	 * Return what the flow matches.
	 * @return the spec
	 */
	FlowSpec spec();

	/**
	 * Return whether this flow was destroyed.
	 * @return {@code true} after {@link #close()}
	 */
	boolean isClosed();

	/**
	 * Destroy the flow ({@code ibv_destroy_flow}). Idempotent.
	 */
	@Override
	void close();

}
