package io.github.rdmacounters.autoconfigure;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.Order;
import org.springframework.core.convert.ConverterNotFoundException;
import org.springframework.core.env.Environment;

/**
 * Analyzes a {@link BindException} of an {@code rdma} group or map written as one value
 * or as a list (Boot's binder finds no converter): names the property as written and the
 * shape it has, e.g. {@code rdma.devices} is a map of device options by device name. A
 * counter set's own keys are left to {@link CounterSetBindFailureAnalyzer}.
 *
 * @author rdma-counters
 */
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
class RdmaPropertyShapeFailureAnalyzer extends AbstractFailureAnalyzer<BindException> {

	private static final ConfigurationPropertyName RDMA = ConfigurationPropertyName.of(RdmaProperties.PREFIX);

	private static final ConfigurationPropertyName SETS = ConfigurationPropertyName.of("rdma.counter-sets");

	private final Environment environment;

	RdmaPropertyShapeFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
		ConfigurationPropertyName name = cause.getName();
		if (!(cause.getCause() instanceof ConverterNotFoundException) || !RDMA.isAncestorOf(name)
				|| SETS.isAncestorOf(name)) {
			return null;
		}
		ConfigurationProperty property = (cause.getProperty() != null) ? cause.getProperty()
				: Problems.find(this.environment, name);
		Origin origin = (property != null) ? property.getOrigin() : null;
		String written = (origin instanceof PropertySourceOrigin source) ? source.getPropertyName() : name.toString();
		if (origin instanceof PropertySourceOrigin source && source.getOrigin() != null) {
			origin = source.getOrigin();
		}
		ResolvableType type = cause.getTarget().getType();
		String shape;
		if (Map.class.isAssignableFrom(type.toClass())) {
			List<String> keys = keys(SETS.equals(name) ? CounterSetProperties.class : type.resolveGeneric(1));
			shape = "'" + written + "' is a map by name, each entry a group of keys (" + String.join(", ", keys)
					+ "), e.g. " + written + ".<name>." + keys.get(0);
		}
		else if (name.isLastElementIndexed() && name.isNumericIndex(name.getNumberOfElements() - 1)
				&& written.lastIndexOf('[') > 0) {
			String map = written.substring(0, written.lastIndexOf('['));
			List<String> keys = keys(type.toClass());
			shape = "'" + map + "' is a map by name, not a list: write " + map + ".<name>." + keys.get(0)
					+ " (in YAML a name under it, not a '-' item); each entry is a group of keys ("
					+ String.join(", ", keys) + ")";
		}
		else {
			List<String> keys = keys(type.toClass());
			shape = "'" + written + "' is a group of keys (" + String.join(", ", keys) + "), e.g. " + written + "."
					+ keys.get(0);
		}
		return new FailureAnalysis(
				"Invalid value '" + ((property != null) ? property.getValue() : "") + "' for configuration property '"
						+ written + "'" + ((origin != null) ? " (originating from '" + origin + "')" : "")
						+ ". Validation failed for the following reason:\n\n" + shape
						+ "; it cannot be a single value or a list item",
				"Write the property in that shape.", cause);
	}

	private static List<String> keys(@Nullable Class<?> type) {
		List<String> keys = new ArrayList<>();
		if (type != null) {
			for (Field field : type.getDeclaredFields()) {
				if (!Modifier.isStatic(field.getModifiers())) {
					keys.add(Problems.kebab(field.getName()));
				}
			}
		}
		return keys.isEmpty() ? List.of("<key>") : keys;
	}

}
