package io.github.rdmacounters.autoconfigure;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.Order;

import io.github.rdmacounters.core.CounterSetDefinition;

/**
 * Analyzes an {@code rdma} property that Boot's binder left unbound: a key no property
 * type has (with the closest one), a list item where a group of keys is, or a known key
 * left blank. Each is named as written.
 *
 * @author rdma-counters
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class UnboundRdmaPropertyFailureAnalyzer extends AbstractFailureAnalyzer<UnboundConfigurationPropertiesException> {

	private static final ConfigurationPropertyName RDMA = ConfigurationPropertyName.of(RdmaProperties.PREFIX);

	private static final ConfigurationPropertyName SETS = ConfigurationPropertyName.of("rdma.counter-sets");

	/** A set's property as written, e.g. {@code rdma.counterSets.web.flow.protocol}. */
	private static final Pattern WRITTEN_SET = Pattern
		.compile("(?i)(rdma\\.counter-?sets\\.(\\[[^]]*]|[^.\\[]+))\\..+");

	/** An element of a name as written: a key, or an index or key in brackets. */
	private static final Pattern ELEMENT = Pattern.compile("\\[[^]]*]|[^.\\[]+");

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, UnboundConfigurationPropertiesException cause) {
		List<FailureAnalysis> analyses = cause.getUnboundProperties()
			.stream()
			.filter((unbound) -> RDMA.isAncestorOf(unbound.getName()))
			.map((unbound) -> analyze(unbound, cause))
			.toList();
		if (analyses.size() < 2) {
			return analyses.isEmpty() ? null : analyses.get(0);
		}
		// Boot's wording of several: each on its own
		return new FailureAnalysis(analyses.stream()
			.map(FailureAnalysis::getDescription)
			.collect(Collectors.joining("\n\n", "Invalid rdma properties:\n\n", "")), Analyses.REVIEW, cause);
	}

	private FailureAnalysis analyze(ConfigurationProperty property, Throwable cause) {
		ConfigurationPropertyName name = property.getName();
		String written = Problems.written(property, name);
		Object value = property.getValue();
		if (SETS.isAncestorOf(name) && name.getNumberOfElements() > 3) {
			FailureAnalysis set = setKey(property, written, cause);
			if (set != null) {
				return set;
			}
		}
		RdmaPropertyKeys.Unknown unknown = RdmaPropertyKeys.unknown(name);
		if (unknown == null) {
			// a known key left blank, which Boot binds as nothing
			return Analyses.invalidValue(property, written, value,
					"must have a value" + allowed(name) + ", or leave " + written + " out for the default", cause);
		}
		String[] elements = elements(written, name);
		String group = String.join(".", Arrays.copyOf(elements, unknown.index()));
		String reason;
		if (unknown.keys().isEmpty() && elements[unknown.index()].startsWith("[")) {
			reason = "'" + group + "' is a single value, not a list: write " + group + "=<value>"
					+ allowed(name.chop(unknown.index())) + " (in YAML a value, not a '-' item)";
		}
		else if (unknown.keys().isEmpty()) {
			reason = "'" + group + "' is a single value and has no key '" + elements[unknown.index()] + "'";
		}
		else if (unknown.listItem()) {
			reason = "'" + group + "' is a group of keys (" + unknown.allowed() + "), not a list: write " + group + "."
					+ unknown.keys().get(0) + " (in YAML a key under it, not a '-' item)";
		}
		else {
			String closest = (unknown.closest() != null)
					? "; did you mean " + group + "." + unknown.closest() + tail(elements, unknown.index() + 1) + "?"
					: ".";
			reason = "'" + elements[unknown.index()] + "' is not a key of " + group + closest + " Its keys are "
					+ unknown.allowed();
		}
		return Analyses.invalidValue(property, written, value, reason, cause);
	}

	/**
	 * A key of a counter set that is unknown or blank, or a set whose name Boot's binder
	 * would not keep as written.
	 */
	private @Nullable FailureAnalysis setKey(ConfigurationProperty property, String written, Throwable cause) {
		ConfigurationPropertyName name = property.getName();
		if (name.isNumericIndex(2)) {
			// a list of sets, each with a name key, as other tools write them
			String example = ("name".equals(name.getLastElement(Form.UNIFORM))
					&& property.getValue() instanceof CharSequence text
					&& CounterSetDefinition.NAME.matcher(text).matches()) ? text.toString() : "<name>";
			return Analyses.invalidValue(property, written, property.getValue(),
					"'" + CountersBeanRegistrar.COUNTER_SETS + "' is a map by name, not a list: write each set under "
							+ "its name, e.g. " + CountersBeanRegistrar.COUNTER_SETS + "." + example
							+ ".flow.protocol=tcp (in YAML the name as a key under counter-sets, not a '-' item "
							+ "with a name key)",
					cause);
		}
		Matcher set = WRITTEN_SET.matcher(written);
		if (set.matches()) {
			String bracketed = set.group(2);
			String inner = bracketed.startsWith("[") ? bracketed.substring(1, bracketed.length() - 1) : bracketed;
			if (!CounterSetDefinition.NAME.matcher(inner).matches()) {
				// a name of characters Boot drops, such as 计数器, binds as no set at all
				return Analyses.invalidValue(null, set.group(1), inner.isEmpty() ? bracketed : inner,
						CounterSetDefinition.NAME_RULE, cause);
			}
		}
		String key = Problems.original(property.getName(), 3);
		String known = DataObjectPropertyName.toDashedForm(key);
		if (Problems.SET_KEYS.contains(known) && property.getValue() instanceof CharSequence text
				&& text.toString().isBlank()) {
			String rule = RdmaBindFailureAnalyzer.setRule(key);
			return Analyses.invalidValue(property, written, property.getValue(),
					"must have a value" + Problems.allowed(known) + ((rule != null) ? " (it " + rule + ")" : "")
							+ ", or leave " + known + " out"
							+ (known.startsWith("flow.") ? " to match any" : " for the default"),
					cause);
		}
		FailureAnalysis listItem = (set.matches()) ? setListItem(property, set.group(1), cause) : null;
		if (listItem != null) {
			return listItem;
		}
		if (RdmaPropertyKeys.unknown(property.getName()) == null) {
			return null;
		}
		String closest = Problems.closest(known);
		return Analyses.invalidValue(property, written, property.getValue(),
				"'" + key + "' is not a counter set property"
						+ ((closest != null) ? "; did you mean " + closest + "?" : ".") + " A counter set has "
						+ String.join(", ", Problems.SET_KEYS)
						+ "; an unknown key would leave the flow wider than meant",
				cause);
	}

	/**
	 * A key of a counter set written as a list item, e.g. {@code port[0]} or
	 * {@code flow[0].protocol}, or {@code null} if there is none.
	 */
	private static @Nullable FailureAnalysis setListItem(ConfigurationProperty property, String set, Throwable cause) {
		ConfigurationPropertyName name = property.getName();
		for (int i = 4; i < name.getNumberOfElements(); i++) {
			if (name.isNumericIndex(i)) {
				String head = Problems.original(name.chop(i), 3);
				String keys = ("flow".equals(head)) ? String.join(", ", Problems.keys(CounterSetProperties.Flow.class))
						: "counters".equals(head) ? "packets, bytes" : null;
				String reason = (keys != null)
						? "'" + head + "' of a counter set is a group of keys (" + keys + "), not a list: write " + set
								+ "." + head + "." + keys.split(", ")[0] + " (in YAML a key under it, not a '-' item)"
						: "'" + head + "' of a counter set is a single value, not a list: write " + set + "." + head
								+ "=<value> (in YAML a value, not a '-' item)";
				return Analyses.invalidValue(property, Problems.written(property, name), property.getValue(), reason,
						cause);
			}
		}
		return null;
	}

	/** The elements of a name as written, or as Boot holds them if they differ. */
	private static String[] elements(String written, ConfigurationPropertyName name) {
		String[] elements = ELEMENT.matcher(written).results().map(MatchResult::group).toArray(String[]::new);
		if (elements.length == name.getNumberOfElements()) {
			return elements;
		}
		String[] original = new String[name.getNumberOfElements()];
		Arrays.setAll(original, (i) -> name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL));
		return original;
	}

	private static String tail(String[] elements, int from) {
		StringBuilder tail = new StringBuilder();
		for (int i = from; i < elements.length; i++) {
			tail.append('.').append(elements[i]);
		}
		return tail.toString();
	}

	/**
	 * The values of an enum or a boolean, e.g. {@code : native or simulated}, the form of
	 * a duration or the range of a number.
	 */
	static String allowed(ConfigurationPropertyName name) {
		ResolvableType type = RdmaPropertyKeys.typeOf(name);
		Class<?> raw = (type != null) ? type.resolve(Object.class) : Object.class;
		if (raw == Boolean.class || raw == boolean.class) {
			return ": true or false";
		}
		if (raw == Duration.class) {
			String rule = RdmaBindFailureAnalyzer.rule(name);
			return ": a duration such as 500ms, 1s or 5m" + ((rule != null) ? " (it " + rule + ")" : "");
		}
		if (Number.class.isAssignableFrom(raw) || (raw.isPrimitive() && raw != void.class)) {
			String rule = RdmaBindFailureAnalyzer.rule(name);
			return (rule != null) ? ": a number (it " + rule + ")" : ": a number";
		}
		return raw.isEnum() ? ": " + Problems.values(raw) : "";
	}

}
