package io.github.rdmacounters.ethtool;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import io.github.rdmacounters.core.PortStatus;

/**
 * The driver statistics of one netdev read at once: the names and their unsigned 64-bit
 * values. Immutable.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public final class NetdevStatistics {

	private final String netdev;

	private final StatisticNames names;

	private final long[] values;

	/**
	 * Create statistics.
	 * @param netdev the interface name
	 * @param names the names
	 * @param values the values, one per name, as unsigned 64-bit integers
	 * @throws IllegalArgumentException if the counts differ
	 */
	public NetdevStatistics(String netdev, StatisticNames names, long[] values) {
		this(netdev, names, values.clone(), true);
	}

	/** Take the values as they are: the reader's array, which nothing else holds. */
	NetdevStatistics(String netdev, StatisticNames names, long[] values, boolean owned) {
		if (names.size() != values.length) {
			throw new IllegalArgumentException(
					netdev + " has " + names.size() + " statistic names but " + values.length + " values");
		}
		this.netdev = Objects.requireNonNull(netdev, "netdev");
		this.names = names;
		this.values = values;
	}

	/**
	 * Return the interface name.
	 * @return the name, e.g. {@code ens1f0np0}
	 */
	public String netdev() {
		return this.netdev;
	}

	/**
	 * Return the names.
	 * @return the names
	 */
	public StatisticNames names() {
		return this.names;
	}

	/**
	 * Return the number of statistics.
	 * @return the count
	 */
	public int size() {
		return this.values.length;
	}

	/**
	 * Return a value as the driver gave it.
	 * @param index the index of the statistic
	 * @return the value, an unsigned 64-bit integer in a {@code long} (use
	 * {@link Long#toUnsignedString(long)} to show it)
	 */
	public long rawValue(int index) {
		return this.values[index];
	}

	/**
	 * Return a value as a double: the unsigned value, exact up to 2<sup>53</sup> and
	 * rounded to the nearest double beyond.
	 * @param index the index of the statistic
	 * @return the value, never negative
	 */
	public double value(int index) {
		return PortStatus.unsignedToDouble(this.values[index]);
	}

	/**
	 * Return the value of a statistic by name.
	 * @param name the name, e.g. {@code rx_prio3_pause}
	 * @return the value of its first occurrence, or {@link Double#NaN} if the driver has
	 * no such statistic
	 */
	public double value(String name) {
		int index = this.names.indexOf(name);
		return (index >= 0) ? value(index) : Double.NaN;
	}

	/**
	 * Return the statistics as a map in the driver's order, values in decimal as
	 * {@code ethtool -S} prints them; a repeated name keeps its first value.
	 * @return the map
	 */
	public Map<String, String> asMap() {
		Map<String, String> map = new LinkedHashMap<>();
		for (int i = 0; i < this.values.length; i++) {
			map.putIfAbsent(this.names.asList().get(i), Long.toUnsignedString(this.values[i]));
		}
		return map;
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof NetdevStatistics that && this.netdev.equals(that.netdev)
				&& this.names.asList().equals(that.names.asList()) && Arrays.equals(this.values, that.values);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.netdev, this.names.asList(), Arrays.hashCode(this.values));
	}

	@Override
	public String toString() {
		return "NetdevStatistics " + this.netdev + " (" + this.values.length + " statistics)";
	}

}
