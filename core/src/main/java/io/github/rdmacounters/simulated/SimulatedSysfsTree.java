package io.github.rdmacounters.simulated;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.DeviceId;
import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.sysfs.SysfsTree;

/**
 * The {@code /sys/class/infiniband} tree of a simulated backend, laid out like an mlx5
 * device's and generated from the devices' live state on every read.
 */
final class SimulatedSysfsTree implements SysfsTree {

	private static final List<String> DEVICE_ENTRIES = List.of("board_id", "fw_ver", "hca_type", "node_guid",
			"node_type", "ports");

	private final Map<String, SimulatedHardware> devices;

	SimulatedSysfsTree(Map<String, SimulatedHardware> devices) {
		this.devices = devices;
	}

	@Override
	public List<String> list(String path) throws IOException {
		String[] parts = split(path);
		if (parts.length == 0) {
			return this.devices.keySet().stream().sorted().toList();
		}
		SimulatedHardware hardware = hardware(parts, path);
		if (parts.length == 1) {
			return DEVICE_ENTRIES;
		}
		if (parts.length == 3 && "device".equals(parts[1]) && "net".equals(parts[2])
				&& !hardware.spec().netdevs().isEmpty()) {
			return hardware.spec().netdevs();
		}
		if (!"ports".equals(parts[1])) {
			throw notADirectory(path, parts.length == 2 && DEVICE_ENTRIES.contains(parts[1]));
		}
		if (parts.length == 2) {
			List<String> ports = new ArrayList<>();
			for (int port = 1; port <= hardware.portCount(); port++) {
				ports.add(Integer.toString(port));
			}
			return ports;
		}
		int port = port(hardware, parts[2], path);
		if (parts.length == 3) {
			List<String> entries = new ArrayList<>(List.of("counters", "link_layer", "phys_state", "rate", "state"));
			if (hardware.hasHwCounters()) {
				entries.add(1, "hw_counters");
			}
			return entries;
		}
		if (parts.length == 4 && "counters".equals(parts[3])) {
			return SimulatedHardware.PMA_COUNTERS;
		}
		if (parts.length == 5 && "gid_attrs".equals(parts[3]) && "types".equals(parts[4])) {
			return gidTypes(hardware, port).isEmpty() ? List.of() : List.of("0", "1");
		}
		if (parts.length == 4 && "hw_counters".equals(parts[3]) && hardware.hasHwCounters()) {
			return SimulatedHardware.HW_COUNTERS;
		}
		throw notADirectory(path, parts.length == 4 && isPortFile(parts[3]));
	}

	@Override
	public String read(String path) throws IOException {
		String[] parts = split(path);
		if (parts.length == 0) {
			throw new IOException(path + ": Is a directory");
		}
		SimulatedHardware hardware = hardware(parts, path);
		SimulatedDeviceSpec spec = hardware.spec();
		if (parts.length == 2) {
			return switch (parts[1]) {
				case "fw_ver" -> spec.firmwareVersion() + "\n";
				case "board_id" -> spec.boardId() + "\n";
				case "hca_type" -> spec.hcaType() + "\n";
				case "node_guid" -> new DeviceId(spec.name(), spec.nodeGuid()).formattedGuid() + "\n";
				case "node_type" -> "1: CA\n";
				case "ports" -> throw new IOException(path + ": Is a directory");
				default -> throw new NoSuchFileException(path);
			};
		}
		if (parts.length < 4 || !"ports".equals(parts[1])) {
			throw (parts.length == 3 && "ports".equals(parts[1])) ? new IOException(path + ": Is a directory")
					: new NoSuchFileException(path);
		}
		int port = port(hardware, parts[2], path);
		if (parts.length == 4) {
			SimulatedPortSpec current = hardware.port(port);
			return switch (parts[3]) {
				case "state" -> current.state().nativeValue() + ": " + stateName(current.state()) + "\n";
				case "phys_state" ->
					current.physicalState() + ": " + PortAttributes.physicalStateName(current.physicalState()) + "\n";
				case "rate" -> rate(current, path);
				case "link_layer" -> current.linkLayer().sysfsName() + "\n";
				case "counters", "hw_counters" -> throw new IOException(path + ": Is a directory");
				default -> throw new NoSuchFileException(path);
			};
		}
		if (parts.length == 6 && "gid_attrs".equals(parts[3]) && "types".equals(parts[4])) {
			List<String> types = gidTypes(hardware, port);
			int index = "0".equals(parts[5]) ? 0 : "1".equals(parts[5]) ? 1 : -1;
			if (index >= 0 && index < types.size()) {
				return types.get(index) + "\n";
			}
		}
		if (parts.length == 6 && "gid_attrs".equals(parts[3]) && "ndevs".equals(parts[4]) && "0".equals(parts[5])) {
			return gidNetdev(hardware, port, path);
		}
		if (parts.length == 5 && "counters".equals(parts[3])) {
			Long value = hardware.pmaCounter(port, parts[4]);
			if (value != null) {
				return Long.toUnsignedString(value) + "\n";
			}
		}
		if (parts.length == 5 && "hw_counters".equals(parts[3]) && hardware.hasHwCounters()
				&& SimulatedHardware.HW_COUNTERS.contains(parts[4])) {
			// a u64 printed as the kernel prints it ("%llu")
			return Long.toUnsignedString(hardware.hwCounter(port, parts[4])) + "\n";
		}
		throw new NoSuchFileException(path);
	}

