package io.github.rdmacounters.verbs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.rdmacounters.core.DeviceAttributes;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.core.RdmaUnavailableException;
import io.github.rdmacounters.core.RdmaUnavailableException.Reason;
import io.github.rdmacounters.testsupport.FakeVerbs;
import io.github.rdmacounters.testsupport.FakeVerbsExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link NativeBackend} against the fake libibverbs: device list, open, query.
 *
 * @author rdma-counters
 */
@ExtendWith(FakeVerbsExtension.class)
class NativeBackendTests {

	private final FakeVerbs fake = FakeVerbs.get();

	private final NativeBackend backend = this.fake.backend();

	@Test
	void devicesWithStackButNoDeviceIsEmpty() {
		assertThat(this.backend.devices()).isEmpty();
	}

	@Test
	void devicesWithoutKernelStackThrowsNoKernelStack() {
		this.fake.noKernelStack(true);
		assertThatExceptionOfType(RdmaUnavailableException.class).isThrownBy(this.backend::devices)
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.NO_KERNEL_STACK))
			.withMessageContaining("ibv_get_device_list failed: ENOSYS (38) Function not implemented")
			.withMessageContaining("no RDMA stack");
	}

	@Test
	void devicesWhenListingFailsNamesVerbAndErrno() {
		this.fake.failNext("ibv_get_device_list", Errno.ENOMEM);
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(this.backend::devices)
			.withMessageStartingWith("ibv_get_device_list failed: ENOMEM (12) Cannot allocate memory");
	}

	@Test
	void openWhenOpenFailsNamesVerbAndErrno() {
		this.fake.device("mlx5_0").add();
		this.fake.failNext("ibv_open_device", Errno.EACCES);
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(() -> this.backend.open("mlx5_0"))
			.withMessageStartingWith("ibv_open_device failed: EACCES (13) Permission denied")
			.withMessageContaining("group rdma");
	}

	@Test
	void queryDeviceReportsFirmwareGuidVendorPortsAndFlowSteering() {
		this.fake.device("mlx5_0")
			.guid(0x1122_3344_5566_7788L)
			.firmware("22.36.1010")
			.vendor(0x02c9, 4125)
			.ports(2)
			.add();
		try (RdmaDevice device = this.backend.open("mlx5_0")) {
			DeviceAttributes attributes = device.queryDevice();
			assertThat(attributes.firmwareVersion()).isEqualTo("22.36.1010");
			assertThat(attributes.nodeGuid()).isEqualTo(0x1122_3344_5566_7788L);
			assertThat(attributes.vendorId()).isEqualTo(0x02c9);
			assertThat(attributes.vendorPartId()).isEqualTo(4125);
			assertThat(attributes.physicalPortCount()).isEqualTo(2);
			assertThat(attributes.managedFlowSteering()).isTrue();
			assertThat(device.name()).isEqualTo("mlx5_0");
			assertThat(device.backend()).isEqualTo("native");
		}
	}

	@Test
	void queryPortReportsStateLinkLayerMtuAndSpeed() {
		this.fake.device("mlx5_0")
			.ports(2)
			.portState(2, PortState.DOWN)
			.physicalState(2, 3)
			.linkLayer(2, LinkLayer.INFINIBAND)
			.activeMtu(2, 4096)
			.speed(2, 32, 2)
			.add();
		try (RdmaDevice device = this.backend.open("mlx5_0")) {
			PortAttributes port1 = device.queryPort(1);
			assertThat(port1.state()).isEqualTo(PortState.ACTIVE);
			assertThat(port1.physicalStateName()).isEqualTo("LinkUp");
			assertThat(port1.linkLayer()).isEqualTo(LinkLayer.ETHERNET);
			assertThat(port1.activeMtu()).isEqualTo(1024);
			PortAttributes port2 = device.queryPort(2);
			assertThat(port2).isEqualTo(new PortAttributes(2, PortState.DOWN, 3, LinkLayer.INFINIBAND, 4096, 32, 2));
			assertThat(port2.rateGbps()).isEqualTo(100.0);
		}
	}

}
