package io.github.rdmacounters.ethtool;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The names of a netdev's driver statistics, in the driver's order, as
 * {@code ETHTOOL_GSTRINGS} returns them. The same instance is shared by every read until
 * the driver's count changes, so a reader of many snapshots can cache what it derived
 * from the names by identity. Immutable.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public final class StatisticNames {

	private static final StatisticNames NONE = new StatisticNames(List.of());

	private final List<String> names;

	private final Map<String, Integer> indexes;

	private StatisticNames(List<String> names) {
		this.names = List.copyOf(names);
		Map<String, Integer> indexes = new HashMap<>();
		for (int i = 0; i < this.names.size(); i++) {
			// a driver may repeat a name: ethtool -S shows both, a lookup finds the first
			indexes.putIfAbsent(this.names.get(i), i);
		}
		this.indexes = Map.copyOf(indexes);
	}

	/**
	 * Return the names of a driver's statistics.
	 * @param names the names in the driver's order
	 * @return the names
	 */
	public static StatisticNames of(List<String> names) {
		return names.isEmpty() ? NONE : new StatisticNames(names);
	}

	/**
	 * Return the names.
	 * @return the names in the driver's order, repeated names included
	 */
	public List<String> asList() {
		return this.names;
	}

	/**
	 * Return the number of statistics.
	 * @return the count
	 */
	public int size() {
		return this.names.size();
	}

	/**
	 * Return the index of a name.
	 * @param name the name, e.g. {@code rx_prio3_pause}
	 * @return the index of its first occurrence, or -1 if the driver has no such
	 * statistic
	 */
	public int indexOf(String name) {
		Integer index = this.indexes.get(name);
		return (index != null) ? index : -1;
	}

	@Override
	public String toString() {
		return this.names.size() + " statistics";
	}

}
