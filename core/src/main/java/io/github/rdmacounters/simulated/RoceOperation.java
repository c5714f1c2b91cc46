package io.github.rdmacounters.simulated;

import org.jspecify.annotations.Nullable;

/**
 * The class of a RoCEv2 request a simulated port receives, which decides the mlx5
 * responder counter it moves.
 *
 * @since 0.1.0
 */
public enum RoceOperation {

	/** Counted by the port counters only. */
	SEND(null),

	WRITE("rx_write_requests"),

	READ("rx_read_requests"),

	ATOMIC("rx_atomic_requests");

	private final @Nullable String hwCounter;

	RoceOperation(@Nullable String hwCounter) {
		this.hwCounter = hwCounter;
	}

	/** Return the {@code hw_counters/} file this operation moves. */
	@Nullable String hwCounter() {
		return this.hwCounter;
	}

}
