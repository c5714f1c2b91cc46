package io.github.rdmacounters.core;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class AddressTests {

	@Test
	void macParsesAndFormatsRoundTrip() {
		MacAddress mac = MacAddress.parse("0C-42-A1-0B-00-FF");
		assertThat(mac.value()).isEqualTo(0x0C42A10B00FFL);
		assertThat(mac).hasToString("0c:42:a1:0b:00:ff");
		assertThat(mac.octets()).containsExactly(0x0C, 0x42, 0xA1, 0x0B, 0x00, 0xFF);
	}

	@Test
	void malformedMacNamesTheValueAndTheExpectedForm() {
		assertThatIllegalArgumentException().isThrownBy(() -> MacAddress.parse("0c:42:a1:0b:00"))
			.withMessageContaining("'0c:42:a1:0b:00' is not a MAC address")
			.withMessageContaining("02:00:5e:10:00:01");
		assertThatIllegalArgumentException().isThrownBy(() -> MacAddress.parse("zz:42:a1:0b:00:01"));
	}

	@Test
	void macIsAcceptedOnlyAsWritten() {
		assertThat(MacAddress.parse("2:0:5e:10:0:1")).isEqualTo(MacAddress.parse("02:00:5e:10:00:01"));
		for (String text : List.of("", " 02:00:5e:10:00:01", "02:00:5e:10:00:01 ", "02:00-5e:10:00:01",
				"02:00:5e:10:00:01:", "02:00:5e:10::01", "002:00:5e:10:00:01", "02:00:5e:10:00:01:02",
				"\uff10\uff12:00:5e:10:00:01", "+2:00:5e:10:00:01", "02.00.5e.10.00.01", "0200.5e10.0001")) {
			assertThatIllegalArgumentException().as(text)
				.isThrownBy(() -> MacAddress.parse(text))
				.withMessageStartingWith("'" + text + "' is not a MAC address");
		}
	}

	@Test
	void prefixWithoutLengthIsAHostPrefix() {
		assertThat(IpPrefix.parse("10.1.2.3").prefixLength()).isEqualTo(32);
		assertThat(IpPrefix.parse("fd00::1").prefixLength()).isEqualTo(128);
	}

	@Test
	void prefixMaskCoversThePrefixBits() {
		assertThat(IpPrefix.parse("10.0.0.0/12").mask()).containsExactly(0xFF, 0xF0, 0x00, 0x00);
		assertThat(IpPrefix.parse("fd00::/0").mask()).containsOnly(0);
	}

	@Test
	void prefixLengthOutOfRangeIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> IpPrefix.parse("10.0.0.0/33"))
			.withMessage("Prefix length of 10.0.0.0 must be 0 to 32, but was 33");
	}

	@Test
	void networkClearsTheHostBits() {
		assertThat(IpPrefix.parse("10.0.0.1/24").network()).hasToString("10.0.0.0/24");
		assertThat(IpPrefix.parse("10.0.0.1/0").network()).hasToString("0.0.0.0/0");
		assertThat(IpPrefix.parse("192.168.1.255/25").network()).hasToString("192.168.1.128/25");
		assertThat(IpPrefix.parse("fd00::1/64").network()).hasToString("fd00::/64");
		IpPrefix network = IpPrefix.parse("10.0.0.0/24");
		assertThat(network.network()).isSameAs(network);
	}

	@Test
	void ipv6IsFormattedCompactly() {
		assertThat(IpPrefix.parse("fd00:0:0:0:0:0:0:1/64")).hasToString("fd00::1/64");
		assertThat(IpPrefix.parse("::/0")).hasToString("::/0");
		assertThat(IpPrefix.parse("2001:db8:0:1:0:0:0:0/128")).hasToString("2001:db8:0:1::/128");
		assertThat(IpPrefix.parse("fd00:1:0:2:3:4:5:6")).hasToString("fd00:1:0:2:3:4:5:6/128");
	}

	@Test
	void hostNamesAreRejectedWithoutALookup() {
		assertThatIllegalArgumentException().isThrownBy(() -> IpPrefix.parse("example.org/24"))
			.withMessageContaining("no host names");
		assertThatIllegalArgumentException().isThrownBy(() -> IpPrefix.parse("10.0.0/24"));
	}

	@Test
	void bracketsOfAUrlAreRefusedWithTheAddressWithoutThem() {
		assertThatIllegalArgumentException().isThrownBy(() -> IpPrefix.parse("[fd00::1]"))
			.withMessage("'[fd00::1]' is not an IP address or prefix: write it without the brackets of a URL, "
					+ "e.g. fd00::1");
		assertThatIllegalArgumentException().isThrownBy(() -> IpPrefix.parse("[fd00::]/64"))
			.withMessageEndingWith("e.g. fd00::/64");
		assertThatIllegalArgumentException().isThrownBy(() -> IpPrefix.parse("[fd00::1"))
			.withMessageContaining("no host names");
	}

	@Test
	void guidIsFormattedAsSysfsPrintsIt() {
		assertThat(Guids.format(0x0c42a10300650f2cL)).isEqualTo("0c42:a103:0065:0f2c");
		assertThat(new DeviceId("mlx5_0", 1L).formattedGuid()).isEqualTo("0000:0000:0000:0001");
	}

	@Test
	void errnoNamesAndMessagesFollowGlibc() {
		RdmaOperationException ex = new RdmaOperationException("ibv_create_counters", Errno.EOPNOTSUPP);
		assertThat(ex).hasMessage("ibv_create_counters failed: EOPNOTSUPP (95) Operation not supported");
		assertThat(ex.errnoName()).isEqualTo("EOPNOTSUPP");
		assertThat(new RdmaOperationException("ibv_read_counters", 200, "why"))
			.hasMessage("ibv_read_counters failed: errno 200 (Unknown error 200): why");
	}

	@Test
	void portAttributesDeriveRateAndNames() {
		PortAttributes edr = new PortAttributes(1, PortState.ACTIVE, 5, LinkLayer.INFINIBAND, 4096, 32, 2);
		assertThat(edr.rateGbps()).isEqualTo(100.0);
		assertThat(edr.physicalStateName()).isEqualTo("LinkUp");
		assertThat(PortState.of(4)).isEqualTo(PortState.ACTIVE);
		assertThat(PortState.of(99)).isEqualTo(PortState.NOP);
		assertThat(LinkLayer.of(2)).isEqualTo(LinkLayer.ETHERNET);
	}

	@Test
	void valueOfParsesAsParseDoesSoThatConvertersFindIt() {
		assertThat(IpPrefix.valueOf("10.0.0.0/24")).isEqualTo(IpPrefix.parse("10.0.0.0/24"));
		assertThat(MacAddress.valueOf("02:00:5e:10:00:01")).isEqualTo(MacAddress.parse("02:00:5e:10:00:01"));
		assertThatIllegalArgumentException().isThrownBy(() -> IpPrefix.valueOf("10.0.0.0/33"))
			.withMessage("Prefix length of 10.0.0.0 must be 0 to 32, but was 33");
		assertThatIllegalArgumentException().isThrownBy(() -> MacAddress.valueOf("02:00"))
			.withMessageContaining("'02:00' is not a MAC address");
	}

}
