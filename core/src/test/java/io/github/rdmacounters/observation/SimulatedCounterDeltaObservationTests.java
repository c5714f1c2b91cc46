package io.github.rdmacounters.observation;

import java.util.List;

import io.github.rdmacounters.testsupport.BackendControl;
import io.github.rdmacounters.testsupport.SimulatedControl;
import io.github.rdmacounters.testsupport.TestDevice;

/**
 * {@link CounterDeltaObservationHandler} on the simulated backend.
 *
 * @author rdma-counters
 */
class SimulatedCounterDeltaObservationTests extends AbstractCounterDeltaObservationTests {

	@Override
	protected BackendControl createControl(List<TestDevice> devices) {
		return new SimulatedControl(devices);
	}

}
