package io.github.rdmacounters.core;

/**
 * Formats a 64-bit GUID as sysfs prints it, e.g. {@code 0c42:a103:0065:0f2c}.
 */
final class Guids {

	private Guids() {
	}

	static String format(long guid) {
		String hex = String.format("%016x", guid);
		return hex.substring(0, 4) + ":" + hex.substring(4, 8) + ":" + hex.substring(8, 12) + ":"
				+ hex.substring(12, 16);
	}

}
