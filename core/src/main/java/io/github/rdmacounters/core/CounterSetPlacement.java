package io.github.rdmacounters.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Checks the counter sets of one device and places them where each counts every packet it
 * matches, as mlx5 steers (drivers/infiniband/hw/mlx5/fs.c).
 * <p>
 * Every set must count without trapping, at a priority mlx5 has: a flow without
 * don't-trap forwards the packets it matches to the raw packet queue pair, which has no
 * receive buffers posted, so the kernel never gets them. And rules of one priority share
 * one flow table, where a packet matches one rule: two sets whose flows can match the
 * same packet, at one priority, would count it once between them. So sets are placed in
 * configuration order, each at the first priority from its configured one at which no set
 * placed before it overlaps it; don't-trap then lets every packet continue to the next
 * priority, where the next set sees it. mlx5 has user priorities 0 to
 * {@value #LAST_PRIORITY} ({@code MLX5_IB_FLOW_LAST_PRIO}).
 *
 * @author rdma-counters
 */
final class CounterSetPlacement {

	/**
	 * The last user priority of mlx5 ({@code MLX5_IB_FLOW_LAST_PRIO}, checked by
	 * {@code mlx5_ib_create_flow}).
	 */
	static final int LAST_PRIORITY = 15;

	private CounterSetPlacement() {
	}

	/**
	 * Check the sets of a device and place them at priorities where none shadows another.
	 * @param plan the device's configuration
	 * @return the sets, each with the flow it gets
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
				problems.add(new InvalidRdmaConfigurationException.Problem(flow + ".priority", priority,
						"must be 0 to " + LAST_PRIORITY + ": mlx5, the only provider with flow counters, has 16 user "
								+ "priorities (beyond them ibv_create_flow fails with ENOMEM)"));
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

	/**
	 * Whether two sets may count on one port: a packet arrives on one port, but a set
	 * left on the first ACTIVE port may end up on any.
	 */
	private static boolean samePort(int a, int b) {
		return a == b || a == CounterSetDefinition.FIRST_ACTIVE_PORT || b == CounterSetDefinition.FIRST_ACTIVE_PORT;
	}

	/**
	 * Return whether some packet can match both specs: no field is set in both to values
	 * that exclude each other.
	 * @param a one spec
	 * @param b another spec
	 * @return {@code true} if the flows can match the same packet
	 */
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
