package io.github.rdmacounters.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Places the counter sets of one device so that each counts every packet it matches, as
 * mlx5 steers ({@code drivers/infiniband/hw/mlx5/fs.c}). A flow without don't-trap takes
 * its packets to a queue pair with no receive buffers, so every set is don't-trap. Rules
 * of one priority share a table where a packet matches one rule, so each set goes, in
 * configuration order, to the first priority from its own at which no earlier set
 * overlaps it.
 */
final class CounterSetPlacement {

	/** {@code MLX5_IB_FLOW_LAST_PRIO}, checked by {@code mlx5_ib_create_flow}. */
	static final int LAST_PRIORITY = 15;

	/**
	 * What a counter set's priority must be, also stated for one that is not a number.
	 */
	static final String PRIORITY_RULE = "must be 0 to " + LAST_PRIORITY
			+ ": mlx5, the only provider with flow counters, has 16 user priorities (beyond them ibv_create_flow "
			+ "fails with ENOMEM)";

	private CounterSetPlacement() {
	}

	/**
	 * Check the sets of a device and place them at priorities where none shadows another.
	 * @throws InvalidRdmaConfigurationException if a set traps, or overlapping sets do
	 * not fit in the user priorities
	 */
	static List<CounterSetDefinition> place(DeviceDefinition plan) {
		List<InvalidRdmaConfigurationException.Problem> problems = new ArrayList<>();
		List<CounterSetDefinition> placed = new ArrayList<>();
		for (CounterSetDefinition set : plan.counterSets()) {
			String flow = plan.property(set.name(), "flow");
			if (!set.spec().dontTrap()) {
				problems.add(new InvalidRdmaConfigurationException.Problem(flow + ".dont-trap", false,
						"must be true: a flow without don't-trap takes the packets it matches away from the kernel "
								+ "(the raw packet queue pair has no receive buffers, so they are dropped); "
								+ "remove the property or set it to true"));
				continue;
			}
			int priority = set.spec().priority();
			if (priority > LAST_PRIORITY) {
				problems
					.add(new InvalidRdmaConfigurationException.Problem(flow + ".priority", priority, PRIORITY_RULE));
				continue;
			}
			List<String> shadowed = new ArrayList<>();
			while (true) {
				String overlapping = overlappingAt(placed, set.port(), set.spec(), priority);
				if (overlapping == null) {
					break;
				}
				shadowed.add(overlapping);
				priority++;
			}
			if (priority > LAST_PRIORITY) {
				problems.add(new InvalidRdmaConfigurationException.Problem(flow + ".priority", set.spec().priority(),
						"no free priority for set '" + set.name() + "': it overlaps " + shadowed
								+ " at every priority up to " + LAST_PRIORITY
								+ ", the last user priority of mlx5; use a lower priority or fewer overlapping sets"));
				continue;
			}
			placed.add(set.withSpec(withPriority(set.spec(), priority)));
		}
		if (!problems.isEmpty()) {
			throw new InvalidRdmaConfigurationException(problems);
		}
		return placed;
	}

	private static @Nullable String overlappingAt(List<CounterSetDefinition> placed, int port, FlowSpec spec,
			int priority) {
		for (CounterSetDefinition other : placed) {
			if (other.spec().priority() == priority && samePort(other.port(), port) && overlap(other.spec(), spec)) {
				return other.name();
			}
		}
		return null;
	}

	// A set left on the first ACTIVE port may end up on any port
	private static boolean samePort(int a, int b) {
		return a == b || a == CounterSetDefinition.FIRST_ACTIVE_PORT || b == CounterSetDefinition.FIRST_ACTIVE_PORT;
	}

	// Whether some packet can match both: no field set in both to values that exclude
	// each other
	static boolean overlap(FlowSpec a, FlowSpec b) {
		return compatible(a.etherType(), b.etherType()) && compatible(a.sourceMac(), b.sourceMac())
				&& compatible(a.destinationMac(), b.destinationMac()) && compatible(a.vlanId(), b.vlanId())
				&& compatible(a.protocol(), b.protocol()) && compatible(a.sourcePort(), b.sourcePort())
				&& compatible(a.destinationPort(), b.destinationPort()) && overlap(a.sourceIp(), b.sourceIp())
				&& overlap(a.destinationIp(), b.destinationIp());
	}

	private static boolean compatible(@Nullable Object a, @Nullable Object b) {
		return a == null || b == null || Objects.equals(a, b);
	}

	private static boolean overlap(@Nullable IpPrefix a, @Nullable IpPrefix b) {
		if (a == null || b == null) {
			return true;
		}
		if (a.isIpv4() != b.isIpv4()) {
			return false;
		}
		return (a.prefixLength() <= b.prefixLength()) ? a.contains(b.address()) : b.contains(a.address());
	}

	private static FlowSpec withPriority(FlowSpec spec, int priority) {
		return (spec.priority() == priority) ? spec : spec.toBuilder().priority(priority).build();
	}

}
