package io.github.rdmacounters.netlink;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for the encoding of {@link NetlinkRequest} and the decoding of
 * {@link NetlinkMessage} and {@link NetlinkAttributes}.
 *
 * @author rdma-counters
 */
class NetlinkFramingTests {

	@Test
	void encodeLaysOutHeaderAndAlignedAttributes() {
		byte[] bytes = NetlinkRequest.builder(0x1234, "test")
			.u8(1, 7)
			.string(2, "mlx5_0")
			.u32(3, 0xfffffffeL)
			.u64(4, -2L)
			.build()
			.encode(Netlink.NLM_F_REQUEST | Netlink.NLM_F_ACK, 42, 0);
		ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
		// header 16, u8 4+1 padded to 8, "mlx5_0\0" 4+7 padded to 12, u32 8, u64 12
		assertThat(bytes).hasSize(16 + 8 + 12 + 8 + 12);
		assertThat(buffer.getInt(0)).isEqualTo(bytes.length);
		assertThat(buffer.getShort(4)).isEqualTo((short) 0x1234);
		assertThat(buffer.getShort(6)).isEqualTo((short) 5);
		assertThat(buffer.getInt(8)).isEqualTo(42);
		assertThat(buffer.getShort(16)).isEqualTo((short) 5);
		assertThat(buffer.get(20)).isEqualTo((byte) 7);
		assertThat(buffer.get(21)).isZero();
		assertThat(buffer.getShort(24)).isEqualTo((short) 11);
		assertThat(buffer.get(34)).isZero();
	}

	@Test
	void attributesRoundTripIncludingNestedOnes() {
		NetlinkMessage message = message(NetlinkRequest.builder(20, "test")
			.u32(1, 3)
			.nested(80,
					(table) -> table.nested(81, (entry) -> entry.string(82, "cc_rx_ce_pkts").u64(83, 1L << 40))
						.nested(81, (entry) -> entry.string(82, "rnr").u64(83, 0)))
			.u8(95, 1)
			.build());
		NetlinkAttributes attributes = message.attributes(0);
		assertThat(attributes.require(1, "one").u32()).isEqualTo(3);
		assertThat(attributes.require(95, "dynamic").u8()).isEqualTo(1);
		List<NetlinkAttribute> entries = attributes.require(80, "table").nested().getAll(81);
		assertThat(entries).hasSize(2);
		assertThat(entries.get(0).nested().require(82, "name").string()).isEqualTo("cc_rx_ce_pkts");
		assertThat(entries.get(0).nested().require(83, "value").u64()).isEqualTo(1L << 40);
		assertThat(entries.get(1).nested().require(82, "name").string()).isEqualTo("rnr");
		assertThat(attributes.get(2)).isNull();
	}

	@Test
	void nestedAttributeCarriesTheNestedFlagWhichDecodingMasks() {
		byte[] bytes = NetlinkRequest.builder(20, "test")
			.nested(80, (table) -> table.u32(94, 2))
			.build()
			.encode(0, 1, 0);
		ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
		assertThat(buffer.getShort(16)).isEqualTo((short) 12);
		assertThat(buffer.getShort(18) & 0xffff).isEqualTo(80 | Netlink.NLA_F_NESTED);
		assertThat(message(bytes).attributes(0).require(80, "table").nested().require(94, "index").u32()).isEqualTo(2);
	}

	@Test
	void familyHeaderIsSkippedBeforeTheAttributes() {
		NetlinkMessage message = message(
				NetlinkRequest.builder(16, "link").familyHeader(new byte[] { 1, 2, 3 }).u32(4, 1500).build());
		assertThat(message.payloadU8(1)).isEqualTo(2);
		assertThat(message.attributes(3).require(4, "mtu").u32()).isEqualTo(1500);
	}

	@Test
	void anAttributeRunningPastItsMessageIsAProtocolError() {
		byte[] bytes = NetlinkRequest.builder(20, "test").u32(1, 3).build().encode(0, 1, 0);
		ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).putShort(16, (short) 12);
		assertThatExceptionOfType(NetlinkProtocolException.class).isThrownBy(() -> message(bytes).attributes(0))
			.withMessage("Malformed netlink attribute of type 1 at offset 16: its length 12 does not fit between 4 "
					+ "and the 8 bytes left");
	}

	@Test
	void readingAU64FromAShorterAttributeIsAProtocolError() {
		NetlinkAttribute attribute = message(NetlinkRequest.builder(20, "test").u32(83, 3).build()).attributes(0)
			.require(83, "value");
		assertThatExceptionOfType(NetlinkProtocolException.class).isThrownBy(attribute::u64)
			.withMessage("Netlink attribute 83 has 4 bytes of payload; a u64 needs 8");
	}

	@Test
	void aMissingRequiredAttributeIsAProtocolError() {
		NetlinkAttributes attributes = message(NetlinkRequest.builder(20, "test").build()).attributes(0);
		assertThatExceptionOfType(NetlinkProtocolException.class)
			.isThrownBy(() -> attributes.require(1, "RDMA_NLDEV_ATTR_DEV_INDEX"))
			.withMessage("The netlink reply has no RDMA_NLDEV_ATTR_DEV_INDEX attribute (1)");
	}

	private static NetlinkMessage message(NetlinkRequest request) {
		return message(request.encode(0, 1, 0));
	}

	private static NetlinkMessage message(byte[] bytes) {
		return new NetlinkMessage(ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()), 0, bytes.length);
	}

}
