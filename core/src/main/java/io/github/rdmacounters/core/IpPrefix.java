package io.github.rdmacounters.core;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * An IPv4 or IPv6 address with a prefix length, e.g. {@code 192.168.10.0/24}.
 *
 * @param address the address; host bits beyond the prefix are kept as given (a flow
 * refuses them, see {@link FlowSpec.Builder#destinationIp})
 * @param prefixLength the prefix length (0 to 32 for IPv4, 0 to 128 for IPv6)
 * @since 0.1.0
 */
public record IpPrefix(InetAddress address, int prefixLength) {

	public IpPrefix {
		int max = bits(address);
		if (prefixLength < 0 || prefixLength > max) {
			throw new IllegalArgumentException(
					"Prefix length of " + format(address) + " must be 0 to " + max + ", but was " + prefixLength);
		}
	}

	/**
	 * Parse {@code address} or {@code address/length}; a plain address is a host prefix.
	 * Only literal addresses are accepted and no name service is asked: an IPv4 dotted
	 * quad without leading zeros or an IPv6 address in one of RFC 4291's text forms,
	 * without a zone id (see {@link IpLiterals}); the length is decimal digits. Nothing
	 * is trimmed.
	 * @param text the prefix
	 * @return the prefix
	 * @throws IllegalArgumentException naming the text as written and what is wrong with
	 * it
	 */
	public static IpPrefix parse(String text) {
		int slash = text.indexOf('/');
		String addressText = (slash >= 0) ? text.substring(0, slash) : text;
		InetAddress address;
		try {
			address = IpLiterals.parse(addressText);
		}
		catch (IllegalArgumentException ex) {
			if (addressText.startsWith("[") && addressText.endsWith("]")) {
				// the brackets of an IPv6 address in a URL
				throw new IllegalArgumentException("'" + text + "' is not an IP address or prefix: write it without "
						+ "the brackets of a URL, e.g. " + addressText.substring(1, addressText.length() - 1)
						+ ((slash >= 0) ? text.substring(slash) : ""));
			}
			throw new IllegalArgumentException("'" + text + "' is not an IP address or prefix: " + ex.getMessage()
					+ "; expected e.g. 192.168.10.0/24 or fd00::/64 (no host names)");
		}
		if (slash < 0) {
			return checkNotMapped(text, new IpPrefix(address, bits(address)));
		}
		String lengthText = text.substring(slash + 1);
		boolean digits = !lengthText.isEmpty() && lengthText.chars().allMatch((c) -> c >= '0' && c <= '9');
		if (!digits) {
			throw new IllegalArgumentException("'" + text + "' has no valid prefix length after '/': expected 0 to "
					+ bits(address) + ", e.g. " + (isIpv4(address) ? "192.168.10.0/24" : "fd00::/64"));
		}
		if (lengthText.length() > 3) {
			throw new IllegalArgumentException("Prefix length of " + format(address) + " must be 0 to " + bits(address)
					+ ", but was " + lengthText);
		}
		return checkNotMapped(text, new IpPrefix(address, Integer.parseInt(lengthText)));
	}

	/**
	 * Refuse a prefix inside {@code ::ffff:0:0/96}: an IPv4-mapped address stands for an
	 * IPv4 node in an IPv6 socket (RFC 4291 2.5.5.2) and is not seen on the wire, and an
	 * IPv6 rule matches only IPv6 packets (mlx5_ib's parse_flow_attr matches ip_version
	 * 6), so IPv4 traffic would never match it.
	 */
	private static IpPrefix checkNotMapped(String text, IpPrefix prefix) {
		byte[] bytes = prefix.address.getAddress();
		if (bytes.length != 16 || prefix.prefixLength < 96) {
			return prefix;
		}
		for (int i = 0; i < 10; i++) {
			if (bytes[i] != 0) {
				return prefix;
			}
		}
		if (bytes[10] != (byte) 0xFF || bytes[11] != (byte) 0xFF) {
			return prefix;
		}
		byte[] ipv4 = { bytes[12], bytes[13], bytes[14], bytes[15] };
		String suggestion;
		try {
			suggestion = InetAddress.getByAddress(ipv4).getHostAddress() + "/" + (prefix.prefixLength - 96);
		}
		catch (UnknownHostException ex) {
			throw new IllegalStateException(ex);
		}
		throw new IllegalArgumentException("'" + text + "' is an IPv4-mapped IPv6 prefix, which IPv4 traffic "
				+ "never matches: the NIC matches IPv4 packets by their IPv4 header; write the IPv4 prefix "
				+ suggestion);
	}

	/**
	 * Parse {@code address} or {@code address/length}, as {@link #parse(String)} does.
	 * Named so that Spring's conversion service and Spring Boot's property binding turn a
	 * configured string into a prefix; a bad value is then reported by the binder with
	 * the property and its origin.
	 * @param text the prefix
	 * @return the prefix
	 * @throws IllegalArgumentException if the text is not a numeric address with an
	 * optional prefix length
	 * @since 0.1.0
	 */
	public static IpPrefix valueOf(String text) {
		return parse(text);
	}

	private static int bits(InetAddress address) {
		return isIpv4(address) ? 32 : 128;
	}

	private static boolean isIpv4(InetAddress address) {
		return address instanceof Inet4Address;
	}

	/**
	 * Return whether this is an IPv4 prefix.
	 * @return {@code true} for IPv4
	 */
	public boolean isIpv4() {
		return this.address instanceof Inet4Address;
	}

	/**
	 * Return the network mask as bytes of the address' length.
	 * @return the mask
	 */
	public byte[] mask() {
		byte[] mask = new byte[bits(this.address) / 8];
		for (int i = 0; i < this.prefixLength; i++) {
			mask[i / 8] |= (byte) (0x80 >>> (i % 8));
		}
		return mask;
	}

	/**
	 * Return the network of this prefix: its address with the bits after the prefix
	 * cleared, e.g. {@code 10.0.0.0/24} for {@code 10.0.0.1/24}.
	 * @return the network, equal to this prefix if it has no host bits
	 */
	public IpPrefix network() {
		byte[] bytes = this.address.getAddress();
		byte[] mask = mask();
		boolean hostBits = false;
		for (int i = 0; i < bytes.length; i++) {
			hostBits |= (bytes[i] & ~mask[i]) != 0;
			bytes[i] &= mask[i];
		}
		if (!hostBits) {
			return this;
		}
		try {
			return new IpPrefix(InetAddress.getByAddress(bytes), this.prefixLength);
		}
		catch (UnknownHostException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Return whether an address lies in this prefix.
	 * @param candidate the address
	 * @return {@code true} if the families agree and the first {@code prefixLength} bits
	 * are equal
	 */
	public boolean contains(InetAddress candidate) {
		byte[] own = this.address.getAddress();
		byte[] other = candidate.getAddress();
		if (own.length != other.length) {
			return false;
		}
		byte[] mask = mask();
		for (int i = 0; i < own.length; i++) {
			if ((own[i] & mask[i]) != (other[i] & mask[i])) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Format an address compactly: dotted quad for IPv4, RFC 5952 form for IPv6 (longest
	 * run of zero groups as {@code ::}).
	 * @param address the address
	 * @return the text
	 */
	public static String format(InetAddress address) {
		byte[] bytes = address.getAddress();
		if (bytes.length == 4) {
			return address.getHostAddress();
		}
		int[] groups = new int[8];
		for (int i = 0; i < 8; i++) {
			groups[i] = ((bytes[2 * i] & 0xFF) << 8) | (bytes[2 * i + 1] & 0xFF);
		}
		int bestStart = -1;
		int bestLength = 1;
		for (int i = 0; i < 8;) {
			int j = i;
			while (j < 8 && groups[j] == 0) {
				j++;
			}
			if (j - i > bestLength) {
				bestStart = i;
				bestLength = j - i;
			}
			i = (j == i) ? i + 1 : j;
		}
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < 8; i++) {
			if (i == bestStart) {
				text.append("::");
				i += bestLength - 1;
				continue;
			}
			if (text.length() > 0 && text.charAt(text.length() - 1) != ':') {
				text.append(':');
			}
			text.append(Integer.toHexString(groups[i]));
		}
		return text.toString();
	}

	@Override
	public String toString() {
		return format(this.address) + "/" + this.prefixLength;
	}

}
