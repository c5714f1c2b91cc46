package io.github.rdmacounters.contract;

import java.util.List;

import io.github.rdmacounters.testsupport.BackendControl;
import io.github.rdmacounters.testsupport.SimulatedControl;
import io.github.rdmacounters.testsupport.TestDevice;

/**
 * The fresh-read contract on the simulated backend.
 *
 * @author rdma-counters
 */
class SimulatedFreshReadContractTests extends AbstractFreshReadContractTests {

	@Override
	protected BackendControl createControl(List<TestDevice> devices) {
		return new SimulatedControl(devices);
	}

}
