package io.github.rdmacounters.simulated;

import java.util.List;

/**
 * Test access to a {@link SimulatedBackend}'s package-private seams: fault injection, the
 * journal of verb calls and the accounting of live simulated objects. Shipped in core's
 * test-jar for the tests and benchmarks of every module.
 *
 * @author rdma-counters
 */
public final class SimulatedBackendControl {

	private final SimulatedBackend backend;

	private SimulatedBackendControl(SimulatedBackend backend) {
		this.backend = backend;
	}

	/**
	 * Return the control of a backend.
	 * @param backend the backend
	 * @return its control
	 */
	public static SimulatedBackendControl of(SimulatedBackend backend) {
		return new SimulatedBackendControl(backend);
	}

	/**
	 * Make the next call of a verb fail with an errno (once, whichever thread calls it
	 * first).
	 * @param verb the C verb name, e.g. {@code ibv_read_counters}
	 * @param errno the errno
	 * @throws IllegalArgumentException if the simulated device does not go through that
	 * verb
	 */
	public void failNext(String verb, int errno) {
		this.backend.failNext(verb, errno);
	}

	/**
	 * Make every call of a verb fail with an errno until {@link #clearFaults()}.
	 * @param verb the C verb name
	 * @param errno the errno
	 */
	public void failAlways(String verb, int errno) {
		this.backend.failAlways(verb, errno);
	}

	/**
	 * Remove every injected fault.
	 */
	public void clearFaults() {
		this.backend.clearFaults();
	}

	/**
	 * Return the verbs that reached the simulated device, oldest first (the last 10,000).
	 * @return the verb names
	 */
	public List<String> verbCalls() {
		return this.backend.verbCalls();
	}

	/**
	 * Forget the verbs called so far.
	 */
	public void clearVerbCalls() {
		this.backend.clearVerbCalls();
	}

	/**
	 * Return the number of simulated native objects allocated and not freed.
	 * @return the live objects
	 */
	public int liveObjects() {
		return this.backend.liveObjects();
	}

	/**
	 * Describe the live objects, for assertion messages.
	 * @return one description per live object
	 */
	public List<String> liveObjectDescriptions() {
		return this.backend.liveObjectDescriptions();
	}

}
