package io.github.rdmacounters.autoconfigure;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.PropertyMatches;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.util.ReflectionUtils;

import io.github.rdmacounters.core.InvalidRdmaConfigurationException;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException.Problem;

/**
 * The problems found in the {@code rdma} properties, each with the value as written
 * ({@code 10ms}, not {@code PT0.01S}), and the names of properties as written, for the
 * checks and the failure analysis.
 *
 * @author rdma-counters
 */
final class Problems {

	/** The counter types, the keys under a set's {@code counters}. */
	private static final List<String> COUNTER_TYPES = List.of("packets", "bytes");

	/** Short words of packet filter tools for those of the flow keys. */
	private static final Map<String, String> FLOW_WORDS = Map.ofEntries(Map.entry("dst", "destination"),
			Map.entry("dest", "destination"), Map.entry("src", "source"), Map.entry("proto", "protocol"),
			Map.entry("eth", "ether"), Map.entry("ethertype", "ether-type"), Map.entry("vlan", "vlan-id"),
			Map.entry("dport", "destination-port"), Map.entry("sport", "source-port"),
			Map.entry("dmac", "destination-mac"), Map.entry("smac", "source-mac"), Map.entry("dip", "destination-ip"),
			Map.entry("sip", "source-ip"));

	/** The keys of a set, e.g. {@code flow.destination-port}, read off its fields. */
	static final List<String> SET_KEYS = keys(CounterSetProperties.class).stream()
		.flatMap((key) -> "flow".equals(key) ? keys(CounterSetProperties.Flow.class).stream().map("flow."::concat)
				: Stream.of(key))
		.toList();

	private final Environment environment;

	private final List<Problem> problems = new ArrayList<>();

	/** The properties refused for how they were written, with no further problem. */
	private final Set<String> refusedAsWritten = new HashSet<>();

	Problems(Environment environment) {
		this.environment = environment;
	}

	/**
	 * Add a problem; the value as bound is shown when the written one cannot be found.
	 */
	void add(String property, @Nullable Object value, String requirement) {
		if (this.refusedAsWritten.contains(property)) {
			// its value is not what was meant: what follows from it would mislead
			return;
		}
		ConfigurationProperty written = property(property);
		// Boot's analysis finds no origin for a relaxed environment variable name
		String from = (written != null && written.getOrigin() instanceof PropertySourceOrigin origin
				&& StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME
					.equals(origin.getPropertySource().getName())
				&& !origin.getPropertyName().equals(property))
						? " (set by the environment variable " + origin.getPropertyName() + ")" : "";
		this.problems.add(new Problem(property, (written != null) ? written.getValue() : value, requirement + from));
	}

	/**
	 * Add a problem with the value as the user wrote it, where the property holds it
	 * converted (a YAML number).
	 */
	void addAsWritten(String property, String written, String requirement) {
		if (this.refusedAsWritten.add(property)) {
			// the first reason stands, e.g. a YAML octal number that is also a duration
			this.problems.add(new Problem(property, written, requirement));
		}
	}

	/**
	 * Add the problems a core type found, each with its value as written.
	 */
	void addAll(List<Problem> found) {
		found.forEach((problem) -> add(problem.property(), problem.value(), problem.requirement()));
	}

	int size() {
		return this.problems.size();
	}

	/** The value of a property as written, or {@code null} if it is not set. */
	@Nullable Object raw(String name) {
		ConfigurationProperty property = property(name);
		return (property != null) ? property.getValue() : null;
	}

	void throwIfAny() {
		if (this.problems.size() == 1) {
			Problem problem = this.problems.get(0);
			throw new InvalidConfigurationPropertyValueException(problem.property(), problem.value(),
					problem.requirement());
		}
		if (!this.problems.isEmpty()) {
			throw new InvalidRdmaConfigurationException(List.copyOf(this.problems));
		}
	}

	/** The keys of a group, e.g. {@code include, exclude}. */
	static List<String> keys(@Nullable Class<?> type) {
		List<String> keys = new ArrayList<>();
		for (Field field : (type != null) ? type.getDeclaredFields() : new Field[0]) {
			if (!Modifier.isStatic(field.getModifiers())) {
				keys.add(DataObjectPropertyName.toDashedForm(field.getName()));
			}
		}
		return keys.isEmpty() ? List.of("<key>") : keys;
	}

	/** The elements of a name from an index on, each as written, joined by dots. */
	static String original(ConfigurationPropertyName name, int from) {
		StringBuilder text = new StringBuilder();
		for (int i = from; i < name.getNumberOfElements(); i++) {
			text.append((i > from) ? "." : "").append(name.getElement(i, Form.ORIGINAL));
		}
		return text.toString();
	}

	static String camel(String kebab) {
		StringBuilder camel = new StringBuilder();
		for (String word : kebab.split("-")) {
			camel.append((camel.isEmpty() || word.isEmpty()) ? word
					: Character.toUpperCase(word.charAt(0)) + word.substring(1));
		}
		return camel.toString();
	}

