package io.github.rdmacounters.core;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Parser of IP address literals that never asks a name service:
 * {@link InetAddress#getByName(String)} resolves whatever is not a literal it knows
 * ({@code 300.1.1.1} goes to the resolver) and accepts forms a user rarely means
 * ({@code 1.2.3} is {@code 1.2.0.3}). Accepted are an IPv4 dotted quad of four decimal
 * octets without leading zeros, and an IPv6 address in the text forms of RFC 4291 section
 * 2.2: eight groups of one to four hex digits, one {@code ::} for one or more zero
 * groups, and a dotted quad in the last 32 bits. Zone ids ({@code fe80::1%eth0}) are
 * refused: a flow matches the address of a packet, which carries no zone.
 *
 * @author rdma-counters
 */
final class IpLiterals {

	private IpLiterals() {
	}

	/**
	 * Parse an address literal.
	 * @param text the literal, exactly as written
	 * @return the address: an {@link java.net.Inet4Address} for a dotted quad, an
	 * {@link Inet6Address} for every IPv6 form (also {@code ::ffff:10.0.0.1}, which stays
	 * IPv6)
	 * @throws IllegalArgumentException whose message says what is wrong, without the text
	 */
	static InetAddress parse(String text) {
		if (text.isEmpty()) {
			throw new IllegalArgumentException("the address is empty");
		}
		for (int i = 0; i < text.length(); i++) {
			if (Character.isWhitespace(text.charAt(i))) {
				throw new IllegalArgumentException("it contains whitespace");
			}
		}
		if (text.indexOf('%') >= 0) {
			throw new IllegalArgumentException(
					"zone ids ('%' and an interface) are not supported: a flow matches addresses only");
		}
		try {
			if (text.indexOf(':') >= 0) {
				return Inet6Address.getByAddress(null, ipv6(text), -1);
			}
			if (isDigitsAndDots(text)) {
				return InetAddress.getByAddress(ipv4(text));
			}
		}
		catch (UnknownHostException ex) {
			// getByAddress only fails for an array of another length
			throw new IllegalStateException(ex);
		}
		throw new IllegalArgumentException("it is not an IPv4 or IPv6 literal (host names are not resolved)");
	}

	private static boolean isDigitsAndDots(String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c != '.' && (c < '0' || c > '9')) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Parse a dotted quad: four decimal octets 0 to 255. A leading zero is refused, since
	 * {@code inet_aton} and tools built on it read {@code 010} as octal 8.
	 */
	private static byte[] ipv4(String text) {
		String[] parts = text.split("\\.", -1);
		if (parts.length != 4) {
			throw new IllegalArgumentException("an IPv4 address has 4 dot-separated octets, not " + parts.length);
		}
		byte[] bytes = new byte[4];
		for (int i = 0; i < 4; i++) {
			String part = parts[i];
			if (part.isEmpty()) {
				throw new IllegalArgumentException("octet " + (i + 1) + " is empty");
			}
			if (!isDigitsAndDots(part)) {
				throw new IllegalArgumentException("octet '" + part + "' is not a decimal number");
			}
			if (part.length() > 1 && part.charAt(0) == '0') {
				throw new IllegalArgumentException(
						"octet '" + part + "' has a leading zero, which some tools read as octal");
			}
			int value = (part.length() > 3) ? 256 : Integer.parseInt(part);
			if (value > 255) {
				throw new IllegalArgumentException("octet '" + part + "' is above 255");
			}
			bytes[i] = (byte) value;
		}
		return bytes;
	}

	private static byte[] ipv6(String text) {
		if (text.contains(":::")) {
			throw new IllegalArgumentException("':::' is not allowed in an IPv6 address");
		}
		int gap = text.indexOf("::");
		if (gap >= 0 && text.indexOf("::", gap + 1) >= 0) {
			throw new IllegalArgumentException("'::' may appear only once in an IPv6 address");
		}
		String head = (gap >= 0) ? text.substring(0, gap) : text;
		String tail = (gap >= 0) ? text.substring(gap + 2) : "";
		int[] headGroups = groups(head, gap < 0);
		int[] tailGroups = groups(tail, true);
		int count = headGroups.length + tailGroups.length;
		if (gap < 0 && count != 8) {
			throw new IllegalArgumentException("an IPv6 address without '::' has 8 groups, not " + count);
		}
		if (gap >= 0 && count > 7) {
			throw new IllegalArgumentException(
					"an IPv6 address with '::' has at most 7 groups besides it, not " + count);
		}
		byte[] bytes = new byte[16];
		for (int i = 0; i < headGroups.length; i++) {
			put(bytes, i, headGroups[i]);
		}
		for (int i = 0; i < tailGroups.length; i++) {
			put(bytes, 8 - tailGroups.length + i, tailGroups[i]);
		}
		return bytes;
	}

	private static void put(byte[] bytes, int group, int value) {
		bytes[2 * group] = (byte) (value >>> 8);
		bytes[2 * group + 1] = (byte) value;
	}

	/**
	 * Parse the groups on one side of {@code ::} (or of a whole address without it); a
	 * dotted quad is allowed as the last item of the address and counts as two groups.
	 */
	private static int[] groups(String side, boolean endsAddress) {
		if (side.isEmpty()) {
			return new int[0];
		}
		String[] parts = side.split(":", -1);
		int dotted = (endsAddress && parts[parts.length - 1].indexOf('.') >= 0) ? 1 : 0;
		int[] groups = new int[parts.length + dotted];
		for (int i = 0; i < parts.length; i++) {
			String part = parts[i];
			if (part.isEmpty()) {
				throw new IllegalArgumentException(
						"a single ':' cannot start or end an IPv6 address, nor can two groups be empty");
			}
			if (dotted == 1 && i == parts.length - 1) {
				byte[] quad = ipv4(part);
				groups[i] = ((quad[0] & 0xFF) << 8) | (quad[1] & 0xFF);
				groups[i + 1] = ((quad[2] & 0xFF) << 8) | (quad[3] & 0xFF);
				continue;
			}
			groups[i] = group(part);
		}
		return groups;
	}

	private static int group(String part) {
		if (part.indexOf('.') >= 0) {
			throw new IllegalArgumentException("'" + part + "': a dotted quad may only end an IPv6 address");
		}
		if (part.length() > 4) {
			throw new IllegalArgumentException("group '" + part + "' has more than 4 hex digits");
		}
		int value = 0;
		for (int i = 0; i < part.length(); i++) {
			char c = part.charAt(i);
			boolean hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
			if (!hex) {
				throw new IllegalArgumentException("group '" + part + "' is not hexadecimal");
			}
			value = (value << 4) | Character.digit(c, 16);
		}
		return value;
	}

}
