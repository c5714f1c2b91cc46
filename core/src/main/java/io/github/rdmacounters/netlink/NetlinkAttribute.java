package io.github.rdmacounters.netlink;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One attribute ({@code struct nlattr}) of a received message: a view of its payload in
 * the datagram, read in host byte order as netlink writes it.
 *
 * @author rdma-counters
 */
public final class NetlinkAttribute {

	private final ByteBuffer data;

	private final int type;

	private final int offset;

	private final int length;

	NetlinkAttribute(ByteBuffer data, int type, int offset, int length) {
		this.data = data;
		this.type = type;
		this.offset = offset;
		this.length = length;
	}

	/**
	 * Return the attribute's type, without the {@code NLA_F_NESTED} and
	 * {@code NLA_F_NET_BYTEORDER} flags.
	 * @return the type
	 */
	public int type() {
		return this.type;
	}

	/**
	 * Return the length of the payload.
	 * @return the length in bytes, without header or padding
	 */
	public int length() {
		return this.length;
	}

	/**
	 * Read a {@code u8} payload.
	 * @return the value, 0 to 255
	 * @throws NetlinkProtocolException if the payload is shorter
	 */
	public int u8() {
		need(1, "u8");
		return this.data.get(this.offset) & 0xff;
	}

	/**
	 * Read a {@code u16} payload.
	 * @return the value, 0 to 65535
	 * @throws NetlinkProtocolException if the payload is shorter
	 */
	public int u16() {
		need(2, "u16");
		return this.data.getShort(this.offset) & 0xffff;
	}

	/**
	 * Read a {@code u32} payload.
	 * @return the value, 0 to 2<sup>32</sup>-1
	 * @throws NetlinkProtocolException if the payload is shorter
	 */
	public long u32() {
		need(4, "u32");
		return Integer.toUnsignedLong(this.data.getInt(this.offset));
	}

	/**
	 * Read a {@code u64} payload. Values of 2<sup>63</sup> and more are negative: read
	 * them with {@link Long#toUnsignedString(long)} or {@link Long#compareUnsigned}.
	 * @return the value
	 * @throws NetlinkProtocolException if the payload is shorter
	 */
	public long u64() {
		need(8, "u64");
		return this.data.getLong(this.offset);
	}

	/**
	 * Read a string payload, up to its first {@code NUL} (or its end if it has none).
	 * @return the string
	 */
	public String string() {
		int end = this.offset;
		int limit = this.offset + this.length;
		while (end < limit && this.data.get(end) != 0) {
			end++;
		}
		byte[] bytes = new byte[end - this.offset];
		this.data.get(this.offset, bytes);
		return new String(bytes, StandardCharsets.UTF_8);
	}

	/**
	 * Parse the payload as nested attributes.
	 * @return the nested attributes
	 * @throws NetlinkProtocolException if they are malformed
	 */
	public NetlinkAttributes nested() {
		return NetlinkAttributes.parse(this.data, this.offset, this.offset + this.length);
	}

	private void need(int size, String kind) {
		if (this.length < size) {
			throw new NetlinkProtocolException("Netlink attribute " + this.type + " has " + this.length
					+ " bytes of payload; a " + kind + " needs " + size);
		}
	}

	@Override
	public String toString() {
		return "NetlinkAttribute[type=" + this.type + ", length=" + this.length + "]";
	}

}
