package io.github.rdmacounters.simulated;

/**
 * Sees what reaches a simulated device: each verb before it runs, and each simulated
 * native object as it is allocated and freed. Core's test support provides one through
 * {@link java.util.ServiceLoader} to record calls and inject faults; without one a
 * backend records nothing.
 *
 * @author rdma-counters
 */
interface VerbHook {

	/**
	 * Called before a verb runs; may fail it.
	 * @param verb the C verb name, e.g. {@code ibv_read_counters}
	 * @throws io.github.rdmacounters.core.RdmaOperationException to fail the call
	 */
	void beforeVerb(String verb);

	/**
	 * Called when a simulated native object was allocated.
	 * @param object the object
	 */
	void allocated(Object object);

	/**
	 * Called when a simulated native object was freed.
	 * @param object the object
	 */
	void freed(Object object);

}
