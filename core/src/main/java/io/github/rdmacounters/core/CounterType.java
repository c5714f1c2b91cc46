package io.github.rdmacounters.core;

/**
 * What a counter point counts ({@code enum ibv_counter_description}).
 *
 * @since 0.1.0
 */
public enum CounterType {

	/** Packets matched by the flow. */
	PACKETS(0),

	/** Bytes of the packets matched by the flow. */
	BYTES(1);

	private final int nativeValue;

	CounterType(int nativeValue) {
		this.nativeValue = nativeValue;
	}

	/** Return the value of {@code enum ibv_counter_description}. */
	public int nativeValue() {
		return this.nativeValue;
	}

}
