package io.github.rdmacounters.core;

import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Linux errno values this project reports, with their names and the messages glibc's
 * {@code strerror} gives for them.
 *
 * @since 0.1.0
 */
public final class Errno {

	/** Operation not permitted. */
	public static final int EPERM = 1;

	/** No such file or directory. */
	public static final int ENOENT = 2;

	/** Input/output error. */
	public static final int EIO = 5;

	/** No such device or address. */
	public static final int ENXIO = 6;

	/** Resource temporarily unavailable. */
	public static final int EAGAIN = 11;

	/** Cannot allocate memory. */
	public static final int ENOMEM = 12;

	/** Permission denied. */
	public static final int EACCES = 13;

	/** Bad address. */
	public static final int EFAULT = 14;

	/** Device or resource busy. */
	public static final int EBUSY = 16;

	/** No such device. */
	public static final int ENODEV = 19;

	/** Invalid argument. */
	public static final int EINVAL = 22;

	/** Function not implemented. */
	public static final int ENOSYS = 38;

	/** Protocol not supported, e.g. a netlink protocol the kernel does not have. */
	public static final int EPROTONOSUPPORT = 93;

	/** Operation not supported; the same number as {@code ENOTSUP} on Linux. */
	public static final int EOPNOTSUPP = 95;

	/** No buffer space available, e.g. netlink replies lost to a full receive buffer. */
	public static final int ENOBUFS = 105;

	private static final Set<String> COUNTER_VERBS = Set.of("ibv_create_counters", "ibv_attach_counters_point_flow",
			"ibv_read_counters", "ibv_destroy_counters");

	private Errno() {
	}

	/**
	 * Explain what an errno from a verb means for flow counters, where it has one usual
	 * cause; the native layer and the startup failure analysis both use these words.
	 * @param verb the C verb name, e.g. {@code ibv_create_flow}
	 * @param errno the errno value
	 * @return the explanation, lower case and without a final period, or {@code null}
	 * @since 0.1.0
	 */
	public static @Nullable String explain(String verb, int errno) {
		boolean flowVerb = "ibv_create_flow".equals(verb) || "ibv_create_qp".equals(verb);
		if (flowVerb && (errno == EPERM || errno == EACCES)) {
			return "raw packet queue pairs and steering rules need CAP_NET_RAW";
		}
		if (COUNTER_VERBS.contains(verb) && (errno == EOPNOTSUPP || errno == ENOSYS)) {
			// ENOSYS: rdma-core before 28 for a provider without the op
			return "only the mlx5 provider implements flow counters (ibv_counters), on NVIDIA/Mellanox ConnectX-4 "
					+ "and later";
		}
		if ("ibv_create_flow".equals(verb) && errno == EINVAL) {
			// Linux before v5.8 (commit 8e14c75c999a) builds don't-trap rules in
			// create_dont_trap_rule (drivers/infiniband/hw/mlx5/fs.c) without the flow's
			// actions, and a count action fails with EINVAL
			return "a counted don't-trap flow needs Linux 5.8 or later (commit 8e14c75c999a); older kernels refuse "
					+ "the count action of a don't-trap rule with EINVAL";
		}
		if ("ibv_create_flow".equals(verb) && errno == ENOMEM) {
			// mlx5 fs.c: a priority beyond the user priorities of the BYPASS namespace,
			// or
			// no room left in the flow table of that priority
			return "the flow's priority is beyond the provider's user flow priorities (mlx5 has a few, each one "
					+ "flow table), or the NIC's steering table is full";
		}
		return null;
	}

	/**
	 * Return the symbolic name of an errno value, e.g. {@code EOPNOTSUPP}.
	 * @param errno the errno value
	 * @return the name, or {@code errno N} for a value this class does not know
	 */
	public static String name(int errno) {
		return switch (errno) {
			case EPERM -> "EPERM";
			case ENOENT -> "ENOENT";
			case EIO -> "EIO";
			case ENXIO -> "ENXIO";
			case EAGAIN -> "EAGAIN";
			case ENOMEM -> "ENOMEM";
			case EACCES -> "EACCES";
			case EFAULT -> "EFAULT";
			case EBUSY -> "EBUSY";
			case ENODEV -> "ENODEV";
			case EINVAL -> "EINVAL";
			case ENOSYS -> "ENOSYS";
			case EPROTONOSUPPORT -> "EPROTONOSUPPORT";
			case EOPNOTSUPP -> "EOPNOTSUPP";
			case ENOBUFS -> "ENOBUFS";
			default -> "errno " + errno;
		};
	}

	/**
	 * Describe an errno value the way this project's messages show it, e.g.
	 * {@code EOPNOTSUPP (95) Operation not supported}.
	 * @param errno the errno value
	 * @return the description
	 */
	public static String describe(int errno) {
		String name = name(errno);
		return name.startsWith("E") ? name + " (" + errno + ") " + message(errno)
				: "errno " + errno + " (" + message(errno) + ")";
	}

	/**
	 * Return the system's message for an errno value, as glibc's {@code strerror} gives
	 * it.
	 * @param errno the errno value
	 * @return the message
	 */
	public static String message(int errno) {
		return switch (errno) {
			case EPERM -> "Operation not permitted";
			case ENOENT -> "No such file or directory";
			case EIO -> "Input/output error";
			case ENXIO -> "No such device or address";
			case EAGAIN -> "Resource temporarily unavailable";
			case ENOMEM -> "Cannot allocate memory";
			case EACCES -> "Permission denied";
			case EFAULT -> "Bad address";
			case EBUSY -> "Device or resource busy";
			case ENODEV -> "No such device";
			case EINVAL -> "Invalid argument";
			case ENOSYS -> "Function not implemented";
			case EPROTONOSUPPORT -> "Protocol not supported";
			case EOPNOTSUPP -> "Operation not supported";
			case ENOBUFS -> "No buffer space available";
			default -> "Unknown error " + errno;
		};
	}

}
