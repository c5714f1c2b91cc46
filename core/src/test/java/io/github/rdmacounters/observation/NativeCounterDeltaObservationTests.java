package io.github.rdmacounters.observation;

import java.util.List;

import io.github.rdmacounters.testsupport.BackendControl;
import io.github.rdmacounters.testsupport.FakeControl;
import io.github.rdmacounters.testsupport.TestDevice;

/**
 * {@link CounterDeltaObservationHandler} on the native binding over the fake libibverbs
 * (which {@link io.github.rdmacounters.testsupport.FakeVerbs} compiles from source with
 * gcc): each fresh read is an {@code ibv_read_counters} call.
 *
 * @author rdma-counters
 */
class NativeCounterDeltaObservationTests extends AbstractCounterDeltaObservationTests {

	@Override
	protected BackendControl createControl(List<TestDevice> devices) {
		return new FakeControl(devices);
	}

}
