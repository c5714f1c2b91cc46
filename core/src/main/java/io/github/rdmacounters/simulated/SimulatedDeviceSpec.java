package io.github.rdmacounters.simulated;

import java.util.ArrayList;
import java.util.List;

import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.core.PortState;

/**
 * The configuration of one simulated device. Defaults model a ConnectX-6 Dx RoCE adapter:
 * {@code sim_mlx5_0}, one active Ethernet port at 100 Gb/s, flow counters and managed
 * flow steering supported. Built with {@link #builder()}.
 *
 * @param name the device name
 * @param nodeGuid the node GUID
 * @param firmwareVersion the firmware version ({@code fw_ver})
 * @param boardId the board id ({@code board_id})
 * @param hcaType the HCA type ({@code hca_type})
 * @param vendorId the vendor id
 * @param vendorPartId the vendor part id
 * @param ports the ports, port 1 first
 * @param countersSupported whether the provider implements flow counters (only mlx5
 * does); without, {@code ibv_create_counters} fails with {@code EOPNOTSUPP}
 * @param managedFlowSteering whether the device reports
 * {@code IBV_DEVICE_MANAGED_FLOW_STEERING}; without, flows cannot be created
 * @param roceEnabled whether RoCE is enabled (mlx5 devlink {@code enable_roce}, the
 * default): then RoCE traffic (RoCEv2's UDP 4791, RoCEv1's Ethernet type 0x8915) on an
 * Ethernet port is taken by the RoCE path, seen by the port counters and
 * {@code hw_counters/} but by no flow
 * @param linuxBefore58 whether the device behaves like Linux before 5.8, where a
 * don't-trap flow with a count action fails with {@code EINVAL}
 * @param netdevs the network interfaces of the device's function, listed in sysfs under
 * {@code device/net}; none by default
 * @since 0.1.0
 */
