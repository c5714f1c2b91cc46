package io.github.rdmacounters.verbs;

import com.sun.jna.NativeLibrary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.testsupport.FakeVerbs;
import io.github.rdmacounters.testsupport.FakeVerbsExtension;
import io.github.rdmacounters.testsupport.NativeBuildProbe;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the native backend reports a port's speed and width as the installed library
 * gives them: XDR (code 256) from {@code active_speed_ex} where the library has it
 * (rdma-core 50 and later), through the full-size {@code query_port} op and not through
 * the 48-byte compat symbol. The fake follows the header it is built against, so the
 * expected XDR reading comes from the probe of that header.
 *
 * @author rdma-counters
 */
@ExtendWith(FakeVerbsExtension.class)
class PortSpeedTests {

	private static final int XDR = 256;

	private static final int NDR = 128;

	private static final int WIDTH_4X = 2;

	private static final int WIDTH_2X = 16;

	private final FakeVerbs fake = FakeVerbs.get();

	private final NativeBackend backend = this.fake.backend();

	private void setSpeed(String device, int speed, int width) {
		int rc = NativeLibrary.getInstance(this.fake.libraryPath())
			.getFunction("fake_set_port")
			.invokeInt(new Object[] { device, 1, -1, -1, -1, -1, speed, width });
		assertThat(rc).as("fake_set_port").isZero();
	}

	@Test
	void xdrPortReadsAsXdrThroughALibraryWithActiveSpeedExAndAsUnknownThroughAnOlderOne() {
		this.fake.device("mlx5_0").add();
		setSpeed("mlx5_0", XDR, WIDTH_4X);
		try (NativeDevice device = (NativeDevice) this.backend.open("mlx5_0")) {
			IbvPortAttr attr = device.queryPortAttr(1);
			PortAttributes port = device.queryPort(1);
			assertThat(attr.active_speed).as("XDR does not fit the u8 active_speed").isZero();
			assertThat(port.lanes()).isEqualTo(4);
			if (NativeBuildProbe.portAttrHasActiveSpeedEx()) {
				assertThat(attr.active_speed_ex).isEqualTo(XDR);
				assertThat(port.activeSpeed()).isEqualTo(XDR);
				assertThat(port.laneGbps()).isEqualTo(200.0);
				assertThat(port.rateGbps()).isEqualTo(800.0);
				assertThat(port.rateText()).isEqualTo("800 Gb/sec (4X XDR)");
			}
			else {
				assertThat(attr.active_speed_ex).as("left zero by the library's shorter struct").isZero();
				assertThat(port.activeSpeed()).isZero();
				assertThat(port.rateGbps()).isZero();
			}
		}
	}

	@Test
	void speedsBelowXdrReadTheSameThroughEitherHeaderAndTheWidthIsKept() {
		this.fake.device("mlx5_0").add();
		setSpeed("mlx5_0", NDR, WIDTH_2X);
		try (NativeDevice device = (NativeDevice) this.backend.open("mlx5_0")) {
			PortAttributes port = device.queryPort(1);
			assertThat(port.activeSpeed()).isEqualTo(NDR);
			assertThat(port.activeWidth()).isEqualTo(WIDTH_2X);
			assertThat(port.lanes()).isEqualTo(2);
			assertThat(port.rateText()).isEqualTo("200 Gb/sec (2X NDR)");
			assertThat(device.queryPortAttr(1).active_speed_ex)
				.isEqualTo(NativeBuildProbe.portAttrHasActiveSpeedEx() ? NDR : 0);
		}
	}

	@Test
	void compatSymbolFillsNoActiveSpeedExSoAnXdrPortReadsUnknown() {
		this.fake.device("mlx5_0").contextSize(NativeBuildProbe.value("needed_sz.query_port") - 1).add();
		setSpeed("mlx5_0", XDR, WIDTH_4X);
		try (NativeDevice device = (NativeDevice) this.backend.open("mlx5_0")) {
			assertThat(device.queryPortAttr(1).active_speed_ex).isZero();
			assertThat(device.queryPort(1).activeSpeed()).isZero();
			assertThat(device.queryPort(1).lanes()).isEqualTo(4);
		}
	}

}
