package io.github.rdmacounters.autoconfigure;

import java.util.List;

/**
 * A device named in {@code rdma.devices} with {@code fail-on-unavailable=true} that the
 * host does not have.
 *
 * @author rdma-counters
 */
class ConfiguredDeviceMissingException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String device;

	private final List<String> available;

	private final List<String> closest;

	ConfiguredDeviceMissingException(String device, List<String> available, List<String> closest) {
		super(property(device) + "=true, but this host has no RDMA device '" + device + "'; devices found: "
				+ (available.isEmpty() ? "none" : String.join(", ", available)));
		this.device = device;
		this.available = List.copyOf(available);
		this.closest = List.copyOf(closest);
	}

	static String property(String device) {
		return RdmaProperties.PREFIX + ".devices." + device + ".fail-on-unavailable";
	}

	String device() {
		return this.device;
	}

	List<String> available() {
		return this.available;
	}

	List<String> closest() {
		return this.closest;
	}

}
