package io.github.rdmacounters.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.InvalidRdmaConfigurationException.Problem;

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
	 * What a set name may be: it names a bean, a meter tag and a path segment at once.
	 */
	public static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]{0,63}");

	/**
	 * The rule of {@link #NAME} in words.
	 */
	public static final String NAME_RULE = "a counter set name must start with a letter and have only letters, "
			+ "digits, '-' and '_', at most 64 characters: it names a bean, a meter tag and /actuator/rdma/{set}";

	/**
	 * The highest counter index: a read allocates one value per index up to it.
	 */
	public static final int MAX_COUNTER_INDEX = 255;

	/**
	 * Check and create a set from configuration.
	 * @param property the set's property, e.g. {@code rdma.counter-sets.web}, which every
	 * problem is named under
	 * @param name the set name
	 * @param port the port, from 1, or {@code null} for the first ACTIVE one
	 * @param counters the index of each counter type; empty for the
	 * {@link #DEFAULT_COUNTERS}
	 * @param readMode how the counters are read
	 * @param flow the flow, e.g. from {@link FlowSpec#builder(String)}
	 * @return the definition
	 * @throws InvalidRdmaConfigurationException listing every problem of the set
	 * @since 0.1.0
	 */
	public static CounterSetDefinition of(String property, String name, @Nullable Integer port,
			Map<CounterType, Integer> counters, ReadMode readMode, FlowSpec.Builder flow) {
		List<Problem> problems = new ArrayList<>();
		if (!NAME.matcher(name).matches()) {
			problems.add(new Problem(property, name, NAME_RULE));
		}
		if (port != null && (port < 1 || port > PortAttributes.MAX_PORT)) {
			problems.add(new Problem(property + ".port", port, "must be 1 to " + PortAttributes.MAX_PORT
					+ " (ports are numbered from 1), or left out for the device's first ACTIVE port"));
		}
		Map<Integer, CounterType> byIndex = new LinkedHashMap<>();
		counters.forEach((type, index) -> {
			String counter = property + ".counters." + type.name().toLowerCase(Locale.ROOT);
			if (index == null || index < 0 || index > MAX_COUNTER_INDEX) {
				problems.add(new Problem(counter, index, "must be an index from 0 to " + MAX_COUNTER_INDEX));
			}
			else if (byIndex.putIfAbsent(index, type) != null) {
				problems.add(new Problem(counter, index,
						"index " + index + " is already used by " + byIndex.get(index).name().toLowerCase(Locale.ROOT)
								+ "; give each counter type its own index"));
			}
		});
		FlowSpec spec = null;
		try {
			spec = flow.build();
		}
		catch (InvalidRdmaConfigurationException ex) {
			problems.addAll(ex.problems());
		}
		if (spec == null || !problems.isEmpty()) {
			throw new InvalidRdmaConfigurationException(problems);
		}
		Map<CounterType, Integer> indexes = counters.isEmpty() ? DEFAULT_COUNTERS
				: Collections.unmodifiableMap(new LinkedHashMap<>(counters));
		return new CounterSetDefinition(name, (port != null) ? port : FIRST_ACTIVE_PORT, indexes, readMode, spec);
	}

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
