package io.github.rdmacounters.autoconfigure;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.DeviceStartupException;

/**
 * Advice shared by the failure analyzers.
 *
 * @author rdma-counters
 */
final class RdmaFailureActions {

	static final String START_WITHOUT = "To start without the device and report it through health instead, set "
			+ "rdma.devices.<device>.fail-on-unavailable=false, or rdma.fail-on-unavailable=false for every device.";

	static final String SIMULATED = "To develop without RDMA hardware, set rdma.backend=simulated.";

	static final String NO_DEVICE = "Check that the NIC's RDMA driver is loaded and the device is visible to this "
			+ "process (ibv_devices lists it; e.g. modprobe mlx5_ib for NVIDIA/Mellanox ConnectX, or modprobe "
			+ "rdma_rxe and 'rdma link add rxe0 type rxe netdev eth0' for a software RoCE device; in a container, "
			+ "pass the /dev/infiniband devices). " + SIMULATED + " " + START_WITHOUT;

	/** How to start without the device of a startup failure, if known. */
	static String startWithout(@Nullable DeviceStartupException startup) {
		if (startup == null) {
			return START_WITHOUT;
		}
		return "To start without it and report it through health instead, set " + ((startup.device() != null)
				? RdmaProperties.PREFIX + ".devices." + startup.device() + ".fail-on-unavailable=false (or " : "(")
				+ RdmaProperties.PREFIX + ".fail-on-unavailable=false for every device).";
	}

	private RdmaFailureActions() {
	}

}
