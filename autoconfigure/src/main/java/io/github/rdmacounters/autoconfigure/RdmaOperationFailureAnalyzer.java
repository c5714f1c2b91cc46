package io.github.rdmacounters.autoconfigure;

import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

import io.github.rdmacounters.core.CounterSetCreationException;
import io.github.rdmacounters.core.DeviceStartupException;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.RdmaOperationException;

/**
 * Analyzes a verb that failed at startup, its errno worded by {@link Errno#explain}, with
 * the counter set it was creating and what to change.
 *
 * @author rdma-counters
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class RdmaOperationFailureAnalyzer extends AbstractFailureAnalyzer<RdmaOperationException> {

	private static final Set<String> FLOW_VERBS = Set.of("ibv_create_flow", "ibv_create_qp");

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, RdmaOperationException cause) {
		CounterSetCreationException set = findCause(rootFailure, CounterSetCreationException.class);
		String where = (set != null) ? "Creating counter set '" + set.setName() + "' (rdma.counter-sets."
				+ set.setName() + ") on " + set.deviceName() + " port " + set.port() : "Setting up the RDMA device";
		String setProperty = "rdma.counter-sets." + ((set != null) ? set.setName() : "<set>");
		String flow = (set != null) ? setProperty + ".flow" : "rdma.counter-sets";
		int errno = cause.errno();
		String explanation = Errno.explain(cause.verb(), errno);
		String failed = where + " failed: " + cause.getMessage() + ".";
		String[] analysis = (errno == Errno.EPERM || errno == Errno.EACCES) ? new String[] {
				where + " was not permitted: " + cause.getMessage() + ". For flow counters, "
						+ Errno.explain("ibv_create_flow", errno) + ".",
				"Give the process CAP_NET_RAW: e.g. setcap cap_net_raw+ep on the java binary, AmbientCapabilities="
						+ "CAP_NET_RAW in a systemd unit, or capabilities add [NET_RAW] in a Kubernetes "
						+ "securityContext; or run as root." }
				: explained(explanation, errno, failed, setProperty, flow);
		if (analysis == null && FLOW_VERBS.contains(cause.verb())) {
			analysis = new String[] {
					failed + " The device could not steer the flow: flow counters need a device "
							+ "with managed flow steering and a flow the provider accepts on this port.",
					"Check that the device reports MANAGED_FLOW_STEERING (ibv_devinfo -v) and that the flow under "
							+ flow + " suits the port's link layer; simplify the flow, or remove rdma.counter-sets to "
							+ "keep only the port counters." };
		}
		if (analysis == null) {
			analysis = new String[] { failed, "Check the device and its driver (ibv_devinfo, dmesg) for the reason of "
					+ Errno.name(errno) + " from " + cause.verb() + "." };
		}
		return new FailureAnalysis(analysis[0],
				analysis[1] + " " + DeviceAdvice.startWithout(findCause(rootFailure, DeviceStartupException.class)),
				cause);
	}

	/** The description and action of an errno that {@link Errno#explain} words. */
	private static String @Nullable [] explained(@Nullable String explanation, int errno, String failed,
			String setProperty, String flow) {
		if (explanation == null) {
			return null;
		}
		if (errno == Errno.EOPNOTSUPP || errno == Errno.ENOSYS) {
			return new String[] {
					failed + " The device's provider does not implement flow counters: " + explanation + ".",
					"Set " + setProperty + ".device to an mlx5 device, or remove the set: the port counters "
							+ "of every device are read without sets." };
		}
		if (errno == Errno.EINVAL) {
			return new String[] {
					failed + " The kernel refused the flow, one with dont-trap (the starter's flows): " + explanation
							+ ".",
					"Check the kernel version (uname -r) and run Linux 5.8 or later; if it is, simplify the flow under "
							+ flow + ", or remove rdma.counter-sets to keep only the port counters." };
		}
		if (errno == Errno.ENOMEM) {
			return new String[] { failed + " The NIC could not place the steering rule: " + explanation + ".",
					"Use a lower priority number under " + flow + ".priority, or configure fewer counter sets on "
							+ "this port (other applications' flows share the table)." };
		}
		return null;
	}

}
