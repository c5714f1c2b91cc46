package io.github.rdmacounters.core;

/**
 * Test access to the query cache of a {@link SupervisedDevice}, shipped in core's
 * test-jar for the tests of every module.
 *
 * @author rdma-counters
 */
public final class DeviceQueriesTestSupport {

	private DeviceQueriesTestSupport() {
	}

	/**
	 * Let the next port query of a managed device ask the device, as if the read cache
	 * time-to-live had passed since the last one.
	 * @param device a device opened by {@link ManagedDeviceFactory}
	 */
	public static void expire(ManagedDevice device) {
		if (!(device.device() instanceof SupervisedDevice supervised)) {
			throw new IllegalArgumentException(device + " was not opened by ManagedDeviceFactory");
		}
		supervised.expireQueries();
	}

}
