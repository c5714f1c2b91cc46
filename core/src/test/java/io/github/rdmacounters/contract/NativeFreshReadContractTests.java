package io.github.rdmacounters.contract;

import java.util.List;

import io.github.rdmacounters.testsupport.BackendControl;
import io.github.rdmacounters.testsupport.FakeControl;
import io.github.rdmacounters.testsupport.TestDevice;

/**
 * The fresh-read contract on the native binding over the fake libibverbs, which
 * {@link io.github.rdmacounters.testsupport.FakeVerbs} compiles from source with gcc.
 *
 * @author rdma-counters
 */
class NativeFreshReadContractTests extends AbstractFreshReadContractTests {

	@Override
	protected BackendControl createControl(List<TestDevice> devices) {
		return new FakeControl(devices);
	}

}
