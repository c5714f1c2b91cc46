package io.github.rdmacounters.core;

/**
 * A steering flow ({@code struct ibv_flow}) with a count action.
 *
 * @since 0.1.0
 */
public interface Flow extends AutoCloseable {

	int port();

	FlowSpec spec();

	/** Return whether this flow was destroyed. */
	boolean isClosed();

	/** Destroy the flow ({@code ibv_destroy_flow}). Idempotent. */
	@Override
	void close();

}
