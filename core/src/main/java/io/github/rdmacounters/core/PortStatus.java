package io.github.rdmacounters.core;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * State and counters of one port as sysfs shows them.
 *
 * @param port the port number
 * @param link the link state, rate and link layer, parsed once when the port was read
 * @param counters the counters by file name, from {@code counters/},
 * {@code counters_ext/} and {@code hw_counters/}, as unsigned 64-bit numbers (a value of
 * 2<sup>63</sup> or more is a negative {@code long}: read it with
 * {@link #counterValue(String)} or {@link Long#toUnsignedString(long)}); the data
 * counters ({@code port_rcv_data}, {@code port_xmit_data}) are converted from 4-byte
 * words to bytes; a file that could not be read or parsed has no value here and is listed
 * in {@code unreadable}; empty for a port that is {@link Presence#GONE}
 * @param groups which directory each counter came from ({@code counters},
 * {@code counters_ext} or {@code hw_counters}), by counter name
 * @param unreadable the files that are there but could not be read, relative to the port
 * directory (e.g. {@code counters/port_rcv_data}, {@code rate})
 * @param missing the counter files that an earlier snapshot read and that are no longer
 * there, relative to the port directory (e.g. {@code hw_counters/out_of_buffer}); they
 * have no value in {@link #counters()} instead of keeping their last one
 * @param presence whether the port directory was found
 * @since 0.1.0
 * @author rdma-counters
 */
public record PortStatus(int port, PortLink link, Map<String, Long> counters, Map<String, String> groups,
		List<String> unreadable, List<String> missing, Presence presence) {

	/**
	 * Create a port status. The maps are kept as given (their order is the reading
	 * order): pass unmodifiable ones.
	 * @param port the port number
	 * @param link the link
	 * @param counters the counters
	 * @param groups the counter directories by counter name
	 * @param unreadable the unreadable files
	 * @param missing the counter files that vanished
	 * @param presence whether the port directory was found
	 */
	public PortStatus {
		unreadable = List.copyOf(unreadable);
		missing = List.copyOf(missing);
	}

	/**
	 * Create the status of a present port from the texts of its files, as sysfs prints
	 * them.
	 * @param port the port number
	 * @param state the logical state, e.g. {@code ACTIVE} or {@code 4: ACTIVE}, or
	 * {@code null} if unreadable
	 * @param physicalState the physical state, e.g. {@code LinkUp}, or {@code null}
	 * @param rate the rate as printed, e.g. {@code 100 Gb/sec (4X EDR)}, or {@code null}
	 * @param linkLayer the link layer, {@code InfiniBand} or {@code Ethernet}, or
	 * {@code null}
	 * @param counters the counters by file name
	 * @param groups the counter directories by counter name
	 * @param unreadable the files that could not be read
	 */
	public PortStatus(int port, @Nullable String state, @Nullable String physicalState, @Nullable String rate,
			@Nullable String linkLayer, Map<String, Long> counters, Map<String, String> groups,
			List<String> unreadable) {
		this(port, PortLink.parse(state, physicalState, rate, linkLayer), counters, groups, unreadable, List.of(),
				Presence.PRESENT);
	}

	/**
	 * Create the status of a port whose directory is gone: no link, no counters.
	 * @param port the port number
	 * @return the status
	 */
	public static PortStatus gone(int port) {
		return new PortStatus(port, PortLink.UNKNOWN, Map.of(), Map.of(), List.of(), List.of(), Presence.GONE);
	}

	/**
	 * Return a counter as the nearest double of its unsigned 64-bit value, as
	 * node_exporter turns a {@code uint64} into a {@code float64}: 2<sup>64</sup>-1 is
	 * 1.8446744073709552E19.
	 * @param name the counter's key in {@link #counters()}
	 * @return the value, or NaN if the counter has no value (unreadable, missing or
	 * unknown)
	 * @since 0.1.0
	 */
	public double counterValue(String name) {
		Long value = this.counters.get(name);
		if (value == null) {
			return Double.NaN;
		}
		long unsigned = value;
		if (unsigned >= 0) {
			return unsigned;
		}
		// halve keeping the lowest bit (round to odd), convert, double: correctly rounded
		return ((unsigned >>> 1) | (unsigned & 1)) * 2.0;
	}

	/**
	 * Return whether the port is {@code ACTIVE}.
	 * @return {@code true} if the state reads ACTIVE
	 */
	public boolean isActive() {
		return this.link.isActive();
	}

	/**
	 * Return whether the port directory was found.
	 * @return {@code true} if {@link #presence()} is {@link Presence#PRESENT}
	 */
	public boolean isPresent() {
		return this.presence == Presence.PRESENT;
	}

	/**
	 * Return the name of the logical state, e.g. {@code ACTIVE}; {@link #link()} has the
	 * typed value.
	 * @return the name, or {@code null} if unknown
	 */
	public @Nullable String state() {
		PortState state = this.link.state();
		return (state != null) ? state.name() : null;
	}

	/**
	 * Return the name of the physical state as sysfs prints it, e.g. {@code LinkUp};
	 * {@link #link()} has the typed value.
	 * @return the name, or {@code null} if unknown
	 */
	public @Nullable String physicalState() {
		PhysicalPortState state = this.link.physicalState();
		return (state != null) ? state.sysfsName() : null;
	}

	/**
	 * Return the rate as sysfs prints it, e.g. {@code 100 Gb/sec (4X EDR)};
	 * {@link #link()} has the typed value.
	 * @return the rate text, or {@code null} if unknown
	 */
	public @Nullable String rate() {
		PortRate rate = this.link.rate();
		return (rate != null) ? rate.text() : null;
	}

	/**
	 * Return the link layer as sysfs prints it, {@code InfiniBand} or {@code Ethernet};
	 * {@link #link()} has the typed value.
	 * @return the link layer, or {@code null} if unknown
	 */
	public @Nullable String linkLayer() {
		LinkLayer layer = this.link.linkLayer();
		return (layer != null) ? layer.sysfsName() : null;
	}

}
