package io.github.rdmacounters.diagnosis;

import java.util.ArrayList;
import java.util.List;

import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.Flow;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.RdmaException;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.verbs.VerbsDiagnostics;

/**
 * {@code --probe} on one port: creates what a counter set needs through the backend (the
 * device's protection domain, completion queue and the port's raw packet queue pair, a
 * counters handle with a packets point, a don't-trap flow counting it), then destroys it
 * in rdma-core's order (flow, counters, queue pair, completion queue, protection domain,
 * context), reporting each step. The flow matches an EtherType no host traffic carries,
 * and don't-trap leaves what it matches to the kernel.
 */
final class FlowProbe {

	/** IEEE 802's local experimental EtherType 1 (IEEE Std 802-2014, 9.2.4). */
	static final int PROBE_ETHER_TYPE = 0x88B5;

	/** The verbs that make the queue pair, in the order the binding calls them. */
	private static final List<String> QUEUE_PAIR_STEPS = List.of("ibv_alloc_pd", "ibv_create_cq", "ibv_create_qp",
			"ibv_modify_qp");

	private static final List<String> COUNTER_STEPS = List.of("ibv_create_counters", "ibv_attach_counters_point_flow",
			"ibv_create_flow");

	private FlowProbe() {
	}

	static List<ProbeStep> probe(RdmaBackend backend, String deviceName, int port) {
		List<ProbeStep> steps = new ArrayList<>();
		RdmaDevice device;
		try {
			device = backend.open(deviceName);
			steps.add(ok("ibv_open_device"));
		}
		catch (RdmaException ex) {
			steps.add(failed("ibv_open_device", ex));
			notReached(steps, QUEUE_PAIR_STEPS);
			notReached(steps, COUNTER_STEPS);
			return steps;
		}
		try {
			create(device, port, steps);
		}
		finally {
			try {
				device.close();
				steps.add(ok("ibv_close_device"));
			}
			catch (RdmaException ex) {
				steps.add(failed("ibv_close_device", ex));
			}
		}
		return steps;
	}

	private static void create(RdmaDevice device, int port, List<ProbeStep> steps) {
		try {
			if (VerbsDiagnostics.createQueuePair(device, port)) {
				QUEUE_PAIR_STEPS.forEach((verb) -> steps.add(ok(verb)));
			}
		}
		catch (RdmaException ex) {
			String failedVerb = (ex instanceof RdmaOperationException operation) ? operation.verb() : "";
			int failedAt = Math.max(0, QUEUE_PAIR_STEPS.indexOf(failedVerb));
			QUEUE_PAIR_STEPS.subList(0, failedAt).forEach((verb) -> steps.add(ok(verb)));
			steps.add(failed(QUEUE_PAIR_STEPS.get(failedAt), ex));
			notReached(steps, QUEUE_PAIR_STEPS.subList(failedAt + 1, QUEUE_PAIR_STEPS.size()));
			notReached(steps, COUNTER_STEPS);
			return;
		}
		Counters counters;
		try {
			counters = device.createCounters();
			steps.add(ok("ibv_create_counters"));
		}
		catch (RdmaException ex) {
			steps.add(failed("ibv_create_counters", ex));
			notReached(steps, COUNTER_STEPS.subList(1, COUNTER_STEPS.size()));
			return;
		}
		Flow flow;
		try {
			counters.attach(CounterType.PACKETS, 0);
			steps.add(ok("ibv_attach_counters_point_flow"));
			flow = device.createFlow(port, FlowSpec.builder().etherType(PROBE_ETHER_TYPE).dontTrap(true).build(),
					counters);
			steps.add(ok("ibv_create_flow"));
		}
		catch (RdmaException ex) {
			String verb = (ex instanceof RdmaOperationException operation) ? operation.verb() : "ibv_create_flow";
			steps.add(failed(verb, ex));
			if (verb.equals("ibv_attach_counters_point_flow")) {
				notReached(steps, List.of("ibv_create_flow"));
			}
			destroy(counters::close, "ibv_destroy_counters", steps);
			return;
		}
		destroy(flow::close, "ibv_destroy_flow", steps);
		destroy(counters::close, "ibv_destroy_counters", steps);
		// ibv_destroy_qp, ibv_destroy_cq and ibv_dealloc_pd: by the device's close
	}

	private static void destroy(Runnable close, String verb, List<ProbeStep> steps) {
		try {
			close.run();
			steps.add(ok(verb));
		}
		catch (RdmaException ex) {
			steps.add(failed(verb, ex));
		}
	}

	private static ProbeStep ok(String verb) {
		return new ProbeStep(verb, ProbeStep.OK, null, null, null);
	}

	private static ProbeStep failed(String verb, RdmaException ex) {
		if (ex instanceof RdmaOperationException operation) {
			return new ProbeStep(verb, ProbeStep.FAILED, operation.errno(), Errno.name(operation.errno()),
					ex.getMessage());
		}
		return new ProbeStep(verb, ProbeStep.FAILED, null, null, ex.getMessage());
	}

	private static void notReached(List<ProbeStep> steps, List<String> verbs) {
		verbs.forEach((verb) -> steps.add(new ProbeStep(verb, ProbeStep.NOT_REACHED, null, null, null)));
	}

}
