package io.github.rdmacounters.core;

/**
 * Logical port state ({@code enum ibv_port_state}).
 *
 * @since 0.1.0
 */
public enum PortState {

	/** {@code IBV_PORT_NOP}. */
	NOP(0),
	/** {@code IBV_PORT_DOWN}. */
	DOWN(1),
	/** {@code IBV_PORT_INIT}. */
	INIT(2),
	/** {@code IBV_PORT_ARMED}. */
	ARMED(3),
	/** {@code IBV_PORT_ACTIVE}. */
	ACTIVE(4),
	/** {@code IBV_PORT_ACTIVE_DEFER}. */
	ACTIVE_DEFER(5);

	private final int nativeValue;

	PortState(int nativeValue) {
		this.nativeValue = nativeValue;
	}

	/**
	 * Return the native value.
	 * @return the value of {@code enum ibv_port_state}
	 */
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
