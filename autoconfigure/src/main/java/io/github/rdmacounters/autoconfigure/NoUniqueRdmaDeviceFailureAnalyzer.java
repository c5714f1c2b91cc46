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
			return new FailureAnalysis(cause.getMessage() + ".", RdmaFailureActions.NO_DEVICE, cause);
		}
		String found = String.join(", ", cause.devices());
		String action = "Set " + cause.property() + ".device to the device to count on, e.g. " + cause.property()
				+ ".device=" + cause.devices().get(0) + " (one of " + found + "), or " + cause.property()
				+ ".netdev to its network interface.";
		return new FailureAnalysis(cause.getMessage() + ".", action, cause);
	}

}