	/** The name of a property as written, e.g. an environment variable's. */
	static String written(@Nullable ConfigurationProperty property, ConfigurationPropertyName name) {
		return (property != null && property.getOrigin() instanceof PropertySourceOrigin source)
				? source.getPropertyName() : original(name, 0);
	}

	/**
	 * The closest key, e.g. {@code flow.destination-port} for
	 * {@code flow.destinaton-port}.
	 */
	static @Nullable String closest(String key) {
		int dot = key.indexOf('.');
		String head = closestField((dot < 0) ? key : key.substring(0, dot), CounterSetProperties.class);
		if (dot < 0 && head == null) {
			// a flow key written without flow., e.g. protocol or dst-port
			String flow = closestFlowKey(key);
			return (flow != null) ? "flow." + flow : null;
		}
		if (dot < 0 || head == null) {
			return head;
		}
		String rest = key.substring(dot + 1);
		String tail = switch (head) {
			case "flow" -> closestFlowKey(rest);
			case "counters" -> RdmaPropertyKeys.closest(rest.toLowerCase(Locale.ROOT), COUNTER_TYPES);
			default -> null;
		};
		return (tail != null) ? head + "." + tail : null;
	}

	/**
	 * The flow key meant, also by the short words of tc flower, ethtool's n-tuple filters
	 * and iptables, e.g. {@code destination-ip} for {@code dst-ip} and
	 * {@code destination-port} for {@code dport}.
	 */
	private static @Nullable String closestFlowKey(String key) {
		String expanded = expand(key);
		String field = closestField(expanded, CounterSetProperties.Flow.class);
		return (expanded.equals(field)) ? field : closestField(key, CounterSetProperties.Flow.class);
	}

	private static String expand(String key) {
		String expanded = Arrays.stream(key.toLowerCase(Locale.ROOT).split("[-_]"))
			.map((word) -> FLOW_WORDS.getOrDefault(word, word))
			.collect(Collectors.joining("-"));
		// tc flower's ip_proto
		return "ip-protocol".equals(expanded) ? "protocol" : expanded;
	}

	static @Nullable String closestField(String key, Class<?> type) {
		String[] matches = PropertyMatches.forField(camel(key), type).getPossibleMatches();
		return (matches.length > 0) ? DataObjectPropertyName.toDashedForm(matches[0]) : null;
	}

	/** The values of an enum key, e.g. {@code : tcp or udp}. */
	static String allowed(String key) {
		int dot = key.lastIndexOf('.');
		Class<?> owner = (dot > 0) ? CounterSetProperties.Flow.class : CounterSetProperties.class;
		Field field = ReflectionUtils.findField(owner, camel(key.substring(dot + 1)));
		if (field == null || !field.getType().isEnum()) {
			return "";
		}
		return ": " + values(field.getType());
	}

	/** The values of an enum as written in a property, e.g. {@code tcp or udp}. */
	static String values(Class<?> type) {
		return Arrays.stream(type.getEnumConstants())
			.map((constant) -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT).replace('_', '-'))
			.collect(Collectors.joining(" or "));
	}

	private @Nullable ConfigurationProperty property(String name) {
		return written(this.environment, name);
	}

	/**
	 * The property as written of a problem, e.g. of {@code rdma.devices.mlx5_0} or of
	 * {@code rdma.port-counters.include[1]}, or {@code null} if it is not set.
	 */
	static @Nullable ConfigurationProperty written(Environment environment, String name) {
		ConfigurationPropertyName property = ConfigurationPropertyName.ofIfValid(name);
		// a map key with characters a name cannot have, such as the '_' of mlx5_0, is
		// adapted as Boot adapts the names of the property sources
		ConfigurationPropertyName adapted = (property != null) ? property : ConfigurationPropertyName.adapt(name, '.');
		ConfigurationProperty found = find(environment, adapted);
		if (found == null && adapted.isLastElementIndexed()
				&& adapted.isNumericIndex(adapted.getNumberOfElements() - 1)) {
			// an item of a list written as one value, e.g. a,,b or by an environment
			// variable: the item, split as Boot's binder splits it, from where the list
			// was written
			ConfigurationProperty list = find(environment, adapted.getParent());
			String[] items = (list != null && list.getValue() instanceof String text) ? text.split(",", -1)
					: new String[0];
			int index = Integer.parseInt(adapted.getLastElement(Form.UNIFORM));
			return (index < items.length) ? new ConfigurationProperty(adapted, items[index].trim(), list.getOrigin())
					: list;
		}
		return found;
	}

	static @Nullable ConfigurationProperty find(Environment environment, ConfigurationPropertyName name) {
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			ConfigurationProperty value = source.getConfigurationProperty(name);
			if (value != null) {
				return value;
			}
		}
		return null;
	}

}
