package io.github.rdmacounters.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

import io.github.rdmacounters.core.DeviceNotFoundException;
import io.github.rdmacounters.core.DeviceStartupException;

/**
 * Analyzes a device that counter sets name and the host does not have, listing those it
 * has.
 *
 * @author rdma-counters
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class DeviceNotFoundFailureAnalyzer extends AbstractFailureAnalyzer<DeviceNotFoundException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, DeviceNotFoundException cause) {
		DeviceStartupException startup = findCause(rootFailure, DeviceStartupException.class);
		String found = cause.available().isEmpty() ? "none" : String.join(", ", cause.available());
		String sets = (startup != null) ? String.join(", ", startup.sets()) : "a counter set";
		String description = "The RDMA device '" + cause.deviceName() + "' that " + sets
				+ " counts on was not found. Devices found: " + found + ".";
		if (cause.available().isEmpty()) {
			return new FailureAnalysis(description, DeviceAdvice.NO_DEVICE, cause);
		}
		return new FailureAnalysis(description,
				"Set the device of " + sets + " to one of the devices found (" + found
						+ "), or name it by its network interface (netdev). " + DeviceAdvice.startWithout(startup),
				cause);
	}

}
