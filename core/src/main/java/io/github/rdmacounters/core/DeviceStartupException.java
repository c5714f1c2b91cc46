package io.github.rdmacounters.core;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A device that counter sets count on could not be started; names the sets' properties,
 * so that a message can say which configuration needs the device.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public class DeviceStartupException extends RdmaException {

	private static final long serialVersionUID = 1L;

	private final @Nullable String device;

	private final List<String> sets;

	/**
	 * Create an exception.
	 * @param device the device, or {@code null} when the sets name none
	 * @param sets the properties of the sets on the device, e.g.
	 * {@code rdma.counter-sets.storage}
	 * @param cause why the device could not be started
	 */
	public DeviceStartupException(@Nullable String device, List<String> sets, RdmaException cause) {
		super(summary(device, sets) + ": " + cause.getMessage(), cause);
		this.device = device;
		this.sets = List.copyOf(sets);
	}

	private static String summary(@Nullable String device, List<String> sets) {
		return "RDMA device " + ((device != null) ? device : ManagedDeviceFactory.ANY_DEVICE) + " of "
				+ String.join(", ", sets) + " could not be started";
	}

	/**
	 * Return what could not be started, without the cause.
	 * @return e.g. {@code RDMA device mlx5_0 of rdma.counter-sets.storage could not be
	 * started}
	 */
	public String summary() {
		return summary(this.device, this.sets);
	}

	/**
	 * Return the device.
	 * @return the device, or {@code null} when the sets name none
	 */
	public @Nullable String device() {
		return this.device;
	}

	/**
	 * Return the properties of the sets on the device.
	 * @return e.g. {@code [rdma.counter-sets.storage]}
	 */
	public List<String> sets() {
		return this.sets;
	}

}
