package io.github.rdmacounters.autoconfigure;

import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.RdmaException;

/**
 * A device that counter sets count on failed startup, wrapping why, so that the failure
 * analysis names the sets' own properties.
 *
 * @author rdma-counters
 */
class DeviceStartupException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final @Nullable String device;

	private final List<String> sets;

	DeviceStartupException(@Nullable String device, List<String> sets, RdmaException cause) {
		super("RDMA device " + ((device != null) ? device : "(any)") + " of " + String.join(", ", sets)
				+ " could not be started: " + cause.getMessage(), cause);
		this.device = device;
		this.sets = List.copyOf(sets);
	}

	/**
	 * Return the device, or {@code null} when the sets name none.
	 * @return e.g. {@code mlx5_1}
	 */
	@Nullable String device() {
		return this.device;
	}

	/**
	 * Return the properties of the sets on the device.
	 * @return e.g. {@code [rdma.counter-sets.storage]}
	 */
	List<String> sets() {
		return this.sets;
	}

	/**
	 * Say how to start without the device.
	 * @return the advice
	 */
	String startWithout() {
		return "To start without it and report it through health instead, set "
				+ ((this.device != null)
						? RdmaProperties.PREFIX + ".devices." + this.device + ".fail-on-unavailable=false (or " : "(")
				+ RdmaProperties.PREFIX + ".fail-on-unavailable=false for every device).";
	}

}
