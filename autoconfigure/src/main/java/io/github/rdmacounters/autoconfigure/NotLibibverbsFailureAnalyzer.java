package io.github.rdmacounters.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

import io.github.rdmacounters.core.DeviceStartupException;
import io.github.rdmacounters.verbs.NotLibibverbsException;

/**
 * Analyzes a start whose {@code rdma.native.library} loads but is not libibverbs, e.g.
 * {@code libc.so.6}. Ordered first: the library did load, so the analysis of a library
 * that cannot be loaded would send the user to install one.
 *
 * @author rdma-counters
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class NotLibibverbsFailureAnalyzer extends AbstractFailureAnalyzer<NotLibibverbsException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, NotLibibverbsException cause) {
		DeviceStartupException startup = findCause(rootFailure, DeviceStartupException.class);
		String sets = (startup != null) ? " " + startup.summary() + "." : "";
		int more = cause.missing().size() - 1;
		String description = "rdma.native.library is '" + cause.library()
				+ "', a library that loads but is not libibverbs: it has no " + cause.missing().get(0)
				+ ((more > 0) ? " (nor " + more + " more verbs the native backend calls)" : "") + "." + sets;
		String action = "Set rdma.native.library to libibverbs.so.1 (the default: or remove the property) or to the "
				+ "path of a libibverbs.so.1 (ldconfig -p | grep libibverbs lists the installed ones). To start "
				+ "without the device and report it through health instead, set rdma.fail-on-unavailable=false.";
		return new FailureAnalysis(description, action, cause);
	}

}