public record SimulatedDeviceSpec(String name, long nodeGuid, String firmwareVersion, String boardId, String hcaType,
		int vendorId, int vendorPartId, List<SimulatedPortSpec> ports, boolean countersSupported,
		boolean managedFlowSteering, boolean roceEnabled, boolean linuxBefore58, List<String> netdevs) {

	/** The name of the default device. */
	public static final String DEFAULT_NAME = "sim_mlx5_0";

	/**
	 * Check the configuration and copy the ports.
	 * @throws IllegalArgumentException if the name is blank or contains {@code /}, or
	 * there are no ports or more than 255
	 */
	public SimulatedDeviceSpec {
		if (name.isBlank() || name.contains("/")) {
			throw new IllegalArgumentException(
					"Simulated device name must be a non-blank file name, but was '" + name + "'");
		}
		if (ports.isEmpty() || ports.size() > PortAttributes.MAX_PORT) {
			throw new IllegalArgumentException(
					"A simulated device has 1 to " + PortAttributes.MAX_PORT + " ports, but was " + ports.size());
		}
		ports = List.copyOf(ports);
		netdevs = List.copyOf(netdevs);
	}

	/**
	 * Return the default device.
	 * @return the spec of {@code sim_mlx5_0}
	 */
	public static SimulatedDeviceSpec defaults() {
		return builder().build();
	}

	/**
	 * Start a spec from the defaults.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Return the number of ports.
	 * @return the port count
	 */
	public int portCount() {
		return this.ports.size();
	}

	/**
	 * Builder of {@link SimulatedDeviceSpec}.
	 */
	public static final class Builder {

		private String name = DEFAULT_NAME;

		private long nodeGuid = 0x0c42_a103_0065_0f2cL;

		private String firmwareVersion = "22.36.1010";

		private String boardId = "MT_0000000359";

		private String hcaType = "MT4125";

		private int vendorId = 0x02c9;

		private int vendorPartId = 4125;

		private final List<SimulatedPortSpec> ports = new ArrayList<>(List.of(SimulatedPortSpec.activeRoce()));

		private boolean countersSupported = true;

		private boolean managedFlowSteering = true;

		private boolean roceEnabled = true;

		private boolean linuxBefore58;

		private List<String> netdevs = List.of();

		private Builder() {
		}

		/**
		 * Set the device name.
		 * @param name the name
		 * @return this builder
		 */
		public Builder name(String name) {
			this.name = name;
			return this;
		}

		/**
		 * Set the node GUID.
		 * @param nodeGuid the GUID
		 * @return this builder
		 */
		public Builder nodeGuid(long nodeGuid) {
			this.nodeGuid = nodeGuid;
			return this;
		}

		/**
		 * Set the firmware version.
		 * @param firmwareVersion the version
		 * @return this builder
		 */
		public Builder firmwareVersion(String firmwareVersion) {
			this.firmwareVersion = firmwareVersion;
			return this;
		}

		/**
		 * Set the board id.
		 * @param boardId the board id
		 * @return this builder
		 */
		public Builder boardId(String boardId) {
			this.boardId = boardId;
			return this;
		}

		/**
		 * Set the HCA type.
		 * @param hcaType the HCA type
		 * @return this builder
		 */
		public Builder hcaType(String hcaType) {
			this.hcaType = hcaType;
			return this;
		}

		/**
		 * Set the vendor and part ids.
		 * @param vendorId the vendor id
		 * @param vendorPartId the vendor part id
		 * @return this builder
		 */
		public Builder vendor(int vendorId, int vendorPartId) {
			this.vendorId = vendorId;
			this.vendorPartId = vendorPartId;
			return this;
		}

		/**
		 * Set the number of ports; new ports copy the last port's spec.
		 * @param count the port count, 1 to 255
		 * @return this builder
		 */
		public Builder portCount(int count) {
			if (count < 1 || count > PortAttributes.MAX_PORT) {
				throw new IllegalArgumentException(
						"A simulated device has 1 to " + PortAttributes.MAX_PORT + " ports, but was " + count);
			}
			while (this.ports.size() > count) {
				this.ports.remove(this.ports.size() - 1);
			}
			while (this.ports.size() < count) {
				this.ports.add(this.ports.get(this.ports.size() - 1));
			}
			return this;
		}

		/**
		 * Replace the spec of one port.
		 * @param port the port number, from 1
		 * @param spec the spec
		 * @return this builder
		 */
		public Builder port(int port, SimulatedPortSpec spec) {
			checkPort(port);
			this.ports.set(port - 1, spec);
			return this;
		}

		/**
		 * Set the state of one port; its physical state follows.
		 * @param port the port number, from 1
		 * @param state the state
		 * @return this builder
		 */
		public Builder portState(int port, PortState state) {
			checkPort(port);
			this.ports.set(port - 1, this.ports.get(port - 1).withState(state));
			return this;
		}

		/**
		 * Set the link layer of every port.
		 * @param linkLayer the link layer
		 * @return this builder
		 */
		public Builder linkLayer(LinkLayer linkLayer) {
			this.ports.replaceAll((spec) -> spec.withLinkLayer(linkLayer));
			return this;
		}

		/**
		 * Set the speed and width of every port.
		 * @param speed the {@code active_speed} code, e.g. 32 for EDR
		 * @param width the {@code active_width} code, e.g. 2 for 4X
		 * @return this builder
		 */
		public Builder speed(int speed, int width) {
			this.ports.replaceAll((spec) -> spec.withSpeed(speed, width));
			return this;
		}

		/**
		 * Set the active MTU of every port.
		 * @param mtu the MTU in bytes
		 * @return this builder
		 */
		public Builder mtu(int mtu) {
			this.ports.replaceAll((spec) -> spec.withMtu(mtu));
			return this;
		}

		/**
		 * Set whether the provider implements flow counters.
		 * @param countersSupported {@code false} to model a provider other than mlx5
		 * @return this builder
		 */
		public Builder countersSupported(boolean countersSupported) {
			this.countersSupported = countersSupported;
			return this;
		}

		/**
		 * Set whether the device supports managed flow steering.
		 * @param managedFlowSteering {@code false} to make flow creation fail
		 * @return this builder
		 */
		public Builder managedFlowSteering(boolean managedFlowSteering) {
			this.managedFlowSteering = managedFlowSteering;
			return this;
		}

		/**
		 * Set whether RoCE is enabled (the default), like mlx5's devlink
		 * {@code enable_roce}.
		 * @param roceEnabled {@code false} to make RoCE traffic (UDP 4791, Ethernet type
		 * 0x8915) plain Ethernet traffic that flows count
		 * @return this builder
		 */
		public Builder roceEnabled(boolean roceEnabled) {
			this.roceEnabled = roceEnabled;
			return this;
		}

		/**
		 * Set whether the device behaves like Linux before 5.8 (commit 8e14c75c999a),
		 * where a don't-trap flow went through {@code create_dont_trap_rule} without the
		 * count action's data and failed with {@code EINVAL}.
		 * @param linuxBefore58 {@code true} for an old kernel
		 * @return this builder
		 */
		public Builder linuxBefore58(boolean linuxBefore58) {
			this.linuxBefore58 = linuxBefore58;
			return this;
		}

		/**
		 * Give the device network interfaces, as a PCI function with netdevs has.
		 * @param netdevs the interface names, e.g. {@code ens1f0np0}
		 * @return this builder
		 */
		public Builder netdevs(List<String> netdevs) {
			this.netdevs = List.copyOf(netdevs);
			return this;
		}

		private void checkPort(int port) {
			if (port < 1 || port > this.ports.size()) {
				throw new IllegalArgumentException(
						"Port must be 1 to " + this.ports.size() + " (set portCount first), but was " + port);
			}
		}

		/**
		 * Build the spec.
		 * @return the spec
		 */
		public SimulatedDeviceSpec build() {
			return new SimulatedDeviceSpec(this.name, this.nodeGuid, this.firmwareVersion, this.boardId, this.hcaType,
					this.vendorId, this.vendorPartId, this.ports, this.countersSupported, this.managedFlowSteering,
					this.roceEnabled, this.linuxBefore58, this.netdevs);
		}

	}

}
