package io.github.rdmacounters.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import io.github.rdmacounters.core.NoUniqueRdmaDeviceException;

/**
 * Analyzes {@link NoUniqueRdmaDeviceException}: no device is named and there is not
 * exactly one to choose.
 *
 * @author rdma-counters
 */
class NoUniqueRdmaDeviceFailureAnalyzer extends AbstractFailureAnalyzer<NoUniqueRdmaDeviceException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, NoUniqueRdmaDeviceException cause) {
		if (cause.devices().isEmpty()) {
			String description = "rdma.device is not set and the " + cause.backend() + " backend found no RDMA device.";
			return new FailureAnalysis(description, RdmaFailureActions.NO_DEVICE, cause);
		}
		String found = String.join(", ", cause.devices());
		String description = "rdma.device is not set and the " + cause.backend() + " backend found "
				+ cause.devices().size() + " RDMA devices: " + found + ".";
		String action = "Set rdma.device to the device to open, e.g. rdma.device=" + cause.devices().get(0)
				+ " (one of " + found + ").";
		return new FailureAnalysis(description, action, cause);
	}

}
