package io.github.rdmacounters.testsupport;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The sizes, offsets and constants of the {@code <infiniband/verbs.h>} in use (the
 * installed one, or the tree {@code CPATH} names), as the ABI probe compiled against it
 * prints them. Tests take every size and offset from here, never one header's numbers.
 *
 * @author rdma-counters
 */
public final class NativeBuildProbe {

	private static volatile Map<String, Long> values;

	private NativeBuildProbe() {
	}

	/**
	 * Return every value the probe prints.
	 * @return the values by name, e.g. {@code sizeof(verbs_context)}
	 */
	public static Map<String, Long> values() {
		Map<String, Long> current = values;
		if (current == null) {
			synchronized (NativeBuildProbe.class) {
				current = values;
				if (current == null) {
					Path probe = NativeBuild.executable("abi-probe/abi_probe.c", "abi-probe");
					Map<String, Long> parsed = new HashMap<>();
					for (String line : NativeBuild.run(probe).split("\n")) {
						String[] parts = line.trim().split(" ");
						parsed.put(parts[0], Long.parseLong(parts[1]));
					}
					current = Map.copyOf(parsed);
					values = current;
				}
			}
		}
		return current;
	}

	/**
	 * Return one value the probe prints.
	 * @param name its name, e.g. {@code sizeof(ibv_port_attr)} or
	 * {@code needed_sz.query_port}
	 * @return the value
	 * @throws IllegalStateException if the probe does not print it
	 */
	public static long value(String name) {
		Long value = values().get(name);
		if (value == null) {
			throw new IllegalStateException("The ABI probe prints no " + name);
		}
		return value;
	}

	/**
	 * Return whether the header's {@code struct ibv_port_attr} has
	 * {@code active_speed_ex} (rdma-core 50 and later).
	 * @return {@code true} if the probe found the field
	 */
	public static boolean portAttrHasActiveSpeedEx() {
		return values().containsKey("ibv_port_attr.active_speed_ex");
	}

}
