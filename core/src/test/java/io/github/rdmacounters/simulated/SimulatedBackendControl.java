package io.github.rdmacounters.simulated;

import java.util.List;

/**
 * Test access to what the {@link RecordingVerbHook} of a {@link SimulatedBackend} keeps:
 * fault injection, the journal of verb calls and the accounting of live simulated
 * objects. Shipped in core's test-jar, whose {@code META-INF/services} installs the hook
 * in every backend created, for the tests and benchmarks of every module.
 *
 * @author rdma-counters
 */
public final class SimulatedBackendControl {

	private final RecordingVerbHook hook;

	private SimulatedBackendControl(RecordingVerbHook hook) {
		this.hook = hook;
	}

	/**
	 * Return the control of a backend.
	 * @param backend the backend
	 * @return its control
	 * @throws IllegalStateException if the backend has no {@link RecordingVerbHook}
	 */
	public static SimulatedBackendControl of(SimulatedBackend backend) {
		if (!(backend.hook() instanceof RecordingVerbHook hook)) {
			throw new IllegalStateException(backend + " has no RecordingVerbHook; core's test-jar installs one in "
					+ "the backends created while it is on the class path");
		}
		return new SimulatedBackendControl(hook);
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
		this.hook.failNext(verb, errno);
	}

	/**
	 * Make every call of a verb fail with an errno until {@link #clearFaults()}.
	 * @param verb the C verb name
	 * @param errno the errno
	 */
	public void failAlways(String verb, int errno) {
		this.hook.failAlways(verb, errno);
	}

	/**
	 * Remove every injected fault.
	 */
	public void clearFaults() {
		this.hook.clearFaults();
	}

	/**
	 * Return the verbs that reached the simulated device, oldest first (the last 10,000).
	 * @return the verb names
	 */
	public List<String> verbCalls() {
		return this.hook.journal();
	}

	/**
	 * Forget the verbs called so far.
	 */
	public void clearVerbCalls() {
		this.hook.clearJournal();
	}

	/**
	 * Return the number of simulated native objects allocated and not freed.
	 * @return the live objects
	 */
	public int liveObjects() {
		return this.hook.liveObjects();
	}

	/**
	 * Describe the live objects, for assertion messages.
	 * @return one description per live object
	 */
	public List<String> liveObjectDescriptions() {
		return this.hook.liveObjectDescriptions();
	}

}
