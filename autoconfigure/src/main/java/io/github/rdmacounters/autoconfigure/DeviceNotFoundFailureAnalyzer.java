package io.github.rdmacounters.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import io.github.rdmacounters.core.DeviceNotFoundException;

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
		DeviceStartupException configured = findCause(rootFailure, DeviceStartupException.class);
		if (configured != null) {
			String prefix = configured.propertyPrefix();
			String description = "The RDMA device '" + cause.deviceName() + "' (" + prefix
					+ ") was not found. Devices found: " + found + ".";
			String action = "Rename " + prefix + " to one of the devices found (" + found + "), or set " + prefix
					+ ".fail-on-unavailable=false (or rdma.device-defaults.fail-on-unavailable=false) to start the "
					+ "other devices without it and report it through health.";
			return new FailureAnalysis(description, action, cause);
		}
		String description = "The RDMA device '" + cause.deviceName() + "' (rdma.device) was not found. Devices found: "
				+ found + ".";
		String action = cause.available().isEmpty() ? RdmaFailureActions.NO_DEVICE
				: "Set rdma.device to one of the devices found (" + found + "), or remove rdma.device when there is "
						+ "only one. " + RdmaFailureActions.START_WITHOUT;
		return new FailureAnalysis(description, action, cause);
	}

}
