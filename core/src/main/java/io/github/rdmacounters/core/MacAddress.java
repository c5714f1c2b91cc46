package io.github.rdmacounters.core;

import java.util.Locale;

/**
 * A 48-bit Ethernet MAC address.
 *
 * @param value the address in the low 48 bits, first octet most significant
 * @since 0.1.0
 */
public record MacAddress(long value) {

	public MacAddress {
		if ((value & ~0xFFFF_FFFF_FFFFL) != 0) {
			throw new IllegalArgumentException("A MAC address has 48 bits, but was 0x" + Long.toHexString(value));
		}
	}

	/**
	 * Parse {@code aa:bb:cc:dd:ee:ff} (or with dashes): six octets of one or two ASCII
	 * hex digits, as {@code ether_aton} reads them, all separated by the same character.
	 * Nothing is trimmed.
	 * @param text the address
	 * @return the address
	 * @throws IllegalArgumentException naming the text as written if it is not a MAC
	 * address
	 */
	public static MacAddress parse(String text) {
		char separator = (text.indexOf('-') >= 0) ? '-' : ':';
		String[] parts = text.split((separator == '-') ? "-" : ":", -1);
		if (parts.length != 6) {
			throw invalid(text);
		}
		long value = 0;
		for (String part : parts) {
			if (part.isEmpty() || part.length() > 2) {
				throw invalid(text);
			}
			for (int i = 0; i < part.length(); i++) {
				char c = part.charAt(i);
				boolean hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
				if (!hex) {
					throw invalid(text);
				}
			}
			value = (value << 8) | Integer.parseInt(part, 16);
		}
		return new MacAddress(value);
	}

	private static IllegalArgumentException invalid(String text) {
		return new IllegalArgumentException("'" + text
				+ "' is not a MAC address; expected six hex octets such as 02:00:5e:10:00:01, all separated by"
				+ " ':' or all by '-'");
	}

	/**
	 * Parse a MAC address; the name lets Spring's conversion and Boot's binder use it.
	 */
	public static MacAddress valueOf(String text) {
		return parse(text);
	}

	/** Return the six octets, first octet first. */
	public byte[] octets() {
		byte[] octets = new byte[6];
		for (int i = 0; i < 6; i++) {
			octets[i] = (byte) (this.value >>> (8 * (5 - i)));
		}
		return octets;
	}

	@Override
	public String toString() {
		byte[] octets = octets();
		StringBuilder text = new StringBuilder(17);
		for (int i = 0; i < 6; i++) {
			if (i > 0) {
				text.append(':');
			}
			text.append(String.format(Locale.ROOT, "%02x", octets[i] & 0xFF));
		}
		return text.toString();
	}

}
