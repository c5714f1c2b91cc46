package io.github.rdmacounters.autoconfigure;

import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import io.github.rdmacounters.core.CounterSetCreationException;
import io.github.rdmacounters.core.DeviceStartupException;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.RdmaOperationException;

/**
 * Analyzes {@link RdmaOperationException}: a verb failed while a device or counter set
 * was set up. Causes are worded by {@link Errno#explain(String, int)}.
 *
 * @author rdma-counters
 */
class RdmaOperationFailureAnalyzer extends AbstractFailureAnalyzer<RdmaOperationException> {

	private static final Set<String> FLOW_VERBS = Set.of("ibv_create_flow", "ibv_create_qp");

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, RdmaOperationException cause) {
		CounterSetCreationException set = findCause(rootFailure, CounterSetCreationException.class);
		DeviceStartupException startup = findCause(rootFailure, DeviceStartupException.class);
		String startWithout = RdmaFailureActions.startWithout(startup);
		String where = where(set);
		int errno = cause.errno();
		String verb = cause.verb();
		String explanation = Errno.explain(verb, errno);
		if (errno == Errno.EPERM || errno == Errno.EACCES) {
			return new FailureAnalysis(
					where + " was not permitted: " + cause.getMessage() + ". For flow counters, "
							+ sentence(Errno.explain("ibv_create_flow", errno)),
					"Give the process CAP_NET_RAW: e.g. setcap cap_net_raw+ep on the java binary, "
							+ "AmbientCapabilities=CAP_NET_RAW in a systemd unit, or capabilities add [NET_RAW] in "
							+ "a Kubernetes securityContext; or run as root. " + startWithout,
					cause);
		}
		if (explanation != null && (errno == Errno.EOPNOTSUPP || errno == Errno.ENOSYS)) {
			return new FailureAnalysis(
					where + " failed: " + cause.getMessage()
							+ ". The device's provider does not implement flow counters: " + sentence(explanation),
					"Set " + setProperty(set) + ".device to an mlx5 device, or remove the set: the port counters "
							+ "of every device are read without sets. " + startWithout,
					cause);
		}
		if (explanation != null && errno == Errno.EINVAL) {
			return new FailureAnalysis(
					where + " failed: " + cause.getMessage()
							+ ". The kernel refused the flow, one with dont-trap (the starter's flows): "
							+ sentence(explanation),
					"Check the kernel version (uname -r) and run Linux 5.8 or later; if it is, simplify the flow under "
							+ flowProperty(set) + " (EINVAL also means specs the provider does not accept), or "
							+ "remove rdma.counter-sets to keep only the port counters. " + startWithout,
					cause);
		}
		if (explanation != null && errno == Errno.ENOMEM) {
			return new FailureAnalysis(
					where + " failed: " + cause.getMessage() + ". The NIC could not place the steering rule: "
							+ sentence(explanation),
					"Use a lower priority number under " + flowProperty(set) + ".priority, or configure fewer counter "
							+ "sets on this port (other applications' flows share the table). " + startWithout,
					cause);
		}
		if (FLOW_VERBS.contains(verb)) {
			return new FailureAnalysis(
					where + " failed: " + cause.getMessage()
							+ ". The device could not steer the flow: flow counters need a device with managed flow "
							+ "steering and a flow the provider accepts on this port.",
					"Check that the device reports MANAGED_FLOW_STEERING (ibv_devinfo -v) and that the flow under "
							+ flowProperty(set)
							+ " suits the port's link layer (Ethernet and IP fields need a RoCE port); simplify the "
							+ "flow, or remove rdma.counter-sets to keep only the port counters. " + startWithout,
					cause);
		}
		return new FailureAnalysis(where + " failed: " + cause.getMessage() + ".",
				"Check the device and its driver (ibv_devinfo, dmesg) for the reason of " + Errno.name(errno) + " from "
						+ verb + ". " + startWithout,
				cause);
	}

	private static String sentence(@Nullable String explanation) {
		return explanation + ".";
	}

	private static String flowProperty(@Nullable CounterSetCreationException set) {
		return (set != null) ? setProperty(set) + ".flow" : "rdma.counter-sets";
	}

	private static String setProperty(@Nullable CounterSetCreationException set) {
		return (set != null) ? "rdma.counter-sets." + set.setName() : "rdma.counter-sets.<set>";
	}

	private static String where(@Nullable CounterSetCreationException set) {
		if (set == null) {
			return "Setting up the RDMA device";
		}
		return "Creating counter set '" + set.setName() + "' (rdma.counter-sets." + set.setName() + ") on "
				+ set.deviceName() + " port " + set.port();
	}

}
