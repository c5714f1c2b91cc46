package io.github.rdmacounters.core;

import java.util.Map;

/**
 * A validated counter set: what {@code rdma.counter-sets.<name>} asks for.
 *
 * @param name the set name
 * @param indexes the index of each counter type, in configuration order
 * @param readMode how the counters are read
 * @param spec the flow that feeds the counters
 */
public record CounterSetDefinition(String name, Map<CounterType, Integer> indexes, ReadMode readMode, FlowSpec spec) {

}
