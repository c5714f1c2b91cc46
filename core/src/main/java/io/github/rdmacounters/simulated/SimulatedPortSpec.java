package io.github.rdmacounters.simulated;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.core.PortState;

/**
 * The initial configuration of one simulated port.
 *
 * @param state the logical state
 * @param physicalState the physical state code ({@code 5} is LinkUp)
 * @param linkLayer the link layer ({@link LinkLayer#ETHERNET} is RoCE)
 * @param activeMtu the active MTU in bytes
 * @param activeSpeed the {@code active_speed} code
 * @param activeWidth the {@code active_width} code
 * @since 0.1.0
 */
public record SimulatedPortSpec(PortState state, int physicalState, LinkLayer linkLayer, int activeMtu, int activeSpeed,
		int activeWidth) {

	public static final int PHYS_LINK_UP = 5;

	public static final int PHYS_DISABLED = 3;

	public static final int PHYS_POLLING = 2;

	public static final int SPEED_EDR = 32;

	public static final int WIDTH_4X = 2;

	public SimulatedPortSpec {
		if (activeMtu != 256 && activeMtu != 512 && activeMtu != 1024 && activeMtu != 2048 && activeMtu != 4096) {
			throw new IllegalArgumentException(
					"Active MTU must be 256, 512, 1024, 2048 or 4096 bytes, but was " + activeMtu);
		}
		if (physicalState < 0 || physicalState > 7) {
			throw new IllegalArgumentException("Physical state must be 0 to 7, but was " + physicalState);
		}
	}

	/** Return an active RoCE port at 100 Gb/s (4X EDR) with a 4096-byte MTU. */
	public static SimulatedPortSpec activeRoce() {
		return new SimulatedPortSpec(PortState.ACTIVE, PHYS_LINK_UP, LinkLayer.ETHERNET, 4096, SPEED_EDR, WIDTH_4X);
	}

	/** Return an active InfiniBand port at 100 Gb/s (4X EDR) with a 4096-byte MTU. */
	public static SimulatedPortSpec activeInfiniBand() {
		return new SimulatedPortSpec(PortState.ACTIVE, PHYS_LINK_UP, LinkLayer.INFINIBAND, 4096, SPEED_EDR, WIDTH_4X);
	}

	/**
	 * Return a copy in another state; the physical state follows.
	 * @param newState the state
	 * @return the port spec
	 */
	public SimulatedPortSpec withState(PortState newState) {
		return new SimulatedPortSpec(newState, physicalStateOf(newState), this.linkLayer, this.activeMtu,
				this.activeSpeed, this.activeWidth);
	}

	public SimulatedPortSpec withLinkLayer(LinkLayer newLinkLayer) {
		return new SimulatedPortSpec(this.state, this.physicalState, newLinkLayer, this.activeMtu, this.activeSpeed,
				this.activeWidth);
	}

	public SimulatedPortSpec withSpeed(int speed, int width) {
		return new SimulatedPortSpec(this.state, this.physicalState, this.linkLayer, this.activeMtu, speed, width);
	}

	public SimulatedPortSpec withMtu(int mtu) {
		return new SimulatedPortSpec(this.state, this.physicalState, this.linkLayer, mtu, this.activeSpeed,
				this.activeWidth);
	}

	static int physicalStateOf(PortState state) {
		return (state == PortState.DOWN || state == PortState.NOP) ? PHYS_DISABLED : PHYS_LINK_UP;
	}

	PortAttributes toAttributes(int port) {
		return new PortAttributes(port, this.state, this.physicalState, this.linkLayer, this.activeMtu,
				this.activeSpeed, this.activeWidth);
	}

	public @Nullable String rateText() {
		return toAttributes(1).rateText();
	}

}
