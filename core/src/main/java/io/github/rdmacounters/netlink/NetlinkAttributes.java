package io.github.rdmacounters.netlink;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A run of attributes, each {@code NLA_ALIGN}ed after the previous one, as the kernel's
 * {@code nla_for_each_attr} walks them.
 *
 * @author rdma-counters
 */
public final class NetlinkAttributes {

	private final List<NetlinkAttribute> attributes;

	private NetlinkAttributes(List<NetlinkAttribute> attributes) {
		this.attributes = attributes;
	}

	/**
	 * Parse the attributes between two offsets of a buffer.
	 * @param data the buffer, in host byte order
	 * @param start the offset of the first attribute
	 * @param end the offset just after the last one
	 * @return the attributes
	 * @throws NetlinkProtocolException if an attribute's length is shorter than its
	 * header or runs past the end
	 */
	static NetlinkAttributes parse(ByteBuffer data, int start, int end) {
		List<NetlinkAttribute> attributes = new ArrayList<>();
		int position = start;
		// a trailing remainder shorter than a header is padding (nla_ok)
		while (end - position >= Netlink.NLA_HDRLEN) {
			int length = data.getShort(position) & 0xffff;
			int type = data.getShort(position + 2) & Netlink.NLA_TYPE_MASK;
			if (length < Netlink.NLA_HDRLEN || length > end - position) {
				throw new NetlinkProtocolException("Malformed netlink attribute of type " + type + " at offset "
						+ position + ": its length " + length + " does not fit between " + Netlink.NLA_HDRLEN
						+ " and the " + (end - position) + " bytes left");
			}
			attributes
				.add(new NetlinkAttribute(data, type, position + Netlink.NLA_HDRLEN, length - Netlink.NLA_HDRLEN));
			position += Netlink.nlaAlign(length);
		}
		return new NetlinkAttributes(attributes);
	}

	/**
	 * Return the first attribute of a type.
	 * @param type the type
	 * @return the attribute, or {@code null} if there is none
	 */
	public @Nullable NetlinkAttribute get(int type) {
		for (NetlinkAttribute attribute : this.attributes) {
			if (attribute.type() == type) {
				return attribute;
			}
		}
		return null;
	}

	/**
	 * Return the first attribute of a type that must be present.
	 * @param type the type
	 * @param what what the attribute is, for the error message, e.g.
	 * {@code RDMA_NLDEV_ATTR_DEV_INDEX}
	 * @return the attribute
	 * @throws NetlinkProtocolException if there is none
	 */
	public NetlinkAttribute require(int type, String what) {
		NetlinkAttribute attribute = get(type);
		if (attribute == null) {
			throw new NetlinkProtocolException("The netlink reply has no " + what + " attribute (" + type + ")");
		}
		return attribute;
	}

	/**
	 * Return every attribute of a type, in order.
	 * @param type the type
	 * @return the attributes
	 */
	public List<NetlinkAttribute> getAll(int type) {
		List<NetlinkAttribute> all = new ArrayList<>();
		for (NetlinkAttribute attribute : this.attributes) {
			if (attribute.type() == type) {
				all.add(attribute);
			}
		}
		return all;
	}

	/**
	 * Return every attribute, in order.
	 * @return the attributes
	 */
	public List<NetlinkAttribute> all() {
		return Collections.unmodifiableList(this.attributes);
	}

	@Override
	public String toString() {
		return this.attributes.toString();
	}

}
