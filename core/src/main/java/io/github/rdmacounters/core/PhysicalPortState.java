package io.github.rdmacounters.core;

import org.jspecify.annotations.Nullable;

/**
 * Physical state of a port ({@code enum ib_port_phys_state}), as {@code phys_state_show}
 * prints it in sysfs ({@code drivers/infiniband/core/sysfs.c}).
 *
 * @since 0.1.0
 */
public enum PhysicalPortState {

	SLEEP(1, "Sleep"), POLLING(2, "Polling"), DISABLED(3, "Disabled"),
	PORT_CONFIGURATION_TRAINING(4, "PortConfigurationTraining"), LINK_UP(5, "LinkUp"),
	LINK_ERROR_RECOVERY(6, "LinkErrorRecovery"), PHY_TEST(7, "Phy Test");

	private final int nativeValue;

	private final String sysfsName;

	PhysicalPortState(int nativeValue, String sysfsName) {
		this.nativeValue = nativeValue;
		this.sysfsName = sysfsName;
	}

	/**
	 * Return the native value, as node_exporter's {@code physical_state_id} reports it.
	 */
	public int nativeValue() {
		return this.nativeValue;
	}

	/** Return the name the kernel prints after the number, e.g. {@code LinkUp}. */
	public String sysfsName() {
		return this.sysfsName;
	}

	/**
	 * Map a native value.
	 * @param value the value of {@code enum ib_port_phys_state}
	 * @return the state, or {@code null} for a value the kernel does not name
	 */
	public static @Nullable PhysicalPortState of(int value) {
		for (PhysicalPortState state : values()) {
			if (state.nativeValue == value) {
				return state;
			}
		}
		return null;
	}

	/**
	 * Map a sysfs name, ignoring case and spaces.
	 * @param name the name, e.g. {@code Phy Test}
	 * @return the state, or {@code null} for a name the kernel does not print
	 */
	static @Nullable PhysicalPortState ofSysfsName(String name) {
		String wanted = name.replace(" ", "");
		for (PhysicalPortState state : values()) {
			if (state.sysfsName.replace(" ", "").equalsIgnoreCase(wanted)) {
				return state;
			}
		}
		return null;
	}

}
