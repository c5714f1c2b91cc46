package io.github.rdmacounters.autoconfigure;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.DeviceStartupException;

/**
 * What the device failure analyses advise in common; the long form is in
 * {@code docs/troubleshooting-configuration.md}.
 *
 * @author rdma-counters
 */
final class DeviceAdvice {

	static final String SIMULATED = "To develop without RDMA hardware, set rdma.backend=simulated.";

	static final String NO_DEVICE = "Check that the NIC's RDMA driver is loaded and the device is visible to this "
			+ "process (ibv_devices lists it; e.g. modprobe mlx5_ib, or modprobe rdma_rxe for a software RoCE "
			+ "device; in a container, pass /dev/infiniband). " + SIMULATED + " " + startWithout(null);

	private DeviceAdvice() {
	}

	/** How to start without the device of a startup failure, if known. */
	static String startWithout(@Nullable DeviceStartupException startup) {
		String device = (startup != null) ? startup.device() : null;
		if (startup == null) {
			return "To start without the device and report it through health instead, set "
					+ "rdma.devices.<device>.fail-on-unavailable=false, or rdma.fail-on-unavailable=false for every "
					+ "device.";
		}
		return "To start without it and report it through health instead, set "
				+ ((device != null) ? "rdma.devices." + device + ".fail-on-unavailable=false (or " : "(")
				+ "rdma.fail-on-unavailable=false for every device).";
	}

}
