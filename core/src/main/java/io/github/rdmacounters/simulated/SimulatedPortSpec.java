package io.github.rdmacounters.simulated;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.core.PortState;

/**
 * The initial configuration of one simulated port.
 *
 * @param state the logical state
 * @param physicalState the physical state code ({@code 5} is LinkUp, {@code 3} Disabled)
 * @param linkLayer the link layer ({@link LinkLayer#ETHERNET} is RoCE)
 * @param activeMtu the active MTU in bytes (256, 512, 1024, 2048 or 4096)
 * @param activeSpeed the {@code active_speed} code (1 SDR, 2 DDR, 4 QDR, 8 FDR10, 16 FDR,
 * 32 EDR, 64 HDR, 128 NDR, 256 XDR)
 * @param activeWidth the {@code active_width} code (1 is 1X, 2 is 4X, 4 is 8X, 8 is 12X,
 * 16 is 2X)
 * @since 0.1.0
 */
public record SimulatedPortSpec(PortState state, int physicalState, LinkLayer linkLayer, int activeMtu, int activeSpeed,
		int activeWidth) {

	/** Physical state code of a port whose link is up. */
	public static final int PHYS_LINK_UP = 5;

	/** Physical state code of a disabled port. */
	public static final int PHYS_DISABLED = 3;

	/** Physical state code of a port polling for a link. */
	public static final int PHYS_POLLING = 2;

	/** {@code active_speed} code of EDR (25 Gb/s per lane). */
	public static final int SPEED_EDR = 32;

	/** {@code active_width} code of 4X. */
	public static final int WIDTH_4X = 2;

	/**
	 * Check the configuration.
	 * @throws IllegalArgumentException if the MTU is not 256, 512, 1024, 2048 or 4096
	 * bytes, or the physical state code is outside 0 to 7
	 */
	public SimulatedPortSpec {
		if (activeMtu != 256 && activeMtu != 512 && activeMtu != 1024 && activeMtu != 2048 && activeMtu != 4096) {
			throw new IllegalArgumentException(
					"Active MTU must be 256, 512, 1024, 2048 or 4096 bytes, but was " + activeMtu);
		}
		if (physicalState < 0 || physicalState > 7) {
			throw new IllegalArgumentException("Physical state must be 0 to 7, but was " + physicalState);
		}
	}

	/**
	 * Return an active RoCE port at 100 Gb/s (4X EDR) with a 4096-byte MTU.
	 * @return the port spec
	 */
	public static SimulatedPortSpec activeRoce() {
		return new SimulatedPortSpec(PortState.ACTIVE, PHYS_LINK_UP, LinkLayer.ETHERNET, 4096, SPEED_EDR, WIDTH_4X);
	}

	/**
	 * Return an active InfiniBand port at 100 Gb/s (4X EDR) with a 4096-byte MTU.
	 * @return the port spec
	 */
	public static SimulatedPortSpec activeInfiniBand() {
		return new SimulatedPortSpec(PortState.ACTIVE, PHYS_LINK_UP, LinkLayer.INFINIBAND, 4096, SPEED_EDR, WIDTH_4X);
	}

	/**
	 * Return a copy in another state; the physical state follows ({@code LinkUp} unless
	 * the state is {@code DOWN} or {@code NOP}, then {@code Disabled}).
	 * @param newState the state
	 * @return the port spec
	 */
	public SimulatedPortSpec withState(PortState newState) {
		return new SimulatedPortSpec(newState, physicalStateOf(newState), this.linkLayer, this.activeMtu,
				this.activeSpeed, this.activeWidth);
	}

	/**
	 * Return a copy with another link layer.
	 * @param newLinkLayer the link layer
	 * @return the port spec
	 */
	public SimulatedPortSpec withLinkLayer(LinkLayer newLinkLayer) {
		return new SimulatedPortSpec(this.state, this.physicalState, newLinkLayer, this.activeMtu, this.activeSpeed,
				this.activeWidth);
	}

	/**
	 * Return a copy with another speed and width.
	 * @param speed the {@code active_speed} code
	 * @param width the {@code active_width} code
	 * @return the port spec
	 */
	public SimulatedPortSpec withSpeed(int speed, int width) {
		return new SimulatedPortSpec(this.state, this.physicalState, this.linkLayer, this.activeMtu, speed, width);
	}

	/**
	 * Return a copy with another active MTU.
	 * @param mtu the MTU in bytes
	 * @return the port spec
	 */
	public SimulatedPortSpec withMtu(int mtu) {
		return new SimulatedPortSpec(this.state, this.physicalState, this.linkLayer, mtu, this.activeSpeed,
				this.activeWidth);
	}

	static int physicalStateOf(PortState state) {
		return (state == PortState.DOWN || state == PortState.NOP) ? PHYS_DISABLED : PHYS_LINK_UP;
	}

	/**
	 * Return what {@code ibv_query_port} reports for this port.
	 * @param port the port number, from 1
	 * @return the port attributes
	 */
	PortAttributes toAttributes(int port) {
		return new PortAttributes(port, this.state, this.physicalState, this.linkLayer, this.activeMtu,
				this.activeSpeed, this.activeWidth);
	}

	/**
	 * Return the rate the way sysfs prints it, e.g. {@code 100 Gb/sec (4X EDR)}.
	 * @return the rate text, or {@code null} if the width code is unknown
	 * @see PortAttributes#rateText()
	 */
	public @Nullable String rateText() {
		return toAttributes(1).rateText();
	}

}
