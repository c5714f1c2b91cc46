package io.github.rdmacounters.sysfs;

import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

/**
 * Parsing of the values sysfs prints for RDMA ports; states, rates and link layers are
 * parsed by {@link io.github.rdmacounters.core.PortLink#parse}.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
final class SysfsValues {

	private SysfsValues() {
	}

	/**
	 * Parse the content of a counter file: an unsigned decimal number of at most 64 bits,
	 * as the kernel prints a {@code u64} ({@code "%llu"}). Anything else
	 * ({@code N/A (no PMA)}, an empty file, a sign, text, more than 64 bits) is not a
	 * counter.
	 * @param text the trimmed content
	 * @return the value as an unsigned 64-bit number (values of 2<sup>63</sup> and above
	 * are negative as a Java {@code long}; see
	 * {@link io.github.rdmacounters.core.PortStatus#counterValue(String)}), or
	 * {@code null}
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
			return Long.parseUnsignedLong(text);
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	/**
	 * Parse the bytes of a counter file as {@link #parseCounter(String)} parses its
	 * trimmed text, without making a string of them: leading and trailing bytes up to
	 * {@code ' '} are trimmed as {@link String#trim()} trims.
	 * @param bytes the file content
	 * @param length how many bytes of {@code bytes} the file holds
	 * @return the value as an unsigned 64-bit number, or {@code null}
	 */
	public static @Nullable Long parseCounter(byte[] bytes, int length) {
		int from = 0;
		int to = length;
		while (from < to && (bytes[from] & 0xff) <= ' ') {
			from++;
		}
		while (to > from && (bytes[to - 1] & 0xff) <= ' ') {
			to--;
		}
		if (from == to || to - from > 20) {
			return null;
		}
		long value = 0;
		for (int i = from; i < to; i++) {
			int digit = bytes[i] - '0';
			if (digit < 0 || digit > 9) {
				return null;
			}
			value = value * 10 + digit;
		}
		if (to - from <= 18) {
			// at most 18 digits cannot overflow
			return value;
		}
		return parseCounter(new String(bytes, from, to - from, StandardCharsets.US_ASCII));
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

}
