package io.github.rdmacounters.core;

import org.jspecify.annotations.Nullable;

/**
 * Physical state of a port ({@code enum ib_port_phys_state}), as the kernel prints it in
 * sysfs {@code phys_state} ({@code 5: LinkUp}, from {@code phys_state_show} and
 * {@code phys_state_to_str} in {@code drivers/infiniband/core/sysfs.c}).
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public enum PhysicalPortState {

	/** {@code IB_PORT_PHYS_STATE_SLEEP}. */
	SLEEP(1, "Sleep"),
	/** {@code IB_PORT_PHYS_STATE_POLLING}. */
	POLLING(2, "Polling"),
	/** {@code IB_PORT_PHYS_STATE_DISABLED}. */
	DISABLED(3, "Disabled"),
	/** {@code IB_PORT_PHYS_STATE_PORT_CONFIGURATION_TRAINING}. */
	PORT_CONFIGURATION_TRAINING(4, "PortConfigurationTraining"),
	/** {@code IB_PORT_PHYS_STATE_LINK_UP}. */
	LINK_UP(5, "LinkUp"),
	/** {@code IB_PORT_PHYS_STATE_LINK_ERROR_RECOVERY}. */
	LINK_ERROR_RECOVERY(6, "LinkErrorRecovery"),
	/** {@code IB_PORT_PHYS_STATE_PHY_TEST}. */
	PHY_TEST(7, "Phy Test");

	private final int nativeValue;

	private final String sysfsName;

	PhysicalPortState(int nativeValue, String sysfsName) {
		this.nativeValue = nativeValue;
		this.sysfsName = sysfsName;
	}

	/**
	 * Return the native value, as node_exporter's {@code physical_state_id} reports it.
	 * @return the value of {@code enum ib_port_phys_state}
	 */
	public int nativeValue() {
		return this.nativeValue;
	}

	/**
	 * Return the name the kernel prints after the number, e.g. {@code LinkUp}.
	 * @return the sysfs name
	 */
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
	 * Map a sysfs name, ignoring case and spaces ({@code LinkUp}, {@code Phy Test}).
	 * @param name the name
	 * @return the state, or {@code null} if the name is not one the kernel prints
	 */
	public static @Nullable PhysicalPortState ofSysfsName(String name) {
		String wanted = name.replace(" ", "");
		for (PhysicalPortState state : values()) {
			if (state.sysfsName.replace(" ", "").equalsIgnoreCase(wanted)) {
				return state;
			}
		}
		return null;
	}

}
