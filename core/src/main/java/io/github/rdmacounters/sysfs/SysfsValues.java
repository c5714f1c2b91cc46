package io.github.rdmacounters.sysfs;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.PortState;

/**
 * Parsing of the values sysfs prints for RDMA ports: counters, states and rates.
 *
 * @author rdma-counters
 */
public final class SysfsValues {

	private SysfsValues() {
	}

	/**
	 * Parse the content of a counter file: an unsigned decimal number. Anything else
	 * ({@code N/A (no PMA)}, an empty file, text) is not a counter.
	 * @param text the trimmed content
	 * @return the value (values above {@link Long#MAX_VALUE} saturate), or {@code null}
	 */
	public static @Nullable Long parseCounter(String text) {
		if (text.isEmpty() || text.length() > 20) {
			return null;
		}
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c < '0' || c > '9') {
				return null;
			}
		}
		try {
			long value = Long.parseUnsignedLong(text);
			return (value < 0) ? Long.MAX_VALUE : value;
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	/**
	 * Strip the number sysfs prints before a state name: {@code 4: ACTIVE} becomes
	 * {@code ACTIVE}, {@code 5: LinkUp} becomes {@code LinkUp}.
	 * @param text the trimmed file content, or {@code null}
	 * @return the name, or {@code null} if {@code text} is {@code null} or has no name
	 */
	public static @Nullable String stripNumber(@Nullable String text) {
		if (text == null) {
			return null;
		}
		int colon = text.indexOf(':');
		if (colon > 0 && text.substring(0, colon).trim().chars().allMatch((c) -> c >= '0' && c <= '9')) {
			String name = text.substring(colon + 1).trim();
			return name.isEmpty() ? null : name;
		}
		return text;
	}

	/**
	 * Return the numeric id of a logical port state name ({@code ACTIVE} is 4), as
	 * node_exporter's {@code state_id} reports it.
	 * @param state the state name, or {@code null}
	 * @return the id, or -1 if unknown
	 */
	public static int stateId(@Nullable String state) {
		if (state == null) {
			return -1;
		}
		String normalized = state.trim().toUpperCase(Locale.ROOT).replace(' ', '_');
		for (PortState candidate : PortState.values()) {
			if (candidate.name().equals(normalized)) {
				return candidate.nativeValue();
			}
		}
		return -1;
	}

	/**
	 * Return the numeric id of a physical port state name ({@code LinkUp} is 5), as
	 * node_exporter's {@code physical_state_id} reports it.
	 * @param physicalState the physical state name, or {@code null}
	 * @return the id, or -1 if unknown
	 */
	public static int physicalStateId(@Nullable String physicalState) {
		if (physicalState == null) {
			return -1;
		}
		String normalized = physicalState.replace(" ", "").toLowerCase(Locale.ROOT);
		return switch (normalized) {
			case "sleep" -> 1;
			case "polling" -> 2;
			case "disabled" -> 3;
			case "portconfigurationtraining" -> 4;
			case "linkup" -> 5;
			case "linkerrorrecovery" -> 6;
			case "phytest" -> 7;
			default -> -1;
		};
	}

	/**
	 * Convert a rate as sysfs prints it ({@code 100 Gb/sec (4X EDR)},
	 * {@code 2.5 Gb/sec (1X SDR)}) to bytes per second, the way node_exporter reports it.
	 * @param rate the rate text, or {@code null}
	 * @return the bytes per second, or {@code NaN} if the text is not a rate
	 */
	public static double rateBytesPerSecond(@Nullable String rate) {
		if (rate == null) {
			return Double.NaN;
		}
		String[] parts = rate.trim().split("\\s+");
		if (parts.length < 2) {
			return Double.NaN;
		}
		double value;
		try {
			value = Double.parseDouble(parts[0]);
		}
		catch (NumberFormatException ex) {
			return Double.NaN;
		}
		double scale = switch (parts[1].toLowerCase(Locale.ROOT)) {
			case "gb/sec", "gb/s" -> 1e9;
			case "mb/sec", "mb/s" -> 1e6;
			default -> Double.NaN;
		};
		return value * scale / 8;
	}

}
