package io.github.rdmacounters.autoconfigure;

import java.util.Objects;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

import io.github.rdmacounters.core.DeviceStartupException;
import io.github.rdmacounters.core.RdmaUnavailableException;

/**
 * Analyzes libibverbs or the kernel's RDMA stack missing.
 *
 * @author rdma-counters
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class RdmaUnavailableFailureAnalyzer extends AbstractFailureAnalyzer<RdmaUnavailableException> {

	private static final ConfigurationPropertyName LIBRARY = ConfigurationPropertyName.of("rdma.native.library");

	private final Environment environment;

	RdmaUnavailableFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, RdmaUnavailableException cause) {
		DeviceStartupException startup = findCause(rootFailure, DeviceStartupException.class);
		String sets = (startup != null) ? startup.summary() + ". " : "";
		String message = Objects.requireNonNullElse(cause.getMessage(), "(no message)");
		int end = message.indexOf('\n');
		String firstLine = (end < 0) ? message : message.substring(0, end).stripTrailing() + " ...";
		String then = " " + DeviceAdvice.SIMULATED + " " + DeviceAdvice.startWithout(startup);
		return switch (cause.reason()) {
			case LIBRARY_NOT_LOADABLE -> new FailureAnalysis(
					sets + "The RDMA library libibverbs could not be loaded" + library() + ": " + firstLine,
					"Install the libibverbs runtime (package libibverbs1 on Debian and Ubuntu, rdma-core on Fedora, "
							+ "RHEL and SUSE), or set rdma.native.library to the name or path of the library." + then,
					cause);
			case NO_KERNEL_STACK -> new FailureAnalysis(
					sets + "The kernel has no RDMA stack, so listing RDMA devices failed: " + firstLine,
					"Load the RDMA kernel modules (ib_uverbs and the NIC's driver, e.g. modprobe mlx5_ib, or modprobe "
							+ "rdma_rxe for a software RoCE device); in a container, run on a host that has them and "
							+ "pass /dev/infiniband." + then,
					cause);
		};
	}

	/** Where the library was named, e.g. {@code  (rdma.native.library)}. */
	private String library() {
		ConfigurationProperty property = Problems.find(this.environment, LIBRARY);
		return (property != null) ? " (" + Problems.written(property, LIBRARY) + ")" : "";
	}

}
