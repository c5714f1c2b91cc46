package io.github.rdmacounters.testsupport;

import io.github.rdmacounters.core.CounterPoint;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.RdmaDevice;

/**
 * Counters bound to a flow that matches every packet on port 1: the set-up most binding
 * tests start from.
 *
 * @author rdma-counters
 */
public final class BoundCounters {

	private BoundCounters() {
	}

	/**
	 * Create counters on a device, attach the given points in order, and bind them to a
	 * flow on port 1 that matches every packet.
	 * @param device the device
	 * @param points the points to attach
	 * @return the bound counters, owned by the device
	 */
	public static Counters create(RdmaDevice device, CounterPoint... points) {
		Counters counters = device.createCounters();
		for (CounterPoint point : points) {
			counters.attach(point.type(), point.index());
		}
		device.createFlow(1, FlowSpec.any(), counters);
		return counters;
	}

}
