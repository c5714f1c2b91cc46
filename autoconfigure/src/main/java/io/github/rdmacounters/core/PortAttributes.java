package io.github.rdmacounters.core;

/**
 * What {@code ibv_query_port} reports about a port, as far as this project uses it.
 *
 * @param port the port number, from 1
 * @param state the logical state
 * @param physicalState the raw physical state ({@code 5} is LinkUp)
 * @param linkLayer the link layer
 * @param activeMtu the active MTU in bytes (256 to 4096)
 * @param activeSpeed the raw {@code active_speed} code ({@code active_speed_ex} where the
 * provider fills it)
 * @param activeWidth the raw {@code active_width} code
 */
public record PortAttributes(int port, PortState state, int physicalState, LinkLayer linkLayer, int activeMtu,
		int activeSpeed, int activeWidth) {

	/**
	 * Return the physical state the way sysfs names it, e.g. {@code LinkUp}.
	 * @return the name of the physical state
	 */
	public String physicalStateName() {
		return switch (this.physicalState) {
			case 1 -> "Sleep";
			case 2 -> "Polling";
			case 3 -> "Disabled";
			case 4 -> "PortConfigurationTraining";
			case 5 -> "LinkUp";
			case 6 -> "LinkErrorRecovery";
			case 7 -> "PhyTest";
			default -> "Unknown(" + this.physicalState + ")";
		};
	}

	/**
	 * Return the number of lanes ({@code 1X}, {@code 2X}, {@code 4X}, {@code 8X}, {@code 12X}),
	 * or 0 if unknown.
	 * @return the lane count
	 */
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

	/**
	 * Return the signalling rate of one lane in Gb/s, or 0 if unknown.
	 * @return the lane speed
	 */
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

	/**
	 * Return the port rate in Gb/s (lanes times lane speed), or 0 if unknown.
	 * @return the rate
	 */
	public double rateGbps() {
		return lanes() * laneGbps();
	}

}