	@Override
	public String describe() {
		return "the simulated device's sysfs tree";
	}

	// The types of a port's first two GIDs as print_gid_type shows them
	// (drivers/infiniband/core/sysfs.c): on Ethernet one default GID of each RoCE type;
	// an Ethernet port with RoCE disabled has none
	private static List<String> gidTypes(SimulatedHardware hardware, int port) {
		if (hardware.port(port).linkLayer() != LinkLayer.ETHERNET) {
			return List.of("IB/RoCE v1");
		}
		return hardware.spec().roceEnabled() ? List.of("IB/RoCE v1", "RoCE v2") : List.of();
	}

	// A name that is no PCI address, so the netdevs are listed as SysfsDeviceReader reads
	// them; the driver of a device with flow counters is mlx5's, of one without unknown
	@Override
	public @Nullable String resolvedName(String path) {
		String[] parts = split(path);
		if (parts.length == 3 && "device".equals(parts[1]) && "driver".equals(parts[2])) {
			SimulatedHardware hardware = this.devices.get(parts[0]);
			return (hardware != null && hardware.spec().countersSupported()) ? "mlx5_core" : null;
		}
		if (parts.length == 2 && "device".equals(parts[1])) {
			SimulatedHardware hardware = this.devices.get(parts[0]);
			return (hardware != null && !hardware.spec().netdevs().isEmpty()) ? "simulated" : null;
		}
		return null;
	}

	/**
	 * The netdev of GID 0 of an Ethernet port: the {@code i}-th netdev of the device is
	 * port {@code i + 1}'s, as {@link SimulatedBackend#netdevStatistics()} reads it; the
	 * kernel fails with EINVAL for a GID without a netdev.
	 */
	private static String gidNetdev(SimulatedHardware hardware, int port, String path) throws IOException {
		List<String> netdevs = hardware.spec().netdevs();
		if (hardware.port(port).linkLayer() == LinkLayer.ETHERNET && port <= netdevs.size()) {
			return netdevs.get(port - 1) + "\n";
		}
		throw new IOException(path + ": Invalid argument");
	}

	private static boolean isPortFile(String name) {
		return List.of("state", "phys_state", "rate", "link_layer").contains(name);
	}

	private static String[] split(String path) {
		String trimmed = path.startsWith("/") ? path.substring(1) : path;
		if (trimmed.endsWith("/")) {
			trimmed = trimmed.substring(0, trimmed.length() - 1);
		}
		return trimmed.isEmpty() ? new String[0] : trimmed.split("/");
	}

	private SimulatedHardware hardware(String[] parts, String path) throws NoSuchFileException {
		SimulatedHardware hardware = this.devices.get(parts[0]);
		if (hardware == null) {
			throw new NoSuchFileException(path);
		}
		return hardware;
	}

	private static int port(SimulatedHardware hardware, String text, String path) throws NoSuchFileException {
		try {
			int port = Integer.parseInt(text);
			if (hardware.hasPort(port) && text.equals(Integer.toString(port))) {
				return port;
			}
		}
		catch (NumberFormatException ex) {
			// not a port
		}
		throw new NoSuchFileException(path);
	}

	private static IOException notADirectory(String path, boolean exists) {
		return exists ? new IOException(path + ": Not a directory") : new NoSuchFileException(path);
	}

	static String stateName(PortState state) {
		return state.name();
	}

	private static String rate(SimulatedPortSpec port, String path) throws IOException {
		String rate = port.rateText();
		if (rate == null) {
			// the kernel's rate_show fails with EINVAL for a width it does not know
			throw new IOException(path + ": Invalid argument");
		}
		return rate + "\n";
	}

}
