package io.github.rdmacounters.autoconfigure;

import java.util.List;
import java.util.Map;

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
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.convert.ConversionFailedException;
import org.springframework.core.convert.ConverterNotFoundException;
import org.springframework.core.env.Environment;

import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException;

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
			return Analyses.invalidValue(property, Problems.written(property, key),
					(property != null) ? property.getValue() : conversion.getValue(),
					"'" + conversion.getValue()
							+ "' is not a counter type: counters are packets or bytes, each with its index in a read",
					cause);
		}
		if (WHOLE_NUMBERS.contains(cause.getTarget().getType().resolve(Object.class))) {
			ConfigurationProperty property = cause.getProperty();
			String rule = (SETS.isAncestorOf(name) && name.getNumberOfElements() > 3)
					? setRule(Problems.original(name, 3)) : null;
			return Analyses.invalidValue(property, Problems.written(property, name),
					(property != null) ? property.getValue() : conversion.getValue(),
					"must be a whole number" + ((rule != null) ? ": it " + rule : ""), cause);
		}
		return null;
	}

	/**
	 * The rule of a whole-number key of a counter set, e.g. {@code must be 1 to 255} of
	 * {@code port}, as the core states it for a value out of range.
	 */
	static @Nullable String setRule(String key) {
		String prefix = "rdma.counter-sets.x";
		Binder binder = new Binder(new MapConfigurationPropertySource(Map.of(key, "-1", "flow.protocol", "udp")));
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
	 * A group or a map of {@code rdma} written as one value or as a list item (Boot's
	 * binder finds no converter): the shape it has, e.g. {@code rdma.devices} is a map of
	 * device options by device name.
	 */
	private FailureAnalysis shape(BindException cause) {
		ConfigurationPropertyName name = cause.getName();
		ConfigurationProperty property = (cause.getProperty() != null) ? cause.getProperty()
				: Problems.find(this.environment, name);
		String written = Problems.written(property, name);
		Class<?> type = cause.getTarget().getType().toClass();
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
		}
		return Analyses.invalidValue(property, written, (property != null) ? property.getValue() : "",
				shape + "; it cannot be a single value or a list item", cause);
	}

	private static List<String> keys(@Nullable Class<?> type) {
		List<String> keys = RdmaPropertyKeys.names(type);
		return keys.isEmpty() ? List.of("<key>") : keys;
	}

}
