package io.github.rdmacounters.core;

/**
 * Test access to the package-private seams of {@link CounterSet}, shipped in core's
 * test-jar for the tests and benchmarks of every module.
 *
 * @author rdma-counters
 */
public final class CounterSetTestSupport {

	private CounterSetTestSupport() {
	}

	/**
	 * Let the next read of a set read the device whatever its cache time-to-live, as if
	 * the last read had just expired.
	 * @param set the counter set
	 */
	public static void expire(CounterSet set) {
		set.expire();
	}

}
