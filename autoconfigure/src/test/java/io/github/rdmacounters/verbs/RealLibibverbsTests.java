package io.github.rdmacounters.verbs;

import io.github.rdmacounters.core.RdmaUnavailableException;
import io.github.rdmacounters.core.RdmaUnavailableException.Reason;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests of {@link NativeBackend} against the real {@code libibverbs.so.1} of a host without an
 * RDMA kernel stack (the build machines of this project), and against a library that does
 * not exist.
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

	@Test
	void realLibraryWithoutKernelStackFailsWithEnosysNotAnEmptyList() {
		NativeBackend backend = new NativeBackend();
		assertThatExceptionOfType(RdmaUnavailableException.class).isThrownBy(backend::devices)
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.NO_KERNEL_STACK))
			.withMessageStartingWith("ibv_get_device_list failed: ENOSYS (38) Function not implemented")
			.withMessageContaining("the kernel has no RDMA stack");
	}

	@Test
	void realLibraryWithoutKernelStackFailsToOpenWithEnosys() {
		NativeBackend backend = new NativeBackend();
		assertThatExceptionOfType(RdmaUnavailableException.class).isThrownBy(() -> backend.open("mlx5_0"))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.NO_KERNEL_STACK));
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
