package io.github.rdmacounters.core;

import org.jspecify.annotations.Nullable;

/**
 * What {@code ibv_query_port} reports about a port, as far as this project uses it.
 *
 * @param port the port number, from 1
 * @param state the logical state
 * @param physicalState the raw physical state ({@code 5} is LinkUp)
 * @param linkLayer the link layer
 * @param activeMtu the active MTU in bytes
 * @param activeSpeed the speed code ({@code enum ibv_port_speed}), from
 * {@code active_speed_ex} when set, as {@code ibv_devinfo} does; 0 for XDR through a
 * library older than rdma-core 50
 * @param activeWidth the raw {@code active_width} code
 * @since 0.1.0
 */
public record PortAttributes(int port, PortState state, int physicalState, LinkLayer linkLayer, int activeMtu,
		int activeSpeed, int activeWidth) {

	/** {@code phys_port_cnt} and {@code port_num} are 8 bits. */
	public static final int MAX_PORT = 255;

	/**
	 * Return the physical state as sysfs {@code phys_state} names it, or
	 * {@code <unknown>}.
	 */
	public String physicalStateName() {
		return physicalStateName(this.physicalState);
	}

	/**
	 * Return the name the kernel gives a physical state code in sysfs {@code phys_state}.
	 * @param physicalState the raw physical state
	 * @return e.g. {@code LinkUp}, or {@code <unknown>} for a code the kernel does not
	 * name
	 */
	public static String physicalStateName(int physicalState) {
		return switch (physicalState) {
			case 1 -> "Sleep";
			case 2 -> "Polling";
			case 3 -> "Disabled";
			case 4 -> "PortConfigurationTraining";
			case 5 -> "LinkUp";
			case 6 -> "LinkErrorRecovery";
			case 7 -> "Phy Test";
			default -> "<unknown>";
		};
	}

	/** Return the number of lanes, or 0 if unknown. */
	public int lanes() {
		return switch (this.activeWidth) {
			case 1 -> 1;
			case 2 -> 4;
			case 4 -> 8;
			case 8 -> 12;
			case 16 -> 2;
			default -> 0;
		};
	}

	/** Return the signalling rate of one lane in Gb/s, or 0 if unknown. */
	public double laneGbps() {
		return switch (this.activeSpeed) {
			case 1 -> 2.5;
			case 2 -> 5.0;
			case 4, 8 -> 10.0;
			case 16 -> 14.0;
			case 32 -> 25.0;
			case 64 -> 50.0;
			case 128 -> 100.0;
			case 256 -> 200.0;
			default -> 0.0;
		};
	}

	/** Return the port rate in Gb/s, or 0 if unknown. */
	public double rateGbps() {
		return lanes() * laneGbps();
	}

	/**
	 * Return the rate as the kernel prints it in sysfs {@code rate}, e.g.
	 * {@code 100 Gb/sec (4X EDR)}; an unknown speed code shows as SDR, as in the kernel.
	 * @return the rate text, or {@code null} for an unknown width (the kernel fails the
	 * read with {@code EINVAL})
	 */
	public @Nullable String rateText() {
		int lanes = lanes();
		if (lanes == 0) {
			return null;
		}
		String speed = switch (this.activeSpeed) {
			case 2 -> "DDR";
			case 4 -> "QDR";
			case 8 -> "FDR10";
			case 16 -> "FDR";
			case 32 -> "EDR";
			case 64 -> "HDR";
			case 128 -> "NDR";
			case 256 -> "XDR";
			default -> "SDR";
		};
		double laneGbps = (laneGbps() > 0) ? laneGbps() : 2.5;
		int tenths = (int) Math.round(laneGbps * 10) * lanes;
		return (tenths / 10) + ((tenths % 10 != 0) ? ".5" : "") + " Gb/sec (" + lanes + "X " + speed + ")";
	}

}
