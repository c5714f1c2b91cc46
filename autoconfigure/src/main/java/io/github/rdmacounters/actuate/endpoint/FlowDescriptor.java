package io.github.rdmacounters.actuate.endpoint;

import io.github.rdmacounters.core.FlowSpec;

/**
 * The flow that feeds a counter set. Components are in alphabetical order, the order the
 * endpoint's JSON shows them in.
 *
 * @param dontTrap whether matched packets still reach the kernel
 * @param match what the flow matches, e.g. {@code udp dst-port 4791}
 * @param priority the flow priority
 * @since 0.1.0
 * @author rdma-counters
 */
public record FlowDescriptor(boolean dontTrap, String match, int priority) {

	static FlowDescriptor of(FlowSpec spec) {
		return new FlowDescriptor(spec.dontTrap(), spec.describe(), spec.priority());
	}

}
