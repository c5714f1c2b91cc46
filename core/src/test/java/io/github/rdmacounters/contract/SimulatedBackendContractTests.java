package io.github.rdmacounters.contract;

import java.util.List;

import io.github.rdmacounters.testsupport.BackendControl;
import io.github.rdmacounters.testsupport.SimulatedControl;
import io.github.rdmacounters.testsupport.TestDevice;

/**
 * The backend contract run against the simulated backend.
 *
 * @author rdma-counters
 */
class SimulatedBackendContractTests extends RdmaBackendContractTests {

	@Override
	protected BackendControl createControl(List<TestDevice> devices) {
		return new SimulatedControl(devices);
	}

}
