package io.github.rdmacounters.core;

import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.InvalidRdmaConfigurationException.Problem;

/**
 * A counter set and where it counts: on the device it names, on the device whose network
 * interface it names, or, naming neither, on the host's only device with flow counters.
 * {@link ManagedDeviceFactory#devicesOf} groups sets by that device.
 *
 * @param definition the set, with its port
 * @param device the device it names, or {@code null}
 * @param netdev the network interface it names instead, e.g. {@code ens1f0np0}, or
 * {@code null}
 * @since 0.1.0
 */
public record CounterSetTarget(CounterSetDefinition definition, @Nullable String device, @Nullable String netdev) {

	/** The longest network interface name: the kernel's IFNAMSIZ is 16, with the NUL. */
	public static final int MAX_NETDEV_NAME = 15;

	public CounterSetTarget {
		if (device != null && netdev != null) {
			throw new IllegalArgumentException(
					"Set '" + definition.name() + "' names both a device and a network interface");
		}
	}

	/**
	 * Return the problems of where a set counts, as written: both a device and a network
	 * interface, a device name no RDMA device can have
	 * ({@link DeviceDefinition#isValidName}), or a network interface name no interface
	 * can have (blank, {@code .}, a '/', ':' or space, more than
	 * {@value #MAX_NETDEV_NAME} characters). Values are trimmed first.
	 * @param property the set's property, e.g. {@code rdma.counter-sets.storage}
	 * @param device the device as written, or {@code null}
	 * @param netdev the network interface as written, or {@code null}
	 * @return the problems, naming {@code <property>.device} or
	 * {@code <property>.netdev}, empty when there are none
	 */
	public static List<Problem> problems(String property, @Nullable String device, @Nullable String netdev) {
		String trimmedDevice = trimmed(device);
		String trimmedNetdev = trimmed(netdev);
		if (trimmedDevice != null && trimmedNetdev != null) {
			return List.of(new Problem(property + ".netdev", netdev, "names the device a second time (" + property
					+ ".device is " + trimmedDevice + "): set either device or netdev"));
		}
		if (device != null && (trimmedDevice == null || !DeviceDefinition.isValidName(trimmedDevice))) {
			return List.of(new Problem(property + ".device", device,
					"must be an RDMA device name such as mlx5_0, at most " + DeviceDefinition.MAX_NAME
							+ " characters (IB_DEVICE_NAME_MAX), or left out for the host's only device with flow "
							+ "counters"));
		}
		if (netdev != null && (trimmedNetdev == null || !isValidNetdev(trimmedNetdev))) {
			return List.of(new Problem(property + ".netdev", netdev, "must be a network interface name such as "
					+ "ens1f0np0, at most " + MAX_NETDEV_NAME + " characters (IFNAMSIZ)"));
		}
		return List.of();
	}

	/**
	 * Return whether a name can be a network interface's, as the kernel's
	 * {@code dev_valid_name} (net/core/dev.c) decides: at most {@value #MAX_NETDEV_NAME}
	 * characters, not {@code .} or {@code ..}, and no '/', ':' or white space.
	 * @param name the name, trimmed
	 * @return whether an interface can have it
	 */
	public static boolean isValidNetdev(String name) {
		return name.length() <= MAX_NETDEV_NAME && !".".equals(name) && !"..".equals(name)
				&& name.chars().noneMatch((c) -> c == '/' || c == ':' || Character.isWhitespace(c));
	}

	/**
	 * Return the target of a set whose device and network interface, as written, have no
	 * {@link #problems}: trimmed, a blank one (as an empty environment variable gives)
	 * naming nothing.
	 * @param definition the set
	 * @param device the device as written, or {@code null}
	 * @param netdev the network interface as written, or {@code null}
	 * @return the target
	 */
	public static CounterSetTarget of(CounterSetDefinition definition, @Nullable String device,
			@Nullable String netdev) {
		return new CounterSetTarget(definition, trimmed(device), trimmed(netdev));
	}

	private static @Nullable String trimmed(@Nullable String text) {
		return (text == null || text.isBlank()) ? null : text.trim();
	}

}
