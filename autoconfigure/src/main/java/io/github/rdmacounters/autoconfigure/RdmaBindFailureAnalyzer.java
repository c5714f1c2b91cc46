package io.github.rdmacounters.autoconfigure;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.convert.ConversionFailedException;
import org.springframework.core.convert.ConverterNotFoundException;
import org.springframework.core.env.Environment;

import io.github.rdmacounters.autoconfigure.simulated.SimulatedProperties;
import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException;
import io.github.rdmacounters.core.LinkLayer;

/**
 * Analyzes an {@code rdma} property that Boot's binder could not convert: a group or a
 * map written as one value or as a list item, a counter type that does not exist, or a
 * number that is none. Ordered before Boot's analyzer, which would show a
 * {@code NumberFormatException} and not name a set's key.
 *
 * @author rdma-counters
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class RdmaBindFailureAnalyzer extends AbstractFailureAnalyzer<BindException> {

	private static final ConfigurationPropertyName RDMA = ConfigurationPropertyName.of(RdmaProperties.PREFIX);

	private static final ConfigurationPropertyName SETS = ConfigurationPropertyName.of("rdma.counter-sets");

	private static final ConfigurationPropertyName SIMULATED = ConfigurationPropertyName.of("rdma.simulated");

	private static final List<Class<?>> WHOLE_NUMBERS = List.of(Integer.class, int.class, Long.class, long.class,
			Short.class, short.class);

	private final Environment environment;

	RdmaBindFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
		ConfigurationPropertyName name = cause.getName();
		if (!RDMA.isAncestorOf(name)) {
			return null;
		}
		if (cause.getCause() instanceof ConverterNotFoundException) {
			return shape(cause);
		}
		if (!(cause.getCause() instanceof ConversionFailedException conversion)) {
			return null;
		}
		if (SETS.isAncestorOf(name) && "counters".equals(name.getLastElement(Form.UNIFORM))) {
			// the map key that is no CounterType
			ConfigurationPropertyName key = name.append(String.valueOf(conversion.getValue()));
			ConfigurationProperty property = Problems.find(this.environment, key);
			String written = Problems.written(property, key);
			if (property != null && written.endsWith("]")) {
				// a list item, e.g. counters[0]=packets
				String counters = written.substring(0, written.lastIndexOf('['));
				return Analyses.invalidValue(property, written, property.getValue(),
						"'counters' of a counter set is a group of keys (packets, bytes), not a list: write " + counters
								+ ".packets=0 (in YAML a key under it, not a '-' item), each counter type with its "
								+ "index in a read",
						cause);
			}
			return Analyses.invalidValue(property, written,
					(property != null) ? property.getValue() : conversion.getValue(),
					"'" + conversion.getValue()
							+ "' is not a counter type: counters are packets or bytes, each with its index in a read",
					cause);
		}
		Class<?> target = cause.getTarget().getType().resolve(Object.class);
		String requirement = requirement(target, conversion);
		if (requirement == null) {
			return null;
		}
		ConfigurationProperty property = cause.getProperty();
		String rule = rule(name);
		return Analyses.invalidValue(property, Problems.written(property, name),
				(property != null) ? property.getValue() : conversion.getValue(),
				requirement + ((rule != null) ? ": it " + rule : ""), cause);
	}

	/**
	 * What a value of a type must be, e.g. {@code must be true or false}, or the reason a
	 * type of the starter gives, e.g. of an IP prefix.
	 */
	private static @Nullable String requirement(Class<?> target, ConversionFailedException conversion) {
		if (WHOLE_NUMBERS.contains(target)) {
			return "must be a whole number";
		}
		if (target == Double.class || target == double.class) {
			return "must be a number such as 0.2";
		}
		if (target == Boolean.class || target == boolean.class) {
			return "must be true or false";
		}
		if (target == LinkLayer.class) {
			// unspecified is what old providers report, not a link layer to simulate
			return "must be ethernet or infiniband";
		}
		if (target.isEnum()) {
			return "must be " + Problems.values(target);
		}
		if (target == Duration.class) {
			return "must be a duration: a whole number and its unit without a space (ns, us, ms, s, m, h or d), "
					+ "e.g. 500ms, 1s or 5m";
		}
		if (target.getPackageName().startsWith("io.github.rdmacounters")
				&& conversion.getCause() instanceof IllegalArgumentException reason && reason.getMessage() != null) {
			// the core's own reason, e.g. of an IP prefix or a MAC address
			return (String.valueOf(conversion.getValue()).contains(","))
					? "must be one value, not a list: a counter set counts one flow, so write one value, or a counter "
							+ "set for each"
					: reason.getMessage();
		}
		return null;
	}

	/**
	 * The range of a number or a duration, as the checks state it for a value out of
	 * range, or {@code null} if none is known.
	 */
	static @Nullable String rule(ConfigurationPropertyName name) {
		String range = RdmaPropertiesChecks.RANGES.get(name.toString());
		if (range != null) {
			return range;
		}
		if (SETS.isAncestorOf(name) && name.getNumberOfElements() > 3) {
			return setRule(Problems.original(name, 3));
		}
		if (SIMULATED.isAncestorOf(name)) {
			return simulatedRule(name);
		}
		return null;
	}

	/**
	 * The rule of a whole-number key of a counter set, e.g. {@code must be 1 to 255} of
	 * {@code port}, as the core states it for a value out of range.
	 */
	static @Nullable String setRule(String key) {
		String prefix = "rdma.counter-sets.x";
		Map<String, String> values = new HashMap<>(Map.of("flow.protocol", "udp"));
		values.put(key, "-1");
		Binder binder = new Binder(new MapConfigurationPropertySource(values));
		try {
			CounterSetProperties set = binder.bindOrCreate("", Bindable.of(CounterSetProperties.class));
			CounterSetDefinition.of(prefix, "x", set.port(), set.counters(), set.readMode(),
					set.flow().toBuilder(prefix + ".flow"));
		}
		catch (InvalidRdmaConfigurationException ex) {
			return ex.problems()
				.stream()
				.filter((problem) -> problem.property().equals(prefix + "." + key))
				.map(InvalidRdmaConfigurationException.Problem::requirement)
				.findFirst()
				.orElse(null);
		}
		catch (RuntimeException ex) {
			return null;
		}
		return null;
	}

	/**
	 * The rule of a number of the simulator, e.g. {@code must be 1 to 255} of a device's
	 * {@code ports}, as its check states it for a value out of range.
	 */
	private static @Nullable String simulatedRule(ConfigurationPropertyName name) {
		StringBuilder key = new StringBuilder();
		for (int i = 2; i < name.getNumberOfElements(); i++) {
			// the name of a device or a set, which the check needs to know
			boolean mapKey = (i == 3 && "devices".equals(name.getElement(2, Form.UNIFORM)))
					|| (i == 4 && "sets".equals(name.getElement(3, Form.UNIFORM)));
			key.append((i > 2) ? "." : "").append(mapKey ? "x" : name.getElement(i, Form.DASHED));
		}
		Binder binder = new Binder(new MapConfigurationPropertySource(Map.of(key.toString(), "-1")));
		try {
			SimulatedProperties simulated = binder.bindOrCreate("", Bindable.of(SimulatedProperties.class));
			return simulated.problems(Set.of("x"), Set.of())
				.stream()
				.filter((problem) -> problem.property().equals("rdma.simulated." + key))
				.map(InvalidRdmaConfigurationException.Problem::requirement)
				.findFirst()
				.orElse(null);
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	/**
	 * A group or a map of {@code rdma} written as one value or as a list item (Boot's
	 * binder finds no converter): the shape it has, e.g. {@code rdma.devices} is a map of
	 * device options by device name.
	 */
	private FailureAnalysis shape(BindException cause) {
		ConfigurationPropertyName name = cause.getName();
		ConfigurationProperty property = (cause.getProperty() != null) ? cause.getProperty()
				: Problems.find(this.environment, name);
		String written = Problems.written(property, name);
		int empty = written.indexOf("..");
		if (empty > 0) {
			// Boot drops the empty name, so the key after it was taken for the name
			String map = written.substring(0, empty);
			String[] entry = mapEntryName(map);
			return Analyses.invalidValue(property, written, (property != null) ? property.getValue() : "",
					"has nothing between the dots after '" + map + "', where " + entry[0] + " such as " + entry[1]
							+ " belongs: write it there, e.g. " + map + "." + entry[1] + written.substring(empty + 1),
					cause);
		}
		Class<?> type = cause.getTarget().getType().toClass();
		Object value = (property != null) ? property.getValue() : null;
		if (value instanceof Boolean bool && RdmaPropertyKeys.names(type).isEmpty() && !Map.class.isAssignableFrom(type)
				&& !Collection.class.isAssignableFrom(type)) {
			// YAML 1.1 reads yes, no, on, off, true and false as booleans, which Boot
			// cannot convert to a number or a duration
			String rule = rule(name);
			String text = YamlNumberForms.textAt(Origin.from(property));
			// YAML's text as written there; a boolean of JSON or code as it is
			String read = (text != null) ? "YAML reads " + text + " as the boolean " + bool : "it is a boolean";
			return Analyses.invalidValue(property, written, value,
					read + ", but " + kind(type) + " belongs here" + ((rule != null) ? ": it " + rule : ""), cause);
		}
		String setKey = (SETS.isAncestorOf(name) && name.getNumberOfElements() > 3) ? Problems.original(name, 3) : null;
		String shape;
		if ("counters".equals(setKey)) {
			shape = "'counters' of a counter set is a group of keys (packets, bytes: each counter type with its index "
					+ "in a read)";
		}
		else if (Map.class.isAssignableFrom(type)) {
			Class<?> entry = SETS.equals(name) ? CounterSetProperties.class
					: cause.getTarget().getType().resolveGeneric(1);
			List<String> keys = keys(entry);
			shape = "'" + written + "' is a map by name, each entry a group of keys (" + String.join(", ", keys)
					+ "), e.g. " + written + ".<name>." + keys.get(0);
		}
		else if (name.isLastElementIndexed() && name.isNumericIndex(name.getNumberOfElements() - 1)
				&& written.lastIndexOf('[') > 0) {
			String map = written.substring(0, written.lastIndexOf('['));
			List<String> keys = keys(type);
			shape = "'" + map + "' is a map by name, not a list: write " + map + ".<name>." + keys.get(0)
					+ " (in YAML a name under it, not a '-' item); each entry is a group of keys ("
					+ String.join(", ", keys) + ")";
		}
		else {
			List<String> keys = keys(type);
			shape = ((setKey != null) ? "'" + setKey + "' of a counter set" : "'" + written + "'")
					+ " is a group of keys (" + String.join(", ", keys) + "), e.g. " + written + "." + keys.get(0);
			if (value instanceof Boolean bool && keys.contains("enabled")) {
				// ethtool: false, meant as the feature's switch
				return Analyses.invalidValue(property, written, value,
						shape + "; it cannot be a single value: to switch it " + (bool ? "on" : "off") + ", write "
								+ written + ".enabled=" + bool,
						cause);
			}
		}
		return Analyses.invalidValue(property, written, (property != null) ? property.getValue() : "",
				shape + "; it cannot be a single value or a list item", cause);
	}

	/** What a value of a scalar type is, e.g. {@code a whole number}. */
	private static String kind(Class<?> type) {
		if (WHOLE_NUMBERS.contains(type)) {
			return "a whole number";
		}
		if (type == Duration.class) {
			return "a duration such as 500ms";
		}
		if (Number.class.isAssignableFrom(type) || type == double.class || type == float.class) {
			return "a number";
		}
		return "a value";
	}

	/** What names an entry of a map, and an example, e.g. an RDMA device name, mlx5_0. */
	private static String[] mapEntryName(String map) {
		return switch (map) {
			case "rdma.devices", "rdma.optional-counters.devices" -> new String[] { "an RDMA device name", "mlx5_0" };
			case "rdma.counter-sets", "rdma.simulated.traffic.sets" -> new String[] { "a counter set name", "roce" };
			case "rdma.simulated.devices" -> new String[] { "a simulated device name", "sim_mlx5_0" };
			default -> new String[] { "a name", "x" };
		};
	}

	private static List<String> keys(@Nullable Class<?> type) {
		List<String> keys = RdmaPropertyKeys.names(type);
		return keys.isEmpty() ? List.of("<key>") : keys;
	}

}
