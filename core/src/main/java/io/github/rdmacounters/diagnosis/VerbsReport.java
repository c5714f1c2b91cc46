package io.github.rdmacounters.diagnosis;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The verbs backend: whether libibverbs loads, from where, which release, whether the
 * kernel has an RDMA stack, the devices it lists.
 *
 * @param backend {@code native} or {@code simulated}
 * @param library the library asked for, e.g. {@code libibverbs.so.1}
 * @param loaded whether it loaded
 * @param path the file loaded, links resolved, or {@code null} if unknown
 * @param rdmaCoreVersion the rdma-core release of that file (the third number of
 * {@code libibverbs.so.1.14.44.0}), or {@code null}
 * @param kernelStack whether {@code ibv_get_device_list} found the kernel's RDMA stack
 * @param error why the library or the device list failed, or {@code null}
 * @param devices the devices {@code ibv_get_device_list} listed
 * @param bindingSizes the struct sizes the binding is built for, by C type
 * @since 0.1.0
 */
public record VerbsReport(String backend, String library, boolean loaded, @Nullable String path,
		@Nullable String rdmaCoreVersion, boolean kernelStack, @Nullable String error, List<String> devices,
		Map<String, Integer> bindingSizes) {

	public VerbsReport {
		devices = List.copyOf(devices);
		bindingSizes = Collections.unmodifiableMap(new LinkedHashMap<>(bindingSizes));
	}

}
