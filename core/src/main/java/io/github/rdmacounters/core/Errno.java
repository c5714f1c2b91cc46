package io.github.rdmacounters.core;

import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Linux errno values this project reports, with their names, glibc's {@code strerror}
 * messages and what they mean for flow counters.
 *
 * @since 0.1.0
 */
public final class Errno {

	public static final int EPERM = 1;

	public static final int ENOENT = 2;

	public static final int EIO = 5;

	public static final int ENXIO = 6;

	public static final int EAGAIN = 11;

	public static final int ENOMEM = 12;

	public static final int EACCES = 13;

	public static final int EFAULT = 14;

	public static final int EBUSY = 16;

	public static final int ENODEV = 19;

	public static final int EINVAL = 22;

	public static final int ENOSYS = 38;

	public static final int EPROTONOSUPPORT = 93;

	/** The same number as {@code ENOTSUP} on Linux. */
	public static final int EOPNOTSUPP = 95;

	public static final int ENOBUFS = 105;

	/** What a mlx5 firmware command returns when the firmware did not answer in time. */
	public static final int ETIMEDOUT = 110;

	private static final Set<String> COUNTER_VERBS = Set.of("ibv_create_counters", "ibv_attach_counters_point_flow",
			"ibv_read_counters", "ibv_destroy_counters");

	private Errno() {
	}

	/**
	 * Explain what an errno from a verb means for flow counters, where it has one usual
	 * cause; shared by the native layer and the startup failure analysis.
	 * @param verb the C verb name, e.g. {@code ibv_create_flow}
	 * @param errno the errno value
	 * @return the explanation, lower case without a final period, or {@code null}
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
			// Linux before v5.8 (commit 8e14c75c999a): create_dont_trap_rule in mlx5 fs.c
			// drops the flow's actions, so a count action fails with EINVAL
			return "a counted don't-trap flow needs Linux 5.8 or later (commit 8e14c75c999a); older kernels refuse "
					+ "the count action of a don't-trap rule with EINVAL";
		}
		if ("ibv_create_flow".equals(verb) && errno == ENOMEM) {
			// mlx5 fs.c: a priority beyond the BYPASS namespace's user priorities, or a
			// full flow table at that priority
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
			case ETIMEDOUT -> "ETIMEDOUT";
			default -> "errno " + errno;
		};
	}

	/**
	 * Describe an errno value, e.g. {@code EOPNOTSUPP (95) Operation not supported}.
	 * @param errno the errno value
	 * @return the description
	 */
	public static String describe(int errno) {
		String name = name(errno);
		return name.startsWith("E") ? name + " (" + errno + ") " + message(errno)
				: "errno " + errno + " (" + message(errno) + ")";
	}

	/**
	 * Return glibc's {@code strerror} message for an errno value.
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
			case ETIMEDOUT -> "Connection timed out";
			default -> "Unknown error " + errno;
		};
	}

}
