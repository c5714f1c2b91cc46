package io.github.rdmacounters.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the sysfs texts {@link PortAttributes} and {@link LinkLayer} derive: they
 * must be what the kernel prints in {@code /sys/class/infiniband/<dev>/ports/<n>/}.
 */
class PortAttributesTests {

	private static PortAttributes port(int physicalState, int speed, int width) {
		return new PortAttributes(1, PortState.ACTIVE, physicalState, LinkLayer.INFINIBAND, 4096, speed, width);
	}

	@Test
	void physicalStateNamesAreTheKernels() {
		assertThat(port(1, 32, 2).physicalStateName()).isEqualTo("Sleep");
		assertThat(port(2, 32, 2).physicalStateName()).isEqualTo("Polling");
		assertThat(port(3, 32, 2).physicalStateName()).isEqualTo("Disabled");
		assertThat(port(4, 32, 2).physicalStateName()).isEqualTo("PortConfigurationTraining");
		assertThat(port(5, 32, 2).physicalStateName()).isEqualTo("LinkUp");
		assertThat(port(6, 32, 2).physicalStateName()).isEqualTo("LinkErrorRecovery");
		assertThat(port(7, 32, 2).physicalStateName()).isEqualTo("Phy Test");
	}

	@Test
	void physicalStateCodesTheKernelDoesNotNameAreUnknown() {
		assertThat(port(0, 32, 2).physicalStateName()).isEqualTo("<unknown>");
		assertThat(PortAttributes.physicalStateName(8)).isEqualTo("<unknown>");
		assertThat(PortAttributes.physicalStateName(-1)).isEqualTo("<unknown>");
	}

	@Test
	void rateTextIsTheKernelsRateFormat() {
		assertThat(port(5, 32, 2).rateText()).isEqualTo("100 Gb/sec (4X EDR)");
		assertThat(port(5, 32, 1).rateText()).isEqualTo("25 Gb/sec (1X EDR)");
		assertThat(port(5, 64, 2).rateText()).isEqualTo("200 Gb/sec (4X HDR)");
		assertThat(port(5, 1, 1).rateText()).isEqualTo("2.5 Gb/sec (1X SDR)");
		assertThat(port(5, 1, 4).rateText()).isEqualTo("20 Gb/sec (8X SDR)");
		assertThat(port(5, 16, 2).rateText()).isEqualTo("56 Gb/sec (4X FDR)");
		assertThat(port(5, 8, 2).rateText()).isEqualTo("40 Gb/sec (4X FDR10)");
		assertThat(port(5, 4, 8).rateText()).isEqualTo("120 Gb/sec (12X QDR)");
		assertThat(port(5, 64, 16).rateText()).isEqualTo("100 Gb/sec (2X HDR)");
		assertThat(port(5, 128, 2).rateText()).isEqualTo("400 Gb/sec (4X NDR)");
		assertThat(port(5, 256, 1).rateText()).isEqualTo("200 Gb/sec (1X XDR)");
		assertThat(port(5, 2, 1).rateText()).isEqualTo("5 Gb/sec (1X DDR)");
	}

	@Test
	void rateTextShowsAnUnknownSpeedAsSdrAndHasNoTextForAnUnknownWidth() {
		assertThat(port(5, 0, 2).rateText()).isEqualTo("10 Gb/sec (4X SDR)");
		assertThat(port(5, 32, 0).rateText()).isNull();
		assertThat(port(5, 32, 3).rateText()).isNull();
	}

	@Test
	void linkLayerSysfsNamesAreTheKernels() {
		assertThat(LinkLayer.INFINIBAND.sysfsName()).isEqualTo("InfiniBand");
		assertThat(LinkLayer.ETHERNET.sysfsName()).isEqualTo("Ethernet");
		assertThat(LinkLayer.UNSPECIFIED.sysfsName()).isEqualTo("InfiniBand");
	}

}
