package io.github.rdmacounters.core;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DeviceStartupException}.
 *
 * @author rdma-counters
 */
class DeviceStartupExceptionTests {

	private static final RdmaUnavailableException CAUSE = new RdmaUnavailableException(
			RdmaUnavailableException.Reason.NO_KERNEL_STACK, "ibv_get_device_list failed", null);

	@Test
	void namesTheDeviceAndTheSetsWithAndWithoutTheCause() {
		DeviceStartupException ex = new DeviceStartupException("mlx5_0",
				List.of("rdma.counter-sets.storage", "rdma.counter-sets.web"), CAUSE);
		assertThat(ex.summary())
			.isEqualTo("RDMA device mlx5_0 of rdma.counter-sets.storage, rdma.counter-sets.web could not be started");
		assertThat(ex).hasMessage(ex.summary() + ": ibv_get_device_list failed").hasCause(CAUSE);
	}

	@Test
	void setsThatNameNoDeviceAreOnAnyDevice() {
		DeviceStartupException ex = new DeviceStartupException(null, List.of("rdma.counter-sets.web"), CAUSE);
		assertThat(ex.summary()).isEqualTo("RDMA device (any) of rdma.counter-sets.web could not be started");
	}

}
