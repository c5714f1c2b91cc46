package io.github.rdmacounters.autoconfigure;

/**
 * Advice shared by the failure analyzers.
 *
 * @author rdma-counters
 */
final class RdmaFailureActions {

	/**
	 * How to start without the device.
	 */
	static final String START_WITHOUT = "To start without the device and report it through health instead, set "
			+ "rdma.devices.<device>.fail-on-unavailable=false, or rdma.fail-on-unavailable=false for every device.";

	/**
	 * How to develop without hardware.
	 */
	static final String SIMULATED = "To develop without RDMA hardware, set rdma.backend=simulated.";

	/**
	 * What to do when there is no device at all.
	 */
	static final String NO_DEVICE = "Check that the NIC's RDMA driver is loaded and the device is visible to this "
			+ "process (ibv_devices lists it; e.g. modprobe mlx5_ib for NVIDIA/Mellanox ConnectX, or modprobe "
			+ "rdma_rxe and 'rdma link add rxe0 type rxe netdev eth0' for a software RoCE device; in a container, "
			+ "pass the /dev/infiniband devices). " + SIMULATED + " " + START_WITHOUT;

	private RdmaFailureActions() {
	}

}
