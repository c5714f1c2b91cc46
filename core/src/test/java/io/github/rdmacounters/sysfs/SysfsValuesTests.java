package io.github.rdmacounters.sysfs;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SysfsValues}.
 */
class SysfsValuesTests {

	@Test
	void parseCounterAcceptsUnsignedDecimalsOnly() {
		assertThat(SysfsValues.parseCounter("0")).isZero();
		assertThat(SysfsValues.parseCounter("123456789012")).isEqualTo(123_456_789_012L);
		assertThat(SysfsValues.parseCounter("18446744073709551615")).isEqualTo(Long.MAX_VALUE);
		assertThat(SysfsValues.parseCounter("N/A (no PMA)")).isNull();
		assertThat(SysfsValues.parseCounter("")).isNull();
		assertThat(SysfsValues.parseCounter("-1")).isNull();
		assertThat(SysfsValues.parseCounter("0x10")).isNull();
		assertThat(SysfsValues.parseCounter("99999999999999999999999")).isNull();
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
	void stateIdsFollowTheKernelNumbering() {
		assertThat(SysfsValues.stateId("ACTIVE")).isEqualTo(4);
		assertThat(SysfsValues.stateId("DOWN")).isEqualTo(1);
		assertThat(SysfsValues.stateId("ACTIVE_DEFER")).isEqualTo(5);
		assertThat(SysfsValues.stateId("weird")).isEqualTo(-1);
		assertThat(SysfsValues.stateId(null)).isEqualTo(-1);
		assertThat(SysfsValues.physicalStateId("LinkUp")).isEqualTo(5);
		assertThat(SysfsValues.physicalStateId("Disabled")).isEqualTo(3);
		assertThat(SysfsValues.physicalStateId("Phy Test")).isEqualTo(7);
		assertThat(SysfsValues.physicalStateId("Polling")).isEqualTo(2);
		assertThat(SysfsValues.physicalStateId("<unknown>")).isEqualTo(-1);
	}

	@Test
	void rateIsConvertedToBytesPerSecond() {
		assertThat(SysfsValues.rateBytesPerSecond("100 Gb/sec (4X EDR)")).isEqualTo(12.5e9);
		assertThat(SysfsValues.rateBytesPerSecond("2.5 Gb/sec (1X SDR)")).isEqualTo(312.5e6);
		assertThat(SysfsValues.rateBytesPerSecond("400 Gb/sec (4X NDR)")).isEqualTo(50e9);
		assertThat(SysfsValues.rateBytesPerSecond("fast")).isNaN();
		assertThat(SysfsValues.rateBytesPerSecond("10 furlongs")).isNaN();
		assertThat(SysfsValues.rateBytesPerSecond(null)).isNaN();
	}

}
