package io.github.rdmacounters.netlink;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A request to send: a message type, an optional family header and attributes, encoded as
 * the kernel's {@code nlmsg_put} and {@code nla_put} lay them out (each attribute
 * {@code NLA_ALIGN}ed, nested attributes with {@code NLA_F_NESTED} and a length that
 * covers their content, strings {@code NUL}-terminated). The header's length, flags,
 * sequence number and port id are filled in when it is sent.
 *
 * @author rdma-counters
 */
public final class NetlinkRequest {

	private final int type;

	private final String description;

	private final byte[] body;

	private NetlinkRequest(int type, String description, byte[] body) {
		this.type = type;
		this.description = description;
		this.body = body;
	}

	/**
	 * Start a request.
	 * @param type the message type
	 * @param description what the request is, for messages, e.g.
	 * {@code RDMA_NLDEV_CMD_STAT_GET of mlx5_0 port 1}
	 * @return a builder
	 */
	public static Builder builder(int type, String description) {
		return new Builder(type, description);
	}

	/**
	 * Return the message type.
	 * @return the type
	 */
	public int type() {
		return this.type;
	}

	/**
	 * Return the description.
	 * @return what the request is
	 */
	public String description() {
		return this.description;
	}

	/**
	 * Encode the request.
	 * @param flags {@code nlmsg_flags}
	 * @param sequence {@code nlmsg_seq}
	 * @param portId {@code nlmsg_pid}
	 * @return the message bytes
	 */
	public byte[] encode(int flags, int sequence, int portId) {
		int length = Netlink.NLMSG_HDRLEN + this.body.length;
		ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.nativeOrder());
		buffer.putInt(length).putShort((short) this.type).putShort((short) flags).putInt(sequence).putInt(portId);
		buffer.put(this.body);
		return buffer.array();
	}

	@Override
	public String toString() {
		return this.description;
	}

	/**
	 * Builds a {@link NetlinkRequest}.
	 */
	public static final class Builder {

		private final int type;

		private final String description;

		private ByteBuffer body = ByteBuffer.allocate(64).order(ByteOrder.nativeOrder());

		private Builder(int type, String description) {
			this.type = type;
			this.description = description;
		}

		/**
		 * Append a family's fixed header, e.g. {@code struct ifinfomsg}, padded to
		 * {@code NLMSG_ALIGN}; it must come before any attribute.
		 * @param header the header bytes in host order
		 * @return this builder
		 */
		public Builder familyHeader(byte[] header) {
			if (this.body.position() != 0) {
				throw new IllegalStateException("The family header must come before the attributes");
			}
			ensure(Netlink.nlmsgAlign(header.length));
			this.body.put(header);
			pad();
			return this;
		}

		/**
		 * Append a {@code u8} attribute.
		 * @param attributeType the type
		 * @param value the value, 0 to 255
		 * @return this builder
		 */
		public Builder u8(int attributeType, int value) {
			header(attributeType, 1);
			this.body.put((byte) value);
			pad();
			return this;
		}

		/**
		 * Append a {@code u32} attribute.
		 * @param attributeType the type
		 * @param value the value, 0 to 2<sup>32</sup>-1
		 * @return this builder
		 */
		public Builder u32(int attributeType, long value) {
			if (value < 0 || value > 0xffffffffL) {
				throw new IllegalArgumentException("A u32 attribute cannot hold " + value);
			}
			header(attributeType, 4);
			this.body.putInt((int) value);
			return this;
		}

		/**
		 * Append a {@code u64} attribute.
		 * @param attributeType the type
		 * @param value the value
		 * @return this builder
		 */
		public Builder u64(int attributeType, long value) {
			header(attributeType, 8);
			this.body.putLong(value);
			return this;
		}

		/**
		 * Append a {@code NUL}-terminated string attribute, as {@code nla_put_string}
		 * does.
		 * @param attributeType the type
		 * @param value the string
		 * @return this builder
		 */
		public Builder string(int attributeType, String value) {
			byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
			header(attributeType, bytes.length + 1);
			this.body.put(bytes).put((byte) 0);
			pad();
			return this;
		}

		/**
		 * Append a nested attribute ({@code nla_nest_start}, the content,
		 * {@code nla_nest_end}).
		 * @param attributeType the type
		 * @param content appends the nested attributes
		 * @return this builder
		 */
		public Builder nested(int attributeType, Consumer<Builder> content) {
			int start = this.body.position();
			header(attributeType | Netlink.NLA_F_NESTED, 0);
			content.accept(this);
			this.body.putShort(start, (short) (this.body.position() - start));
			return this;
		}

		/**
		 * Build the request.
		 * @return the request
		 */
		public NetlinkRequest build() {
			return new NetlinkRequest(this.type, this.description,
					Arrays.copyOf(this.body.array(), this.body.position()));
		}

		private void header(int attributeType, int payloadLength) {
			int length = Netlink.NLA_HDRLEN + payloadLength;
			if (length > 0xffff) {
				throw new IllegalArgumentException("A netlink attribute cannot hold " + payloadLength + " bytes");
			}
			ensure(Netlink.nlaAlign(length));
			this.body.putShort((short) length).putShort((short) attributeType);
		}

		private void pad() {
			while (this.body.position() % Netlink.NLA_ALIGNTO != 0) {
				this.body.put((byte) 0);
			}
		}

		private void ensure(int bytes) {
			if (this.body.remaining() < bytes) {
				ByteBuffer larger = ByteBuffer
					.allocate(Math.max(this.body.capacity() * 2, this.body.position() + bytes))
					.order(ByteOrder.nativeOrder());
				this.body.flip();
				larger.put(this.body);
				this.body = larger;
			}
		}

	}

}
