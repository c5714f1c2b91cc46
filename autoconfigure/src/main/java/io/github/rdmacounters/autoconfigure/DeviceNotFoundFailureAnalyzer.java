package io.github.rdmacounters.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import io.github.rdmacounters.core.DeviceNotFoundException;
import io.github.rdmacounters.core.DeviceStartupException;

/**
 * Analyzes {@link DeviceNotFoundException}: the configured device does not exist; lists
 * the devices that do.
 *
 * @author rdma-counters
 */
class DeviceNotFoundFailureAnalyzer extends AbstractFailureAnalyzer<DeviceNotFoundException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, DeviceNotFoundException cause) {
		String found = cause.available().isEmpty() ? "none" : String.join(", ", cause.available());
		DeviceStartupException startup = findCause(rootFailure, DeviceStartupException.class);
		String sets = (startup != null) ? String.join(", ", startup.sets()) : "a counter set";
		String description = "The RDMA device '" + cause.deviceName() + "' that " + sets
				+ " counts on was not found. Devices found: " + found + ".";
		if (cause.available().isEmpty()) {
			return new FailureAnalysis(description, RdmaFailureActions.NO_DEVICE, cause);
		}
		String action = "Set the device of " + sets + " to one of the devices found (" + found
				+ "), or name it by its network interface (netdev). " + RdmaFailureActions.startWithout(startup);
		return new FailureAnalysis(description, action, cause);
	}

}
