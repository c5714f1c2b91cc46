package io.github.rdmacounters.diagnosis;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.HostPortCountersSnapshot;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.sysfs.SysfsHostPortCountersSource;
import io.github.rdmacounters.sysfs.SysfsPortCountersSource;
import io.github.rdmacounters.sysfs.SysfsTree;

/**
 * Reads every device of a sysfs tree as the port counters do
 * ({@link SysfsHostPortCountersSource}), each file with a deadline, and adds what only
 * the diagnosis needs: the driver, the node type, the GID types of each port and why each
 * unreadable counter file failed.
 */
final class SysfsCollector {

	private SysfsCollector() {
	}

	static List<SysfsDevice> collect(SysfsTree tree, Duration timeout) {
		try (TimedSysfsTree timed = new TimedSysfsTree(tree, timeout)) {
			HostPortCountersSnapshot host = new SysfsHostPortCountersSource(timed, (device) -> true, (counter) -> true,
					Duration.ZERO, Clock.systemUTC())
				.snapshot();
			List<SysfsDevice> devices = new ArrayList<>();
			for (PortCountersSnapshot device : host.devices()) {
				String name = device.deviceName();
				Map<Integer, List<String>> gidTypes = new LinkedHashMap<>();
				Map<Integer, CounterFilesReport> files = new LinkedHashMap<>();
				for (PortStatus port : device.ports()) {
					String base = name + "/ports/" + port.port() + "/";
					gidTypes.put(port.port(), gidTypes(timed, base + "gid_attrs/types"));
					files.put(port.port(), counterFiles(timed, base, port));
				}
				devices.add(new SysfsDevice(device, timed.resolvedName(name + "/device/driver"),
						readOrNull(timed, name + "/node_type"), gidTypes, files));
			}
			return devices;
		}
	}

	// The types of the port's GID table entries as ib_cache_gid_type_str names them
	// ("IB/RoCE v1", "RoCE v2"); unused entries fail to read (_show_port_gid_attr and
	// print_gid_type in drivers/infiniband/core/sysfs.c)
	private static List<String> gidTypes(SysfsTree tree, String directory) {
		Set<String> types = new LinkedHashSet<>();
		List<String> entries;
		try {
			entries = tree.list(directory);
		}
		catch (IOException | RuntimeException ex) {
			return List.of();
		}
		for (String entry : entries) {
			String type = readOrNull(tree, directory + "/" + entry);
			if (type != null && !type.isEmpty()) {
				types.add(type);
			}
		}
		return List.copyOf(types);
	}

	private static CounterFilesReport counterFiles(TimedSysfsTree tree, String base, PortStatus port) {
		List<String> invalid = new ArrayList<>();
		List<String> timedOut = new ArrayList<>();
		List<String> other = new ArrayList<>();
		for (String file : port.unreadable()) {
			int slash = file.indexOf('/');
			if (slash < 0 || !SysfsPortCountersSource.GROUPS.contains(file.substring(0, slash))) {
				continue;
			}
			String failure = tree.failure(base + file);
			if (TimedSysfsTree.INVALID_ARGUMENT.equals(failure)) {
				invalid.add(file);
			}
			else if (TimedSysfsTree.TIMED_OUT.equals(failure)) {
				timedOut.add(file);
			}
			else {
				other.add(file + ": " + ((failure != null) ? failure : "not a 64-bit count"));
			}
		}
		return new CounterFilesReport(port.counters().size(), invalid, timedOut, other);
	}

	private static @Nullable String readOrNull(SysfsTree tree, String path) {
		try {
			return tree.read(path).trim();
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * A device as sysfs shows it.
	 *
	 * @param snapshot its port counters snapshot: firmware, identity, ports, counters
	 * @param driver the driver of its PCI function, or {@code null}
	 * @param nodeType its node type, or {@code null}
	 * @param gidTypes the GID types of each port
	 * @param counterFiles how the counter files of each port read
	 */
	record SysfsDevice(PortCountersSnapshot snapshot, @Nullable String driver, @Nullable String nodeType,
			Map<Integer, List<String>> gidTypes, Map<Integer, CounterFilesReport> counterFiles) {

	}

}
