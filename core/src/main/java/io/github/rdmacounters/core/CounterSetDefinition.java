package io.github.rdmacounters.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A validated counter set: what {@code rdma.counter-sets.<name>} asks for.
 *
 * @param name the set name
 * @param port the port the set's flow attaches to, or {@link #FIRST_ACTIVE_PORT}
 * @param indexes the index of each counter type, in configuration order
 * @param readMode how the counters are read
 * @param spec the flow that feeds the counters; {@link ManagedDeviceFactory} refuses a
 * flow without don't-trap and may move the flow to a free priority (see
 * {@link CounterSet#priority()})
 * @since 0.1.0
 */
public record CounterSetDefinition(String name, int port, Map<CounterType, Integer> indexes, ReadMode readMode,
		FlowSpec spec) {

	/**
	 * The port of a set that leaves it to the device: its first ACTIVE port, or port 1 if
	 * none is active.
	 */
	public static final int FIRST_ACTIVE_PORT = 0;

	/**
	 * The counters a set has unless configured otherwise: packets at index 0, bytes at 1.
	 */
	public static final Map<CounterType, Integer> DEFAULT_COUNTERS = defaultCounters();

	/**
	 * Create a definition with the {@link #DEFAULT_COUNTERS} that reads fresh values on
	 * the device's first ACTIVE port.
	 * @param name the set name
	 * @param spec the flow that feeds the counters
	 * @return the definition
	 * @since 0.1.0
	 */
	public static CounterSetDefinition of(String name, FlowSpec spec) {
		return of(name, FIRST_ACTIVE_PORT, spec);
	}

	/**
	 * Create a definition with the {@link #DEFAULT_COUNTERS} that reads fresh values on a
	 * port.
	 * @param name the set name
	 * @param port the port, from 1, or {@link #FIRST_ACTIVE_PORT}
	 * @param spec the flow that feeds the counters
	 * @return the definition
	 * @since 0.1.0
	 */
	public static CounterSetDefinition of(String name, int port, FlowSpec spec) {
		return new CounterSetDefinition(name, port, DEFAULT_COUNTERS, ReadMode.FRESH, spec);
	}

	/**
	 * Return a copy with another flow, e.g. the one placed at a free priority.
	 * @param newSpec the flow
	 * @return the definition
	 */
	public CounterSetDefinition withSpec(FlowSpec newSpec) {
		return new CounterSetDefinition(this.name, this.port, this.indexes, this.readMode, newSpec);
	}

	/**
	 * Return a copy on another port, e.g. the device's first ACTIVE one.
	 * @param newPort the port
	 * @return the definition
	 */
	public CounterSetDefinition withPort(int newPort) {
		return new CounterSetDefinition(this.name, newPort, this.indexes, this.readMode, this.spec);
	}

	private static Map<CounterType, Integer> defaultCounters() {
		Map<CounterType, Integer> indexes = new LinkedHashMap<>();
		indexes.put(CounterType.PACKETS, 0);
		indexes.put(CounterType.BYTES, 1);
		return Collections.unmodifiableMap(indexes);
	}

}
