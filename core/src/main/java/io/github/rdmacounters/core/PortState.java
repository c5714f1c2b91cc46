package io.github.rdmacounters.core;

/**
 * Logical port state ({@code enum ibv_port_state}).
 *
 * @since 0.1.0
 */
public enum PortState {

	NOP(0), DOWN(1), INIT(2), ARMED(3), ACTIVE(4), ACTIVE_DEFER(5);

	private final int nativeValue;

	PortState(int nativeValue) {
		this.nativeValue = nativeValue;
	}

	/** Return the value of {@code enum ibv_port_state}. */
	public int nativeValue() {
		return this.nativeValue;
	}

	/**
	 * Map a native value; unknown values map to {@link #NOP}.
	 * @param value the value of {@code enum ibv_port_state}
	 * @return the state
	 */
	public static PortState of(int value) {
		for (PortState state : values()) {
			if (state.nativeValue == value) {
				return state;
			}
		}
		return NOP;
	}

}
