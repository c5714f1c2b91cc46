package io.github.rdmacounters.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Analyzes a device that {@code rdma.devices.<name>.fail-on-unavailable=true} names and
 * the host does not have, listing those it has, the closest first.
 *
 * @author rdma-counters
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class ConfiguredDeviceMissingFailureAnalyzer extends AbstractFailureAnalyzer<ConfiguredDeviceMissingException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ConfiguredDeviceMissingException cause) {
		String property = ConfiguredDeviceMissingException.property(cause.device());
		String found = cause.available().isEmpty() ? "none" : String.join(", ", cause.available());
		String description = property + "=true asks startup to fail without the RDMA device '" + cause.device()
				+ "', and this host does not have it. Devices found: " + found
				+ (cause.closest().isEmpty() ? "" : " (closest: " + String.join(", ", cause.closest()) + ")") + ".";
		if (cause.available().isEmpty()) {
			return new FailureAnalysis(description, DeviceAdvice.NO_DEVICE, cause);
		}
		return new FailureAnalysis(description,
				"Correct the device name under rdma.devices to one of the devices found, remove rdma.devices."
						+ cause.device() + " if this host is not meant to have it, or set " + property
						+ "=false to start without it.",
				cause);
	}

}
