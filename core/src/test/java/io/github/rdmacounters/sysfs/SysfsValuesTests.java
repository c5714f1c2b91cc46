package io.github.rdmacounters.sysfs;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.PhysicalPortState;
import io.github.rdmacounters.core.PortLink;
import io.github.rdmacounters.core.PortRate;
import io.github.rdmacounters.core.PortState;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SysfsValues} and the parsing of the texts sysfs prints for a port.
 */
class SysfsValuesTests {

	@Test
	void parseCounterAcceptsUnsignedDecimalsOnly() {
		assertThat(SysfsValues.parseCounter("0")).isZero();
		assertThat(SysfsValues.parseCounter("123456789012")).isEqualTo(123_456_789_012L);
		assertThat(SysfsValues.parseCounter("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
		assertThat(SysfsValues.parseCounter("9223372036854775808")).isEqualTo(Long.MIN_VALUE);
		assertThat(SysfsValues.parseCounter("18446744073709551615")).isEqualTo(-1L);
		assertThat(SysfsValues.parseCounter("18446744073709551616")).isNull();
		assertThat(SysfsValues.parseCounter("+1")).isNull();
		assertThat(SysfsValues.parseCounter("N/A (no PMA)")).isNull();
		assertThat(SysfsValues.parseCounter("")).isNull();
		assertThat(SysfsValues.parseCounter("-1")).isNull();
		assertThat(SysfsValues.parseCounter("0x10")).isNull();
		assertThat(SysfsValues.parseCounter("99999999999999999999999")).isNull();
	}

	@Test
	void parseCounterFromBytesAgreesWithTheTrimmedText() {
		for (String text : List.of("0\n", "123456789012\n", " 42 ", "999999999999999999\n", "9223372036854775807\n",
				"9223372036854775808\n", "18446744073709551615\n", "18446744073709551616\n", "N/A (no PMA)\n", "\n", "",
				"-1\n", "0x10\n", "4 2\n", "99999999999999999999999\n", "\u00b2\n")) {
			byte[] bytes = (text + "garbage").getBytes(StandardCharsets.UTF_8);
			int length = text.getBytes(StandardCharsets.UTF_8).length;
			assertThat(SysfsValues.parseCounter(bytes, length)).as(text)
				.isEqualTo(SysfsValues.parseCounter(text.trim()));
		}
		assertThat(SysfsValues.parseCounter("18446744073709551615\n".getBytes(StandardCharsets.US_ASCII), 21))
			.isEqualTo(-1L);
		assertThat(SysfsValues.parseCounter("42\n".getBytes(StandardCharsets.US_ASCII), 3)).isEqualTo(42L);
	}

	@Test
	void stripNumberKeepsTheNameAfterTheColon() {
		assertThat(SysfsValues.stripNumber("4: ACTIVE")).isEqualTo("ACTIVE");
		assertThat(SysfsValues.stripNumber("5: LinkUp")).isEqualTo("LinkUp");
		assertThat(SysfsValues.stripNumber("7: Phy Test")).isEqualTo("Phy Test");
		assertThat(SysfsValues.stripNumber("ACTIVE")).isEqualTo("ACTIVE");
		assertThat(SysfsValues.stripNumber("4:")).isNull();
		assertThat(SysfsValues.stripNumber(null)).isNull();
	}

	@Test
	void statesAreParsedFromTheKernelNumberOrTheName() {
		assertThat(PortLink.parse("4: ACTIVE", null, null, null).state()).isEqualTo(PortState.ACTIVE);
		assertThat(PortLink.parse("1: DOWN", null, null, null).state()).isEqualTo(PortState.DOWN);
		assertThat(PortLink.parse("5: ACTIVE_DEFER", null, null, null).state()).isEqualTo(PortState.ACTIVE_DEFER);
		assertThat(PortLink.parse("ACTIVE", null, null, null).state()).isEqualTo(PortState.ACTIVE);
		assertThat(PortLink.parse("9: <unknown>", null, null, null).state()).isNull();
		assertThat(PortLink.parse("weird", null, null, null).state()).isNull();
		assertThat(PortLink.parse(null, "5: LinkUp", null, null).physicalState()).isEqualTo(PhysicalPortState.LINK_UP);
		assertThat(PortLink.parse(null, "3: Disabled", null, null).physicalState())
			.isEqualTo(PhysicalPortState.DISABLED);
		assertThat(PortLink.parse(null, "7: Phy Test", null, null).physicalState())
			.isEqualTo(PhysicalPortState.PHY_TEST);
		assertThat(PortLink.parse(null, "Polling", null, null).physicalState()).isEqualTo(PhysicalPortState.POLLING);
		assertThat(PortLink.parse(null, "0: <unknown>", null, null).physicalState()).isNull();
		assertThat(PortLink.parse(null, null, null, "Ethernet").linkLayer()).isEqualTo(LinkLayer.ETHERNET);
		assertThat(PortLink.parse(null, null, null, "InfiniBand").linkLayer()).isEqualTo(LinkLayer.INFINIBAND);
		assertThat(PortLink.parse(null, null, null, "Unknown").linkLayer()).isNull();
		assertThat(PortLink.parse(null, null, null, null)).isEqualTo(PortLink.UNKNOWN);
	}

	@Test
	void rateIsParsedOnceIntoBitsAndBytesPerSecond() {
		PortRate edr = PortRate.parse("100 Gb/sec (4X EDR)");
		assertThat(edr.bitsPerSecond()).isEqualTo(100e9);
		assertThat(edr.bytesPerSecond()).isEqualTo(12.5e9);
		assertThat(edr.text()).isEqualTo("100 Gb/sec (4X EDR)");
		assertThat(PortRate.parse("2.5 Gb/sec (1X SDR)").bytesPerSecond()).isEqualTo(312.5e6);
		assertThat(PortRate.parse("400 Gb/sec (4X NDR)").bytesPerSecond()).isEqualTo(50e9);
		assertThat(PortRate.parse("fast")).isNull();
		assertThat(PortRate.parse("10 furlongs")).isNull();
		assertThat(PortRate.parse("-1 Gb/sec")).isNull();
	}

}
