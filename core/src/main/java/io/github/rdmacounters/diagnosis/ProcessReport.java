package io.github.rdmacounters.diagnosis;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The rights and place of this process.
 *
 * @param capEff the effective capability mask of {@code /proc/self/status} in hex, or
 * {@code null} if unreadable
 * @param capNetRaw whether {@code CAP_NET_RAW} (13) is effective: raw packet queue pairs
 * and flows need it
 * @param capNetAdmin whether {@code CAP_NET_ADMIN} (12) is effective: enabling optional
 * counters needs it
 * @param netNamespace the network namespace, as {@code /proc/self/ns/net} links to it
 * (e.g. {@code net:[4026531840]}), or {@code null}
 * @param rdmaNetnsShared whether RDMA devices are shared by every network namespace
 * ({@code ib_core} parameter {@code netns_mode}), or {@code null} if unknown
 * @param devInfinibandExists whether {@code /dev/infiniband} exists
 * @param devInfiniband its entries and whether this process may read and write them
 * @since 0.1.0
 */
public record ProcessReport(@Nullable String capEff, boolean capNetRaw, boolean capNetAdmin,
		@Nullable String netNamespace, @Nullable Boolean rdmaNetnsShared, boolean devInfinibandExists,
		List<DeviceFile> devInfiniband) {

	public ProcessReport {
		devInfiniband = List.copyOf(devInfiniband);
	}

	/**
	 * An entry of {@code /dev/infiniband}.
	 *
	 * @param name e.g. {@code uverbs0}
	 * @param readable whether this process may read it
	 * @param writable whether this process may write it
	 */
	public record DeviceFile(String name, boolean readable, boolean writable) {

	}

}
