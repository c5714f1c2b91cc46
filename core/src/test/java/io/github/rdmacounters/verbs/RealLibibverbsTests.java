package io.github.rdmacounters.verbs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.DeviceId;
import io.github.rdmacounters.core.DeviceNotFoundException;
import io.github.rdmacounters.core.RdmaUnavailableException;
import io.github.rdmacounters.core.RdmaUnavailableException.Reason;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests of {@link NativeBackend} against the real {@code libibverbs.so.1}, and against a
 * library that does not exist. What the real library answers depends on the host: without
 * an RDMA kernel stack (no {@code /sys/class/infiniband_verbs/abi_version}, as on the
 * build machines of this project) it fails with {@code ENOSYS}; with one it lists the
 * devices, possibly none. Each test asserts the outcome that matches the host it runs on.
 *
 * @author rdma-counters
 */
class RealLibibverbsTests {

	@Test
	void defaultLibraryIsTheRuntimeSoname() {
		assertThat(new NativeBackend().library()).isEqualTo("libibverbs.so.1");
		assertThat(new NativeBackend().name()).isEqualTo("native");
	}

	@Test
	void realLibraryLoadsWithoutTheDevSymlink() {
		assertThat(new NativeBackend().unavailabilityCause()).isNull();
	}

	private static final Path ABI_VERSION = Path.of("/sys/class/infiniband_verbs/abi_version");

	private static boolean kernelHasRdmaStack() {
		return Files.exists(ABI_VERSION);
	}

	@Test
	void realLibraryListsDevicesWithAKernelStackAndFailsWithEnosysWithoutOne() {
		NativeBackend backend = new NativeBackend();
		if (kernelHasRdmaStack()) {
			List<DeviceId> devices = backend.devices();
			assertThat(devices).as("the devices of a host with an RDMA stack, possibly none")
				.isNotNull()
				.doesNotContainNull();
		}
		else {
			assertThatExceptionOfType(RdmaUnavailableException.class).isThrownBy(backend::devices)
				.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.NO_KERNEL_STACK))
				.withMessageStartingWith("ibv_get_device_list failed: ENOSYS (38) Function not implemented")
				.withMessageContaining("the kernel has no RDMA stack");
		}
	}

	@Test
	void realLibraryRejectsAnUnknownDeviceNamingTheListedOnesWithAKernelStackAndFailsWithEnosysWithoutOne() {
		NativeBackend backend = new NativeBackend();
		String unknown = "rdma-counters-no-such-device";
		if (kernelHasRdmaStack()) {
			List<String> names = backend.devices().stream().map(DeviceId::name).toList();
			assertThatExceptionOfType(DeviceNotFoundException.class).isThrownBy(() -> backend.open(unknown))
				.withMessageContaining(unknown)
				.satisfies((ex) -> assertThat(ex.available()).isEqualTo(names));
		}
		else {
			assertThatExceptionOfType(RdmaUnavailableException.class).isThrownBy(() -> backend.open(unknown))
				.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.NO_KERNEL_STACK));
		}
	}

	@Test
	void missingLibraryFailsWithLibraryNotLoadableNamingItAndWhatToInstall() {
		NativeBackend backend = new NativeBackend("libibverbs-does-not-exist.so.9");
		assertThat(backend.unavailabilityCause()).isNotNull();
		assertThatExceptionOfType(RdmaUnavailableException.class).isThrownBy(backend::devices)
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.LIBRARY_NOT_LOADABLE))
			.withMessageContaining("'libibverbs-does-not-exist.so.9'")
			.withMessageContaining("cannot open shared object file")
			.satisfies((ex) -> assertThat(ex.getMessage()).doesNotContain("\n"))
			.withMessageContaining("libibverbs1")
			.withMessageContaining("rdma-core");
		assertThatExceptionOfType(RdmaUnavailableException.class).isThrownBy(() -> backend.open("mlx5_0"))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.LIBRARY_NOT_LOADABLE));
	}

}
