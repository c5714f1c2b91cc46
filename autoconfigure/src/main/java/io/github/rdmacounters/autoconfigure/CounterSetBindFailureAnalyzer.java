package io.github.rdmacounters.autoconfigure;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.PropertyMatches;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.convert.ConversionFailedException;
import org.springframework.core.convert.ConverterNotFoundException;
import org.springframework.core.env.Environment;
import org.springframework.util.ReflectionUtils;

import io.github.rdmacounters.core.CounterSetDefinition;

/**
 * Analyzes a {@link BindException} of {@code rdma.counter-sets}: a key no set has, with
 * the closest one (a typo such as {@code destinaton-port} would otherwise widen the
 * flow), a key left blank, a set or group written as one value, an unknown counter type.
 * Ordered before Boot's analyzers, which would not name the set's key.
 *
 * @author rdma-counters
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class CounterSetBindFailureAnalyzer extends AbstractFailureAnalyzer<BindException> {

	private static final ConfigurationPropertyName SETS = ConfigurationPropertyName.of("rdma.counter-sets");

	/** A set's property as written, e.g. {@code rdma.counterSets.web.flow.protocol}. */
	private static final Pattern WRITTEN_SET = Pattern.compile("(?i)(rdma\\.counter-?sets\\.([^.\\[]+))\\..+");

	/** The keys of a set, e.g. {@code flow.destination-port}, read off its fields. */
	static final List<String> SET_KEYS = keys(CounterSetProperties.class, "");

	private final Environment environment;

	CounterSetBindFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
		if (cause.getCause() instanceof UnboundConfigurationPropertiesException unbound) {
			return unbound.getUnboundProperties()
				.stream()
				.filter((property) -> SETS.isAncestorOf(property.getName())
						&& property.getName().getNumberOfElements() > 3)
				.findFirst()
				.map((property) -> unknownKey(property, cause))
				.orElse(null);
		}
		ConfigurationPropertyName name = cause.getName();
		if (!SETS.isAncestorOf(name)) {
			return null;
		}
		if (cause.getCause() instanceof ConverterNotFoundException) {
			ConfigurationProperty single = (cause.getProperty() != null) ? cause.getProperty()
					: Problems.find(this.environment, name);
			String group = (name.getNumberOfElements() > 3)
					? "'" + original(name, 3) + "' of a counter set is a group of keys (" + keysUnder(original(name, 3))
							+ ")"
					: "A counter set is a group of device, netdev, port, counters, read-mode and flow, e.g. "
							+ "flow.protocol: tcp and flow.destination-port: 4420";
			return analysis(single, name, group + "; it cannot be a single value", cause);
		}
		if ("counters".equals(name.getLastElement(Form.UNIFORM))
				&& cause.getCause() instanceof ConversionFailedException conversion) {
			return unknownCounterType(name, conversion, cause);
		}
		return null;
	}

	private FailureAnalysis unknownKey(ConfigurationProperty property, BindException cause) {
		Matcher written = (property.getOrigin() instanceof PropertySourceOrigin origin)
				? WRITTEN_SET.matcher(origin.getPropertyName()) : null;
		if (written != null && written.matches() && !CounterSetDefinition.NAME.matcher(written.group(2)).matches()) {
			// a name of characters Boot drops, such as 计数器, binds as no set at all
			return analysis(null, ConfigurationPropertyName.adapt(written.group(1), '.'),
					CounterSetDefinition.NAME_RULE, cause, written.group(1), written.group(2));
		}
		String key = original(property.getName(), 3);
		String known = Problems.kebab(key);
		if (SET_KEYS.contains(known) && property.getValue() instanceof CharSequence text && text.toString().isBlank()) {
			// a known key left blank, which Boot binds as nothing
			return analysis(property, property.getName(), "must have a value" + allowed(known) + ", or leave " + known
					+ " out" + (known.startsWith("flow.") ? " to match any" : " for the default"), cause);
		}
		String closest = closest(known);
		return analysis(property, property.getName(),
				"'" + key + "' is not a counter set property"
						+ ((closest != null) ? "; did you mean " + closest + "?" : ".") + " A counter set has "
						+ String.join(", ", SET_KEYS) + "; an unknown key would leave the flow wider than meant",
				cause);
	}

	private FailureAnalysis unknownCounterType(ConfigurationPropertyName counters, ConversionFailedException ex,
			BindException cause) {
		// the map key that is no CounterType
		ConfigurationPropertyName name = counters.append(String.valueOf(ex.getValue()));
		return analysis(Problems.find(this.environment, name), name,
				"'" + ex.getValue()
						+ "' is not a counter type: counters are packets or bytes, each with its index in a read",
				cause);
	}

	/** An analysis worded as Boot's of an invalid property value. */
	private static FailureAnalysis analysis(@Nullable ConfigurationProperty property, ConfigurationPropertyName name,
			String reason, BindException cause) {
		return analysis(property, name, reason, cause, null, null);
	}

	private static FailureAnalysis analysis(@Nullable ConfigurationProperty property, ConfigurationPropertyName name,
			String reason, BindException cause, @Nullable String writtenName, @Nullable Object writtenValue) {
		Origin origin = (property != null) ? property.getOrigin() : null;
		String written = (writtenName != null) ? writtenName
				: (origin instanceof PropertySourceOrigin source) ? source.getPropertyName() : original(name, 0);
		if (origin instanceof PropertySourceOrigin source && source.getOrigin() != null) {
			origin = source.getOrigin();
		}
		return new FailureAnalysis(
				"Invalid value '"
						+ ((writtenValue != null) ? writtenValue : (property != null) ? property.getValue() : "")
						+ "' for " + "configuration property '" + written + "'"
						+ ((origin != null) ? " (originating from '" + origin + "')" : "")
						+ ". Validation failed for the following reason:\n\n" + reason,
				"Review the value of the property with the provided reason.", cause);
	}

	/**
	 * The closest key, e.g. {@code flow.destination-port} for
	 * {@code flow.destinaton-port}.
	 */
	private static @Nullable String closest(String key) {
		int dot = key.indexOf('.');
		String head = closestField((dot < 0) ? key : key.substring(0, dot), CounterSetProperties.class);
		if (dot < 0 || head == null) {
			return head;
		}
		String tail = "flow".equals(head) ? closestField(key.substring(dot + 1), CounterSetProperties.Flow.class)
				: null;
		return (tail != null) ? head + "." + tail : null;
	}

	private static @Nullable String closestField(String key, Class<?> type) {
		String[] matches = PropertyMatches.forField(camel(key), type).getPossibleMatches();
		return (matches.length > 0) ? Problems.kebab(matches[0]) : null;
	}

	/** The values of an enum key, e.g. {@code : tcp or udp}. */
	private static String allowed(String key) {
		int dot = key.lastIndexOf('.');
		Class<?> owner = (dot > 0) ? CounterSetProperties.Flow.class : CounterSetProperties.class;
		Field field = ReflectionUtils.findField(owner, camel(key.substring(dot + 1)));
		if (field == null || !field.getType().isEnum()) {
			return "";
		}
		return ": " + Arrays.stream(field.getType().getEnumConstants())
			.map((constant) -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT).replace('_', '-'))
			.collect(Collectors.joining(" or "));
	}

	private static String keysUnder(String group) {
		if ("counters".equals(group)) {
			return "packets, bytes: each counter type with its index in a read";
		}
		return SET_KEYS.stream()
			.filter((key) -> key.startsWith(group + "."))
			.map((key) -> key.substring(group.length() + 1))
			.collect(Collectors.joining(", "));
	}

	private static List<String> keys(Class<?> type, String prefix) {
		List<String> keys = new ArrayList<>();
		for (Field field : type.getDeclaredFields()) {
			if (!Modifier.isStatic(field.getModifiers())) {
				String key = prefix + Problems.kebab(field.getName());
				keys.addAll("flow".equals(key) ? keys(CounterSetProperties.Flow.class, "flow.") : List.of(key));
			}
		}
		return keys;
	}

	/** The elements of a name from an index on, each as written, joined by dots. */
	private static String original(ConfigurationPropertyName name, int from) {
		StringBuilder text = new StringBuilder();
		for (int i = from; i < name.getNumberOfElements(); i++) {
			text.append((i > from) ? "." : "").append(name.getElement(i, Form.ORIGINAL));
		}
		return text.toString();
	}

	private static String camel(String kebab) {
		StringBuilder camel = new StringBuilder();
		for (String word : kebab.split("-")) {
			camel.append((camel.isEmpty() || word.isEmpty()) ? word
					: Character.toUpperCase(word.charAt(0)) + word.substring(1));
		}
		return camel.toString();
	}

}
