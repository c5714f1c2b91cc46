package io.github.rdmacounters.autoconfigure;

import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

import io.github.rdmacounters.core.CounterSetCreationException;
import io.github.rdmacounters.core.DeviceNotFoundException;
import io.github.rdmacounters.core.DeviceStartupException;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException.Problem;
import io.github.rdmacounters.core.NoUniqueRdmaDeviceException;
import io.github.rdmacounters.core.RdmaException;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.core.RdmaUnavailableException;

/**
 * Analyzes a failed RDMA startup: a device not found or not unique, an invalid
 * configuration, a verb that failed (its errno worded by {@link Errno#explain}), or
 * libibverbs or the kernel's RDMA stack missing.
 *
 * @author rdma-counters
 */
class RdmaFailureAnalyzer extends AbstractFailureAnalyzer<RdmaException> {

	private static final Set<String> FLOW_VERBS = Set.of("ibv_create_flow", "ibv_create_qp");

	static final String SIMULATED = "To develop without RDMA hardware, set rdma.backend=simulated.";

	static final String NO_DEVICE = "Check that the NIC's RDMA driver is loaded and the device is visible to this "
			+ "process (ibv_devices lists it; e.g. modprobe mlx5_ib for NVIDIA/Mellanox ConnectX, or modprobe "
			+ "rdma_rxe and 'rdma link add rxe0 type rxe netdev eth0' for a software RoCE device; in a container, "
			+ "pass the /dev/infiniband devices). " + SIMULATED + " To start without the device and report it "
			+ "through health instead, set rdma.devices.<device>.fail-on-unavailable=false, or "
			+ "rdma.fail-on-unavailable=false for every device.";

	private final Environment environment;

	RdmaFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, RdmaException cause) {
		DeviceStartupException startup = findCause(rootFailure, DeviceStartupException.class);
		DeviceNotFoundException notFound = findCause(rootFailure, DeviceNotFoundException.class);
		InvalidRdmaConfigurationException invalid = findCause(rootFailure, InvalidRdmaConfigurationException.class);
		NoUniqueRdmaDeviceException notUnique = findCause(rootFailure, NoUniqueRdmaDeviceException.class);
		RdmaOperationException operation = findCause(rootFailure, RdmaOperationException.class);
		RdmaUnavailableException unavailable = findCause(rootFailure, RdmaUnavailableException.class);
		if (notFound != null) {
			return deviceNotFound(notFound, startup);
		}
		if (invalid != null) {
			return invalidConfiguration(invalid);
		}
		if (notUnique != null) {
			return noUniqueDevice(notUnique);
		}
		if (operation != null) {
			return operationFailed(operation, findCause(rootFailure, CounterSetCreationException.class), startup);
		}
		return (unavailable != null) ? unavailable(unavailable, startup) : null;
	}

	private static FailureAnalysis deviceNotFound(DeviceNotFoundException cause,
			@Nullable DeviceStartupException startup) {
		String found = cause.available().isEmpty() ? "none" : String.join(", ", cause.available());
		String sets = (startup != null) ? String.join(", ", startup.sets()) : "a counter set";
		String description = "The RDMA device '" + cause.deviceName() + "' that " + sets
				+ " counts on was not found. Devices found: " + found + ".";
		if (cause.available().isEmpty()) {
			return new FailureAnalysis(description, NO_DEVICE, cause);
		}
		return new FailureAnalysis(description, "Set the device of " + sets + " to one of the devices found (" + found
				+ "), or name it by its network interface (netdev). " + startWithout(startup), cause);
	}

	private FailureAnalysis invalidConfiguration(InvalidRdmaConfigurationException cause) {
		StringBuilder description = new StringBuilder("Invalid RDMA configuration:\n");
		for (Problem problem : cause.problems()) {
			description.append("\n    Property: ").append(problem.property());
			description.append("\n    Value: ")
				.append((problem.value() != null) ? "\"" + problem.value() + "\"" : "(not set)");
			ConfigurationProperty written = Problems.find(this.environment,
					ConfigurationPropertyName.adapt(problem.property(), '.'));
			if (written != null && written.getOrigin() != null) {
				description.append("\n    Origin: ").append(written.getOrigin());
			}
			description.append("\n    Reason: ").append(problem.requirement()).append('\n');
		}
		return new FailureAnalysis(description.toString(),
				"Update the rdma properties of your application's configuration as each reason says.", cause);
	}

	private static FailureAnalysis noUniqueDevice(NoUniqueRdmaDeviceException cause) {
		if (cause.devices().isEmpty()) {
			return new FailureAnalysis(cause.getMessage() + ".", NO_DEVICE, cause);
		}
		String action = "Set " + cause.property() + ".device to the device to count on, e.g. " + cause.property()
				+ ".device=" + cause.devices().get(0) + " (one of " + String.join(", ", cause.devices()) + "), or "
				+ cause.property() + ".netdev to its network interface.";
		return new FailureAnalysis(cause.getMessage() + ".", action, cause);
	}

	private static FailureAnalysis operationFailed(RdmaOperationException cause,
			@Nullable CounterSetCreationException set, @Nullable DeviceStartupException startup) {
		String startWithout = startWithout(startup);
		String where = (set != null) ? "Creating counter set '" + set.setName() + "' (rdma.counter-sets."
				+ set.setName() + ") on " + set.deviceName() + " port " + set.port() : "Setting up the RDMA device";
		String setProperty = (set != null) ? "rdma.counter-sets." + set.setName() : "rdma.counter-sets.<set>";
		String flowProperty = (set != null) ? setProperty + ".flow" : "rdma.counter-sets";
		int errno = cause.errno();
		String explanation = Errno.explain(cause.verb(), errno);
		if (errno == Errno.EPERM || errno == Errno.EACCES) {
			return new FailureAnalysis(
					where + " was not permitted: " + cause.getMessage() + ". For flow counters, "
							+ Errno.explain("ibv_create_flow", errno) + ".",
					"Give the process CAP_NET_RAW: e.g. setcap cap_net_raw+ep on the java binary, "
							+ "AmbientCapabilities=CAP_NET_RAW in a systemd unit, or capabilities add [NET_RAW] in "
							+ "a Kubernetes securityContext; or run as root. " + startWithout,
					cause);
		}
		if (explanation != null && (errno == Errno.EOPNOTSUPP || errno == Errno.ENOSYS)) {
			return new FailureAnalysis(
					where + " failed: " + cause.getMessage()
							+ ". The device's provider does not implement flow counters: " + explanation + ".",
					"Set " + setProperty + ".device to an mlx5 device, or remove the set: the port counters of every "
							+ "device are read without sets. " + startWithout,
					cause);
		}
		if (explanation != null && errno == Errno.EINVAL) {
			return new FailureAnalysis(where + " failed: " + cause.getMessage()
					+ ". The kernel refused the flow, one with dont-trap (the starter's flows): " + explanation + ".",
					"Check the kernel version (uname -r) and run Linux 5.8 or later; if it is, simplify the flow under "
							+ flowProperty + " (EINVAL also means specs the provider does not accept), or "
							+ "remove rdma.counter-sets to keep only the port counters. " + startWithout,
					cause);
		}
		if (explanation != null && errno == Errno.ENOMEM) {
			return new FailureAnalysis(
					where + " failed: " + cause.getMessage() + ". The NIC could not place the steering rule: "
							+ explanation + ".",
					"Use a lower priority number under " + flowProperty + ".priority, or configure fewer counter "
							+ "sets on this port (other applications' flows share the table). " + startWithout,
					cause);
		}
		if (FLOW_VERBS.contains(cause.verb())) {
			return new FailureAnalysis(
					where + " failed: " + cause.getMessage()
							+ ". The device could not steer the flow: flow counters need a device with managed flow "
							+ "steering and a flow the provider accepts on this port.",
					"Check that the device reports MANAGED_FLOW_STEERING (ibv_devinfo -v) and that the flow under "
							+ flowProperty
							+ " suits the port's link layer (Ethernet and IP fields need a RoCE port); simplify the "
							+ "flow, or remove rdma.counter-sets to keep only the port counters. " + startWithout,
					cause);
		}
		return new FailureAnalysis(where + " failed: " + cause.getMessage() + ".",
				"Check the device and its driver (ibv_devinfo, dmesg) for the reason of " + Errno.name(errno) + " from "
						+ cause.verb() + ". " + startWithout,
				cause);
	}

	private static FailureAnalysis unavailable(RdmaUnavailableException cause,
			@Nullable DeviceStartupException startup) {
		String sets = (startup != null) ? "RDMA device " + ((startup.device() != null) ? startup.device() : "(any)")
				+ " of " + String.join(", ", startup.sets()) + " could not be started. " : "";
		String message = Objects.requireNonNullElse(cause.getMessage(), "(no message)");
		int end = message.indexOf('\n');
		String firstLine = (end < 0) ? message : message.substring(0, end).stripTrailing() + " ...";
		return switch (cause.reason()) {
			case LIBRARY_NOT_LOADABLE -> new FailureAnalysis(
					sets + "The RDMA library libibverbs could not be loaded: " + firstLine,
					"Install the libibverbs runtime (package libibverbs1 on Debian and Ubuntu, rdma-core on Fedora, "
							+ "RHEL and SUSE), or set rdma.native.library to the name or path of the library if it "
							+ "is installed elsewhere. " + SIMULATED + " " + startWithout(startup),
					cause);
			case NO_KERNEL_STACK ->
				new FailureAnalysis(sets + "The kernel has no RDMA stack, so listing RDMA devices failed: " + firstLine,
						"Load the RDMA kernel modules (ib_uverbs and the NIC's driver, e.g. modprobe mlx5_ib for "
								+ "NVIDIA/Mellanox ConnectX, or modprobe rdma_rxe for a software RoCE device); in a "
								+ "container, run on a host that has them and pass /dev/infiniband. " + SIMULATED + " "
								+ startWithout(startup),
						cause);
		};
	}

	/** How to start without the device of a startup failure, if known. */
	private static String startWithout(@Nullable DeviceStartupException startup) {
		String device = (startup != null) ? startup.device() : null;
		if (startup == null) {
			return "To start without the device and report it through health instead, set "
					+ "rdma.devices.<device>.fail-on-unavailable=false, or rdma.fail-on-unavailable=false for every "
					+ "device.";
		}
		return "To start without it and report it through health instead, set "
				+ ((device != null) ? "rdma.devices." + device + ".fail-on-unavailable=false (or " : "(")
				+ "rdma.fail-on-unavailable=false for every device).";
	}

}
