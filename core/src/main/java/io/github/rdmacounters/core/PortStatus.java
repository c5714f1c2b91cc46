package io.github.rdmacounters.core;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * State and counters of one port as sysfs shows them.
 *
 * @param port the port number
 * @param state the logical state, e.g. {@code ACTIVE} (from {@code 4: ACTIVE}), or
 * {@code null} if unreadable
 * @param physicalState the physical state, e.g. {@code LinkUp}, or {@code null} if
 * unreadable
 * @param rate the rate as printed, e.g. {@code 100 Gb/sec (4X EDR)}, or {@code null}
 * @param linkLayer the link layer, e.g. {@code InfiniBand} or {@code Ethernet}, or
 * {@code null}
 * @param counters the counters by file name, from {@code counters/},
 * {@code counters_ext/} and {@code hw_counters/}; the data counters
 * ({@code port_rcv_data}, {@code port_xmit_data}) are converted from 4-byte words to
 * bytes
 * @param groups which directory each counter came from ({@code counters},
 * {@code counters_ext} or {@code hw_counters}), by counter name
 * @param unreadable the files that could not be read, relative to the port directory
 */
public record PortStatus(int port, @Nullable String state, @Nullable String physicalState, @Nullable String rate,
		@Nullable String linkLayer, Map<String, Long> counters, Map<String, String> groups, List<String> unreadable) {

	/**
	 * Return whether the port is {@code ACTIVE}.
	 * @return {@code true} if the state reads ACTIVE
	 */
	public boolean isActive() {
		return "ACTIVE".equals(this.state);
	}

}
