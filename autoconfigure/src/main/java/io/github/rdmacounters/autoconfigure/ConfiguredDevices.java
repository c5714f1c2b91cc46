package io.github.rdmacounters.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.rdmacounters.core.DeviceDefinition;
import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaException;

/**
 * Checks the devices named in {@code rdma.devices} against those of the host at startup:
 * a device the host does not have fails startup where its
 * {@code fail-on-unavailable=true} asks for that, and is warned about once otherwise (a
 * typo in the name would quietly apply the options to nothing).
 *
 * @author rdma-counters
 */
final class ConfiguredDevices {

	private static final Log logger = LogFactory.getLog(ConfiguredDevices.class);

	/** How many of the host's names a warning offers. */
	private static final int CLOSEST = 3;

	private ConfiguredDevices() {
	}

	/**
	 * Check the devices of {@code rdma.devices}.
	 * @param properties the bound properties
	 * @param backend the backend that lists the host's devices
	 * @param namedBySets the devices that counter sets name, which their own startup
	 * checks
	 * @throws ConfiguredDeviceMissingException for a missing device whose
	 * {@code fail-on-unavailable} is {@code true}
	 */
	static void check(RdmaProperties properties, RdmaBackend backend, Set<String> namedBySets) {
		List<String> configured = properties.devices()
			.keySet()
			.stream()
			.filter((name) -> DeviceDefinition.isValidName(name) && !namedBySets.contains(name))
			.toList();
		if (configured.isEmpty()) {
			return;
		}
		Set<String> found = new TreeSet<>();
		try {
			backend.devices().forEach((device) -> found.add(device.name()));
			// and those sysfs lists that libibverbs does not (no uverbs device): the
			// device is there, its failure to open is reported as such
			found.addAll(
					backend
						.hostPortCounters(Path.of(properties.portCounters().sysfsRoot()), (device) -> true,
								(counter) -> false, Duration.ZERO, properties.readDeadline())
						.deviceNames());
		}
		catch (RdmaException | LinkageError ex) {
			// no device list (e.g. no libibverbs): what the devices' users report
			logger.debug("Cannot list the host's RDMA devices to check rdma.devices", ex);
			return;
		}
		List<String> host = List.copyOf(found);
		for (String device : configured) {
			if (host.contains(device)) {
				continue;
			}
			List<String> closest = NameFilter.closest(device, host, CLOSEST);
			RdmaProperties.Device options = properties.devices().get(device);
			if (options != null && Boolean.TRUE.equals(options.failOnUnavailable())) {
				throw new ConfiguredDeviceMissingException(device, host, closest);
			}
			logger.warn(ConfiguredDeviceMissingException.property(device) + "="
					+ ((options != null) ? options.failOnUnavailable() : null)
					+ " names an RDMA device this host does not have (devices found: "
					+ (host.isEmpty() ? "none" : String.join(", ", host))
					+ (closest.isEmpty() ? "" : "; closest: " + String.join(", ", closest))
					+ "), so it has no effect; correct the device name, or remove rdma.devices." + device);
		}
	}

}
