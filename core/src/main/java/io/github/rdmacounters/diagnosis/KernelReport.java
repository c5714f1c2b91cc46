package io.github.rdmacounters.diagnosis;

import org.jspecify.annotations.Nullable;

/**
 * The running kernel and the counting features its version has.
 *
 * @param release the release as {@code uname -r} prints it, e.g. {@code 6.1.0-18-amd64},
 * or {@code unknown}
 * @param source where the release was read
 * @param major the major version, or {@code null} if the release does not parse
 * @param minor the minor version, or {@code null}
 * @param dontTrapCounting whether a counted don't-trap flow is accepted (Linux 5.8)
 * @param optionalCounters whether RDMA netlink has optional counters (Linux 5.16)
 * @param perQpRdmaBytes whether mlx5 binds the optional RDMA byte counters per QP (Linux
 * 6.15)
 * @since 0.1.0
 */
public record KernelReport(String release, String source, @Nullable Integer major, @Nullable Integer minor,
		boolean dontTrapCounting, boolean optionalCounters, boolean perQpRdmaBytes) {

}
