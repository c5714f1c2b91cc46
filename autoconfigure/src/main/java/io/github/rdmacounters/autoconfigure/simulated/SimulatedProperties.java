package io.github.rdmacounters.autoconfigure.simulated;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.DefaultValue;

import io.github.rdmacounters.core.CounterSetTarget;
import io.github.rdmacounters.core.DeviceDefinition;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException.Problem;
import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;
import io.github.rdmacounters.simulated.SyntheticTraffic.Stream;

/**
 * Settings of the simulated backend ({@code rdma.simulated}).
 *
 * @param devices Simulated devices by name; none means one device sim_mlx5_0 with the
 * defaults.
 * @param traffic Synthetic traffic that matches each counter set's flow on the simulated
 * devices.
 * @since 0.1.0
 * @author rdma-counters
 */
public record SimulatedProperties(@DefaultValue Map<String, Device> devices, @DefaultValue Traffic traffic) {

	/**
	 * Return the simulated devices: those configured, or sim_mlx5_0 with the defaults.
	 * @return the devices by name
	 */
	Map<String, Device> effectiveDevices() {
		return this.devices.isEmpty() ? Map.of(SimulatedDeviceSpec.DEFAULT_NAME, Device.DEFAULT) : this.devices;
	}

	/**
	 * Return what Boot's binder cannot check in these settings, each problem under its
	 * property.
	 * @param counterSets the names of the counter sets of {@code rdma.counter-sets}
	 * @param refused the properties already refused as written, such as a list item where
	 * a map of names is meant
	 * @return the problems, none when the settings are valid
	 */
	public List<Problem> problems(Set<String> counterSets, Set<String> refused) {
		String prefix = "rdma.simulated";
		List<Problem> problems = new ArrayList<>();
		this.devices.forEach((name, device) -> {
			String property = prefix + ".devices." + name;
			if (!DeviceDefinition.isValidName(name)) {
				problems.add(new Problem(property, name,
						"must name the simulated device without '/', at most " + DeviceDefinition.MAX_NAME
								+ " characters as a real one (IB_DEVICE_NAME_MAX), e.g. sim_mlx5_1"));
			}
			if (device.linkLayer() == LinkLayer.UNSPECIFIED) {
				// what old providers report for InfiniBand (rdma-core's
				// ibv_port_attr.link_layer); a simulated device reports the one it is
				// given
				problems
					.add(new Problem(property + ".link-layer", device.linkLayer(), "must be ethernet or infiniband"));
			}
			for (int i = 0; i < device.netdevs().size(); i++) {
				String netdev = device.netdevs().get(i);
				if (netdev == null || !CounterSetTarget.isValidNetdev(netdev.trim()) || netdev.isBlank()) {
					problems.add(new Problem(property + ".netdevs[" + i + "]", (netdev != null) ? netdev : "",
							"must be a network interface name such as ens1f0np0, not blank, at most "
									+ CounterSetTarget.MAX_NETDEV_NAME + " characters (IFNAMSIZ)"));
				}
			}
			if (device.ports() < 1 || device.ports() > PortAttributes.MAX_PORT) {
				problems.add(new Problem(property + ".ports", device.ports(),
						"must be 1 to " + PortAttributes.MAX_PORT + " (ibv_device_attr.phys_port_cnt is 8 bits)"));
			}
		});
		if (this.traffic.interval().compareTo(Duration.ofMillis(1)) < 0
				|| this.traffic.interval().compareTo(Duration.ofMinutes(1)) > 0) {
			problems.add(new Problem(prefix + ".traffic.interval", this.traffic.interval(),
					"must be 1ms to 1m, e.g. 100ms"));
		}
		trafficProblems(prefix + ".traffic", this.traffic.packetsPerSecond(), this.traffic.packetSize(), problems);
		this.traffic.sets().forEach((name, set) -> {
			String property = prefix + ".traffic.sets." + name;
			if (refused.contains(property)) {
				return;
			}
			if (!counterSets.contains(name)) {
				problems.add(new Problem(property, name,
						"must name a counter set of rdma.counter-sets; configured: " + counterSets));
			}
			else {
				trafficProblems(property, set.packetsPerSecond(), set.packetSize(), problems);
			}
		});
		return problems;
	}

	private static void trafficProblems(String prefix, @Nullable Double rate, @Nullable Integer size,
			List<Problem> problems) {
		if (rate != null && (Double.isNaN(rate) || rate < 0 || rate > Stream.MAX_PACKETS_PER_SECOND)) {
			problems.add(new Problem(prefix + ".packets-per-second", rate,
					"must be 0 to " + (long) Stream.MAX_PACKETS_PER_SECOND
							+ " packets per second (each packet is a call into the simulator)"));
		}
		if (size != null && (size < Stream.MIN_PACKET_SIZE || size > Stream.MAX_PACKET_SIZE)) {
			problems.add(new Problem(prefix + ".packet-size", size, "must be " + Stream.MIN_PACKET_SIZE + " to "
					+ Stream.MAX_PACKET_SIZE + " bytes, a frame from the Ethernet minimum to a jumbo frame"));
		}
	}

	/**
	 * One simulated device of rdma.simulated.devices.
	 *
	 * @param ports Number of ports of the device.
	 * @param linkLayer Link layer of the device's ports.
	 * @param countersSupported Whether the device implements flow counters, as only mlx5
	 * devices do.
	 * @param roceEnabled Whether RoCE is enabled on the device.
	 * @param managedFlowSteering Whether the device supports managed flow steering, which
	 * flows need.
	 * @param netdevs Network interfaces of the device, as sysfs lists them under
	 * device/net.
	 */
	public record Device(@DefaultValue("1") int ports, @DefaultValue("ETHERNET") LinkLayer linkLayer,
			@DefaultValue("true") boolean countersSupported, @DefaultValue("true") boolean roceEnabled,
			@DefaultValue("true") boolean managedFlowSteering, @DefaultValue List<String> netdevs) {

		static final Device DEFAULT = new Device(1, LinkLayer.ETHERNET, true, true, true, List.of());

	}

	/**
	 * Synthetic traffic that matches each counter set's flow on the simulated devices.
	 *
	 * @param enabled Whether to deliver synthetic traffic to the simulated devices.
	 * @param interval How often the packets the rates owe are delivered.
	 * @param packetsPerSecond Packets per second delivered to each counter set's flow.
	 * @param packetSize Frame length in bytes of each packet, 60 to 9000.
	 * @param sets Rate and packet size by counter set name, overriding the ones above.
	 */
	public record Traffic(@DefaultValue("false") boolean enabled, @DefaultValue("100ms") Duration interval,
			@DefaultValue("100") double packetsPerSecond, @DefaultValue("1024") int packetSize,
			@DefaultValue Map<String, SetTraffic> sets) {

	}

	/**
	 * Synthetic traffic of one counter set.
	 *
	 * @param packetsPerSecond Packets per second delivered to the set's flow.
	 * @param packetSize Frame length in bytes of each packet, 60 to 9000.
	 */
	public record SetTraffic(@Nullable Double packetsPerSecond, @Nullable Integer packetSize) {

	}

}
