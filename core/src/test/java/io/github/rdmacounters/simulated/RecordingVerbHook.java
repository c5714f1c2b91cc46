package io.github.rdmacounters.simulated;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import io.github.rdmacounters.core.RdmaOperationException;

/**
 * The {@link VerbHook} of core's test support, registered in {@code META-INF/services}: a
 * journal of the most recent verbs, the faults injected into them, by C verb name, and
 * the simulated native objects alive. Each backend gets its own.
 *
 * @author rdma-counters
 */
public final class RecordingVerbHook implements VerbHook {

	/**
	 * The verbs the simulated device goes through, by their C names.
	 */
	static final Set<String> VERBS = Set.of("ibv_get_device_list", "ibv_open_device", "ibv_close_device",
			"ibv_query_device", "ibv_query_port", "ibv_alloc_pd", "ibv_dealloc_pd", "ibv_create_cq", "ibv_destroy_cq",
			"ibv_create_qp", "ibv_modify_qp", "ibv_destroy_qp", "ibv_create_counters", "ibv_destroy_counters",
			"ibv_attach_counters_point_flow", "ibv_read_counters", "ibv_create_flow", "ibv_destroy_flow");

	/**
	 * How many calls the journal keeps.
	 */
	static final int JOURNAL_SIZE = 10_000;

	private final Map<String, Fault> faults = new ConcurrentHashMap<>();

	private final ArrayDeque<String> journal = new ArrayDeque<>();

	private final Set<Object> live = ConcurrentHashMap.newKeySet();

	void failNext(String verb, int errno) {
		this.faults.put(checkVerb(verb), new Fault(errno, false));
	}

	void failAlways(String verb, int errno) {
		this.faults.put(checkVerb(verb), new Fault(errno, true));
	}

	void clearFaults() {
		this.faults.clear();
	}

	List<String> journal() {
		synchronized (this.journal) {
			return List.copyOf(this.journal);
		}
	}

	void clearJournal() {
		synchronized (this.journal) {
			this.journal.clear();
		}
	}

	int liveObjects() {
		return this.live.size();
	}

	List<String> liveObjectDescriptions() {
		List<String> descriptions = new ArrayList<>();
		for (Object object : this.live) {
			descriptions.add(object.toString());
		}
		descriptions.sort(null);
		return descriptions;
	}

	/**
	 * Record a call of a verb and throw the fault injected for it, if any; a one-shot
	 * fault is consumed by exactly one caller.
	 * @param verb the verb about to run
	 */
	@Override
	public void beforeVerb(String verb) {
		synchronized (this.journal) {
			if (this.journal.size() == JOURNAL_SIZE) {
				this.journal.removeFirst();
			}
			this.journal.addLast(verb);
		}
		Fault fault = this.faults.get(verb);
		if (fault == null) {
			return;
		}
		if (!fault.always() && !this.faults.remove(verb, fault)) {
			return;
		}
		throw new RdmaOperationException(verb, fault.errno(), "fault injected into the simulated device");
	}

	@Override
	public void allocated(Object object) {
		this.live.add(object);
	}

	@Override
	public void freed(Object object) {
		this.live.remove(object);
	}

	private static String checkVerb(String verb) {
		if (!VERBS.contains(verb)) {
			throw new IllegalArgumentException(
					"Unknown verb '" + verb + "'; the simulated device goes through " + new TreeSet<>(VERBS));
		}
		return verb;
	}

	private record Fault(int errno, boolean always) {
	}

}
