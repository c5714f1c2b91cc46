package io.github.rdmacounters.netlink;

import java.nio.ByteBuffer;

/**
 * One received netlink message ({@code struct nlmsghdr} and its payload), a view of the
 * datagram it came in.
 *
 * @author rdma-counters
 */
public final class NetlinkMessage {

	private final ByteBuffer data;

	private final int offset;

	private final int length;

	NetlinkMessage(ByteBuffer data, int offset, int length) {
		this.data = data;
		this.offset = offset;
		this.length = length;
	}

	/**
	 * Return {@code nlmsg_type}.
	 * @return the type
	 */
	public int type() {
		return this.data.getShort(this.offset + 4) & 0xffff;
	}

	/**
	 * Return {@code nlmsg_flags}.
	 * @return the flags
	 */
	public int flags() {
		return this.data.getShort(this.offset + 6) & 0xffff;
	}

	/**
	 * Return {@code nlmsg_seq}.
	 * @return the sequence number
	 */
	public int sequence() {
		return this.data.getInt(this.offset + 8);
	}

	/**
	 * Return {@code nlmsg_pid}: the port id of the socket the message is addressed to.
	 * @return the port id
	 */
	public int portId() {
		return this.data.getInt(this.offset + 12);
	}

	/**
	 * Return the length of the payload.
	 * @return the length, without the header
	 */
	public int payloadLength() {
		return this.length - Netlink.NLMSG_HDRLEN;
	}

	/**
	 * Read an {@code int} of the payload.
	 * @param position its offset in the payload
	 * @return the value
	 */
	public int payloadInt(int position) {
		if (position + 4 > payloadLength()) {
			throw new NetlinkProtocolException("Netlink message of type " + type() + " has " + payloadLength()
					+ " bytes of payload, too few for an int at " + position);
		}
		return this.data.getInt(this.offset + Netlink.NLMSG_HDRLEN + position);
	}

	/**
	 * Read a {@code u8} of the payload, e.g. of a family header.
	 * @param position its offset in the payload
	 * @return the value
	 */
	public int payloadU8(int position) {
		if (position + 1 > payloadLength()) {
			throw new NetlinkProtocolException("Netlink message of type " + type() + " has " + payloadLength()
					+ " bytes of payload, too few for a u8 at " + position);
		}
		return this.data.get(this.offset + Netlink.NLMSG_HDRLEN + position) & 0xff;
	}

	/**
	 * Parse the attributes of the payload that follow a family header.
	 * @param familyHeaderLength the length of the family's fixed header ({@code 0} for
	 * RDMA netlink, {@code sizeof(struct ifinfomsg)} for links); it is
	 * {@code NLMSG_ALIGN}ed
	 * @return the attributes
	 * @throws NetlinkProtocolException if they are malformed
	 */
	public NetlinkAttributes attributes(int familyHeaderLength) {
		int start = this.offset + Netlink.NLMSG_HDRLEN + Netlink.nlmsgAlign(familyHeaderLength);
		int end = this.offset + this.length;
		if (start > end) {
			throw new NetlinkProtocolException("Netlink message of type " + type() + " has " + payloadLength()
					+ " bytes of payload, too few for a family header of " + familyHeaderLength);
		}
		return NetlinkAttributes.parse(this.data, start, end);
	}

	@Override
	public String toString() {
		return "NetlinkMessage[type=" + type() + ", flags=0x" + Integer.toHexString(flags()) + ", seq="
				+ Integer.toUnsignedString(sequence()) + ", length=" + this.length + "]";
	}

}
