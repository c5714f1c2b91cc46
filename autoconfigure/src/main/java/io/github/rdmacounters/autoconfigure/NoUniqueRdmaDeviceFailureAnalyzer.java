package io.github.rdmacounters.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

import io.github.rdmacounters.core.NoUniqueRdmaDeviceException;

/**
 * Analyzes a counter set that names no device on a host with none or several devices with
 * flow counters.
 *
 * @author rdma-counters
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class NoUniqueRdmaDeviceFailureAnalyzer extends AbstractFailureAnalyzer<NoUniqueRdmaDeviceException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, NoUniqueRdmaDeviceException cause) {
		if (cause.devices().isEmpty()) {
			return new FailureAnalysis(cause.getMessage() + ".", DeviceAdvice.NO_DEVICE, cause);
		}
		String set = cause.property();
		return new FailureAnalysis(cause.getMessage() + ".",
				"Set " + set + ".device to the device to count on, e.g. " + set + ".device=" + cause.devices().get(0)
						+ " (one of " + String.join(", ", cause.devices()) + "), or " + set
						+ ".netdev to its network interface.",
				cause);
	}

}
