package io.github.rdmacounters.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A validated counter set: what {@code rdma.counter-sets.<name>} asks for.
 *
 * @param name the set name
 * @param indexes the index of each counter type, in configuration order
 * @param readMode how the counters are read
 * @param spec the flow that feeds the counters; {@link ManagedDeviceFactory} refuses a
 * flow without don't-trap and may move the flow to a free priority (see
 * {@link CounterSet#priority()})
 * @since 0.1.0
 */
public record CounterSetDefinition(String name, Map<CounterType, Integer> indexes, ReadMode readMode, FlowSpec spec) {

	/**
	 * Create a definition that counts packets at index 0 and bytes at index 1 and reads
	 * fresh values from the device: what a counter set has unless configured otherwise.
	 * @param name the set name
	 * @param spec the flow that feeds the counters
	 * @return the definition
	 * @since 0.1.0
	 */
	public static CounterSetDefinition of(String name, FlowSpec spec) {
		Map<CounterType, Integer> indexes = new LinkedHashMap<>();
		indexes.put(CounterType.PACKETS, 0);
		indexes.put(CounterType.BYTES, 1);
		return new CounterSetDefinition(name, Collections.unmodifiableMap(indexes), ReadMode.FRESH, spec);
	}

	/**
	 * Return a copy with another flow, e.g. the one placed at a free priority.
	 * @param newSpec the flow
	 * @return the definition
	 */
	public CounterSetDefinition withSpec(FlowSpec newSpec) {
		return new CounterSetDefinition(this.name, this.indexes, this.readMode, newSpec);
	}

}
