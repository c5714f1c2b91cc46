package io.github.rdmacounters.contract;

import java.util.List;

import io.github.rdmacounters.testsupport.BackendControl;
import io.github.rdmacounters.testsupport.FakeControl;
import io.github.rdmacounters.testsupport.TestDevice;

/**
 * The backend contract run against the native binding on the fake libibverbs, which
 * {@link io.github.rdmacounters.testsupport.FakeVerbs} compiles from source with gcc.
 *
 * @author rdma-counters
 */
class NativeBackendContractTests extends RdmaBackendContractTests {

	@Override
	protected BackendControl createControl(List<TestDevice> devices) {
		return new FakeControl(devices);
	}

}
