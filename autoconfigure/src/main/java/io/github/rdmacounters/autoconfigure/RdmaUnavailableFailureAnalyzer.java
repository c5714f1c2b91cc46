package io.github.rdmacounters.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import io.github.rdmacounters.core.DeviceStartupException;
import io.github.rdmacounters.core.RdmaUnavailableException;

/**
 * Analyzes {@link RdmaUnavailableException}: libibverbs cannot be loaded, or the kernel
 * has no RDMA stack.
 *
 * @author rdma-counters
 */
class RdmaUnavailableFailureAnalyzer extends AbstractFailureAnalyzer<RdmaUnavailableException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, RdmaUnavailableException cause) {
		DeviceStartupException startup = findCause(rootFailure, DeviceStartupException.class);
		String sets = (startup != null) ? "RDMA device " + ((startup.device() != null) ? startup.device() : "(any)")
				+ " of " + String.join(", ", startup.sets()) + " could not be started. " : "";
		String startWithout = RdmaFailureActions.startWithout(startup);
		return switch (cause.reason()) {
			case LIBRARY_NOT_LOADABLE -> new FailureAnalysis(
					sets + "The RDMA library libibverbs could not be loaded: " + firstLine(cause.getMessage()),
					"Install the libibverbs runtime (package libibverbs1 on Debian and Ubuntu, rdma-core on Fedora, "
							+ "RHEL and SUSE), or set rdma.native.library to the name or path of the library if it "
							+ "is installed elsewhere. " + RdmaFailureActions.SIMULATED + " " + startWithout,
					cause);
			case NO_KERNEL_STACK -> new FailureAnalysis(
					sets + "The kernel has no RDMA stack, so listing RDMA devices failed: "
							+ firstLine(cause.getMessage()),
					"Load the RDMA kernel modules (ib_uverbs and the NIC's driver, e.g. modprobe mlx5_ib for "
							+ "NVIDIA/Mellanox ConnectX, or modprobe rdma_rxe for a software RoCE device); in a "
							+ "container, run on a host that has them and pass /dev/infiniband. "
							+ RdmaFailureActions.SIMULATED + " " + startWithout,
					cause);
		};
	}

	private static String firstLine(@Nullable String message) {
		if (message == null) {
			return "(no message)";
		}
		int end = message.indexOf('\n');
		return (end < 0) ? message : message.substring(0, end).stripTrailing() + " ...";
	}

}
