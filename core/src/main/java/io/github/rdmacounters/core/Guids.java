package io.github.rdmacounters.core;

/**
 * Formatting of 64-bit GUIDs the way sysfs prints them.
 *
 * @since 0.1.0
 */
public final class Guids {

	private Guids() {
	}

	/**
	 * Format a GUID as four groups of four hex digits, e.g. {@code 0c42:a103:0065:0f2c}.
	 * @param guid the GUID in host byte order
	 * @return the formatted GUID
	 */
	public static String format(long guid) {
		String hex = String.format("%016x", guid);
		return hex.substring(0, 4) + ":" + hex.substring(4, 8) + ":" + hex.substring(8, 12) + ":"
				+ hex.substring(12, 16);
	}

}
