package io.github.rdmacounters.netlink;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The optional counters of one port, in the kernel's order.
 *
 * @param device the device name, e.g. {@code mlx5_0}
 * @param port the port, from 1
 * @param counters the optional counters the port supports, by name
 * @author rdma-counters
 * @since 0.1.0
 */
public record PortOptionalCounters(String device, int port, Map<String, OptionalCounter> counters) {

	/**
	 * Create the counters of a port.
	 * @param device the device name
	 * @param port the port
	 * @param counters the counters by name, in the kernel's order
	 */
	public PortOptionalCounters {
		counters = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(counters));
	}

	/**
	 * Return the names of the enabled optional counters.
	 * @return the names, in the kernel's order
	 */
	public List<String> enabled() {
		return this.counters.values().stream().filter(OptionalCounter::enabled).map(OptionalCounter::name).toList();
	}

	/**
	 * Return the value of an enabled optional counter.
	 * @param name the counter's name
	 * @return the value, unsigned, or {@code null} if it is not enabled or not supported
	 */
	public @Nullable Long value(String name) {
		OptionalCounter counter = this.counters.get(name);
		return (counter != null) ? counter.value() : null;
	}

}
