package io.github.rdmacounters.core;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * State and counters of one port as sysfs shows them.
 *
 * @param port the port number
 * @param link the link state, rate and link layer
 * @param counters the counters by file name, as unsigned 64-bit numbers (read a value of
 * 2<sup>63</sup> or more with {@link #counterValue(String)}), data counters converted
 * from 4-byte words to bytes; a file that could not be read or parsed has no value here
 * and is listed in {@code unreadable}; empty for a port that is {@link Presence#GONE}
 * @param groups the directory each counter came from, by counter name
 * @param unreadable the files there but unreadable, relative to the port directory
 * @param missing the counter files an earlier snapshot read that are gone; they have no
 * value in {@link #counters()} rather than their last one
 * @param presence whether the port directory was found
 * @param refused the counter files whose read the kernel refused with {@code EINVAL},
 * {@code EIO}, {@code EACCES} or {@code EPERM}, relative to the port directory, each with
 * the errno name; such a file is read again only after a backoff, is listed in
 * {@code unreadable} meanwhile and has no value
 * @since 0.1.0
 */
public record PortStatus(int port, PortLink link, Map<String, Long> counters, Map<String, String> groups,
		List<String> unreadable, List<String> missing, Presence presence, Map<String, String> refused) {

	// The maps are kept as given, in reading order: callers pass unmodifiable ones
	public PortStatus {
		unreadable = List.copyOf(unreadable);
		missing = List.copyOf(missing);
	}

	/**
	 * Create the status of a port none of whose files refused its read.
	 */
	public PortStatus(int port, PortLink link, Map<String, Long> counters, Map<String, String> groups,
			List<String> unreadable, List<String> missing, Presence presence) {
		this(port, link, counters, groups, unreadable, missing, presence, Map.of());
	}

	/**
	 * Create the status of a present port from the texts of its files as sysfs prints
	 * them (e.g. {@code 4: ACTIVE}, {@code 100 Gb/sec (4X EDR)}), each {@code null} if
	 * unreadable.
	 */
	public PortStatus(int port, @Nullable String state, @Nullable String physicalState, @Nullable String rate,
			@Nullable String linkLayer, Map<String, Long> counters, Map<String, String> groups,
			List<String> unreadable) {
		this(port, PortLink.parse(state, physicalState, rate, linkLayer), counters, groups, unreadable, List.of(),
				Presence.PRESENT);
	}

	/** Create the status of a port whose directory is gone: no link, no counters. */
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
	 */
	public double counterValue(String name) {
		Long value = this.counters.get(name);
		if (value == null) {
			return Double.NaN;
		}
		return unsignedToDouble(value);
	}

	/**
	 * Return an unsigned 64-bit counter value, held in a {@code long}, as the nearest
	 * {@code double}: 2^63 and above keep their magnitude, as node_exporter shows them.
	 * @param value the counter value as an unsigned 64-bit integer
	 * @return the value as a double
	 */
	public static double unsignedToDouble(long value) {
		if (value >= 0) {
			return value;
		}
		// halve keeping the lowest bit (round to odd), convert, double: correctly rounded
		return ((value >>> 1) | (value & 1)) * 2.0;
	}

	public boolean isActive() {
		return this.link.isActive();
	}

	public boolean isPresent() {
		return this.presence == Presence.PRESENT;
	}

	/** Return the logical state's name, e.g. {@code ACTIVE}, or {@code null}. */
	public @Nullable String state() {
		PortState state = this.link.state();
		return (state != null) ? state.name() : null;
	}

	/**
	 * Return the physical state as sysfs prints it, e.g. {@code LinkUp}, or {@code null}.
	 */
	public @Nullable String physicalState() {
		PhysicalPortState state = this.link.physicalState();
		return (state != null) ? state.sysfsName() : null;
	}

	/**
	 * Return the rate as sysfs prints it, e.g. {@code 100 Gb/sec (4X EDR)}, or
	 * {@code null}.
	 */
	public @Nullable String rate() {
		PortRate rate = this.link.rate();
		return (rate != null) ? rate.text() : null;
	}

	/** Return the link layer as sysfs prints it, or {@code null}. */
	public @Nullable String linkLayer() {
		LinkLayer layer = this.link.linkLayer();
		return (layer != null) ? layer.sysfsName() : null;
	}

}
