package io.github.rdmacounters.core;

import java.util.Locale;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Signalling rate of a port as {@code rate_show} prints it in sysfs {@code rate}
 * ({@code drivers/infiniband/core/sysfs.c}).
 *
 * @param bitsPerSecond the rate in bits per second, e.g. {@code 100e9}
 * @param text the text as printed, e.g. {@code 100 Gb/sec (4X EDR)}
 * @since 0.1.0
 */
public record PortRate(double bitsPerSecond, String text) {

	private static final Pattern WHITESPACE = Pattern.compile("\\s+");

	/**
	 * Return the rate in bytes per second, as node_exporter's {@code rate_bytes} does.
	 */
	public double bytesPerSecond() {
		return this.bitsPerSecond / 8;
	}

	/**
	 * Parse a rate as sysfs prints it, e.g. {@code 2.5 Gb/sec (1X SDR)}.
	 * @param text the trimmed file content
	 * @return the rate, or {@code null} if the text is not a rate
	 */
	public static @Nullable PortRate parse(String text) {
		String[] parts = WHITESPACE.split(text.trim());
		if (parts.length < 2) {
			return null;
		}
		double value;
		try {
			value = Double.parseDouble(parts[0]);
		}
		catch (NumberFormatException ex) {
			return null;
		}
		double scale = switch (parts[1].toLowerCase(Locale.ROOT)) {
			case "gb/sec", "gb/s" -> 1e9;
			case "mb/sec", "mb/s" -> 1e6;
			default -> Double.NaN;
		};
		if (Double.isNaN(scale) || !Double.isFinite(value) || value < 0) {
			return null;
		}
		return new PortRate(value * scale, text.trim());
	}

	@Override
	public String toString() {
		return this.text;
	}

}
