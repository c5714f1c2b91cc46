package io.github.rdmacounters.autoconfigure;

import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.origin.OriginTrackedValue;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.StandardEnvironment;

import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.DeviceDefinition;

/**
 * Checks of the {@code rdma} properties as written in the property sources, which the
 * bound values cannot show: names Boot's binder would change, list items where a map of
 * names is meant, environment variables that set nothing, and properties the chosen
 * backend ignores, each warned about once.
 *
 * @author rdma-counters
 */
final class WrittenRdmaProperties {

	private static final Log logger = LogFactory.getLog(WrittenRdmaProperties.class);

	private static final String PREFIX = RdmaProperties.PREFIX;

	/** A device name as a map key: what Boot's binder keeps as written, not too long. */
	private static final Pattern DEVICE_KEY = Pattern.compile("[A-Za-z0-9_-]{1," + DeviceDefinition.MAX_NAME + "}");

	private static final String DEVICE_NAME_RULE = "must be an RDMA device name such as mlx5_0, of letters, digits, "
			+ "'_' and '-' and at most 63 characters (IB_DEVICE_NAME_MAX): Boot's binder would drop other characters "
			+ "and configure a device of another name";

	/** The maps keyed by a name, the relaxed spelling of each, and what a name may be. */
	private static final List<NamedMap> NAMED_MAPS = List.of(
			new NamedMap(PREFIX + ".counter-sets", "(?i)rdma\\.counter-?sets", CounterSetDefinition.NAME,
					CounterSetDefinition.NAME_RULE),
			new NamedMap(PREFIX + ".simulated.traffic.sets", "(?i)rdma\\.simulated\\.traffic\\.sets",
					CounterSetDefinition.NAME, CounterSetDefinition.NAME_RULE),
			new NamedMap(PREFIX + ".devices", "(?i)rdma\\.devices", DEVICE_KEY, DEVICE_NAME_RULE),
			new NamedMap(PREFIX + ".simulated.devices", "(?i)rdma\\.simulated\\.devices", DEVICE_KEY, DEVICE_NAME_RULE),
			new NamedMap(PREFIX + ".optional-counters.devices", "(?i)rdma\\.optional-?counters\\.devices", DEVICE_KEY,
					DEVICE_NAME_RULE));

	/** A whole number but zero alone, which Boot binds to a duration as milliseconds. */
	private static final Pattern NUMBER_ALONE = Pattern.compile("[-+]?0*[1-9][0-9]*");

	private final RdmaPropertyScan scan;

	private final Problems problems;

	WrittenRdmaProperties(RdmaPropertyScan scan, Problems problems) {
		this.scan = scan;
		this.problems = problems;
	}

	/**
	 * Add the problems of the properties as written, and warn about those the backend
	 * ignores, from the properties as written.
	 * @param backend the chosen backend
	 * @return the keys of maps refused, e.g. {@code rdma.counter-sets.0}
	 */
	Set<String> check(RdmaProperties.Backend backend) {
		List<ConfigurationProperty> written = this.scan.properties();
		checkRoot(written);
		checkEnvironmentVariables(written);
		YamlNumberForms.check(written, this.problems);
		checkDurationUnits(written);
		checkDigits(written);
		warnIgnoredByBackend(backend, written);
		return checkWrittenKeys(written);
	}

	/**
	 * Refuse a value written at {@code rdma} itself, e.g. {@code rdma: false}: Boot binds
	 * the group's keys and ignores it, so the counters would stay on. An environment
	 * variable {@code RDMA}, which may be another program's, is warned about instead.
	 */
	private void checkRoot(List<ConfigurationProperty> written) {
		for (ConfigurationProperty property : written) {
			if (property.getName().getNumberOfElements() != 1) {
				continue;
			}
			Object value = YamlNumberForms.asWritten(property, property.getValue());
			String reason = "is a group of keys (" + String.join(", ", RdmaPropertyKeys.names(RdmaProperties.class))
					+ "), not a single value, so Spring Boot ignores this value and RDMA counters stay on: write "
					+ PREFIX + ".enabled=false to switch them off, or the key meant, e.g. " + PREFIX + ".enabled=true";
			if (property.getOrigin() instanceof PropertySourceOrigin origin
					&& StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME
						.equals(origin.getPropertySource().getName())) {
				logger.warn("The environment variable " + origin.getPropertyName() + "=" + value + " sets " + PREFIX
						+ ", which " + reason + " (RDMA_ENABLED=false in the environment); remove it if it is not "
						+ "meant for rdma-counters");
				continue;
			}
			this.problems.addAsWritten(Problems.written(property, property.getName()), String.valueOf(value), reason);
		}
	}

	/**
	 * Check the environment variables {@code RDMA_*}. Device options are refused: Boot
	 * maps {@code _} to {@code .}, so {@code RDMA_DEVICES_MLX5_0_...} cannot name
	 * {@code mlx5_0}. So is one that sets no property under a group of the starter, any
	 * other warned about: Boot leaves the environment out of its check of unknown keys,
	 * as it holds the whole machine's variables, so
	 * {@code RDMA_COUNTERSETS_NVME_TCP_FLOW_PROTOCOL} (a set {@code nvme} with a key
	 * {@code tcp.flow.protocol}) would be dropped without a word. What a variable sets is
	 * read off the property types, not bound a second time.
	 */
	private void checkEnvironmentVariables(List<ConfigurationProperty> written) {
		for (ConfigurationProperty property : written) {
			if (!(property.getOrigin() instanceof PropertySourceOrigin origin)
					|| !StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME
						.equals(origin.getPropertySource().getName())) {
				continue;
			}
			String variable = origin.getPropertyName();
			if (property.getName().getNumberOfElements() == 1) {
				// RDMA itself: checkRoot
				continue;
			}
			if (variable.toUpperCase(Locale.ROOT).startsWith("RDMA_DEVICES_")) {
				this.problems.add(variable, property.getValue(),
						"cannot name a device: an environment variable turns every '_' "
								+ "into '.', and device names such as mlx5_0 have '_'. Set rdma.devices.<name> in "
								+ "SPRING_APPLICATION_JSON instead, e.g. "
								+ "{\"rdma\":{\"devices\":{\"mlx5_0\":{\"fail-on-unavailable\":false}}}}");
				continue;
			}
			RdmaPropertyKeys.Unknown unknown = RdmaPropertyKeys.unknown(property.getName());
			if (unknown == null) {
				checkBlank(variable, property);
				continue;
			}
			String reason = "sets no rdma property: an environment variable turns each '_' into '.', so it names "
					+ property.getName() + ". Names with '_' or '-' (a set such as nvme_tcp, a device such as "
					+ "sim_mlx5_1) cannot be written in one: set them in SPRING_APPLICATION_JSON, e.g. "
					+ "{\"rdma\":{\"counter-sets\":{\"nvme_tcp\":{\"device\":\"mlx5_0\"}}}}; a property's own "
					+ "'-' is left out, as in RDMA_COUNTERSETS_STORAGE_FLOW_DESTINATIONPORT";
			if (unknown.index() > 1) {
				// under a group of the starter
				this.problems.add(variable, property.getValue(), reason);
			}
			else {
				logger.warn("The environment variable " + variable + "=" + property.getValue() + " " + reason
						+ "; remove it if it is not meant for rdma-counters");
			}
		}
	}

	/**
	 * Refuse an empty variable of a number, a duration, a boolean or one of a few words:
	 * Spring converts a blank text to nothing for those, and Boot, which reports such a
	 * property left unbound, leaves the environment out of that check; a counter set's
	 * key would then bind no set at all.
	 */
	private void checkBlank(String variable, ConfigurationProperty property) {
		if (!(property.getValue() instanceof CharSequence text) || !text.toString().isBlank()) {
			return;
		}
		String allowed = UnboundRdmaPropertyFailureAnalyzer.allowed(property.getName());
		if (!allowed.isEmpty()) {
			this.problems.add(variable, property.getValue(), "must have a value" + allowed + ", or be removed for the "
					+ "default: an empty variable sets " + property.getName() + " to nothing");
		}
	}

	/**
	 * Refuse a duration written as a number alone, e.g. {@code rdma.read-cache-ttl=300}:
	 * Boot would bind it as 300 milliseconds, which is not what {@code 300} says. Zero
	 * needs no unit.
	 */
	private void checkDurationUnits(List<ConfigurationProperty> written) {
		for (ConfigurationProperty property : written) {
			Object value = property.getValue();
			if (value instanceof OriginTrackedValue tracked) {
				value = tracked.getValue();
			}
			String text = String.valueOf(value).strip();
			if (!NUMBER_ALONE.matcher(text).matches()) {
				continue;
			}
			ResolvableType type = RdmaPropertyKeys.typeOf(property.getName());
			if (type == null || type.resolve() != Duration.class) {
				continue;
			}
			String name = property.getName().toString();
			String range = RdmaPropertiesChecks.RANGES.get(name);
			String number = text.replace("+", "");
			this.problems.addAsWritten(name, text,
					"must be a duration with its unit, e.g. " + number + "ms or " + number
							+ "s: Boot would read a number alone as milliseconds"
							+ ((range != null) ? "; it " + range : ""));
		}
	}

	/**
	 * Refuse a whole number written with digits other than 0 to 9, e.g. the fullwidth
	 * {@code ４７９１}: Java's {@code Integer.valueOf} reads the decimal digits of every
	 * script, so it would bind 4791 without a word; and a number with a space inside,
	 * e.g. {@code 44 20}, which Spring's {@code NumberUtils} would bind as 4420.
	 */
	private void checkDigits(List<ConfigurationProperty> written) {
		for (ConfigurationProperty property : written) {
			Object value = property.getValue();
			if (value instanceof OriginTrackedValue tracked) {
				value = tracked.getValue();
			}
			if (!(value instanceof CharSequence text)) {
				continue;
			}
			String inner = text.toString().strip();
			if (inner.chars().anyMatch(Character::isWhitespace) && isNumber(property.getName())) {
				// Spring's NumberUtils removes every whitespace before it parses
				this.problems.addAsWritten(Problems.written(property, property.getName()), text.toString(),
						"has a space inside the number, which Spring would drop without a word, reading "
								+ inner.replaceAll("\\s", "") + ": write one number without spaces");
				continue;
			}
			if (text.chars().noneMatch(WrittenRdmaProperties::otherDigit)) {
				continue;
			}
			if (RdmaPropertyKeys.isWholeNumber(property.getName())) {
				this.problems.addAsWritten(Problems.written(property, property.getName()), text.toString(),
						"must be written with the digits 0 to 9: Java would read the digits of another script "
								+ "as a number without a word");
			}
		}
	}

	private static boolean isNumber(ConfigurationPropertyName name) {
		if (RdmaPropertyKeys.isWholeNumber(name)) {
			return true;
		}
		ResolvableType type = RdmaPropertyKeys.typeOf(name);
		Class<?> raw = (type != null) ? type.resolve() : null;
		return raw == Double.class || raw == double.class;
	}

	private static boolean otherDigit(int c) {
		return Character.isDigit(c) && (c < '0' || c > '9');
	}

	/**
	 * Warn once about each property of the backend not chosen, which has no effect.
	 */
	private void warnIgnoredByBackend(RdmaProperties.Backend backend, List<ConfigurationProperty> all) {
		boolean simulated = backend == RdmaProperties.Backend.SIMULATED;
		ConfigurationPropertyName ignored = ConfigurationPropertyName
			.of(PREFIX + (simulated ? ".native" : ".simulated"));
		Map<String, Object> written = new LinkedHashMap<>();
		for (ConfigurationProperty property : all) {
			if (ignored.isAncestorOf(property.getName())) {
				written.putIfAbsent((property.getOrigin() instanceof PropertySourceOrigin origin)
						? origin.getPropertyName() : property.getName().toString(), property.getValue());
			}
		}
		String action = simulated
				? "the simulated backend loads no library; remove it, or set " + PREFIX + ".backend=native to use it"
				: "the native backend counts on the host's RDMA devices; remove it (or move it to the profile that "
						+ "sets " + PREFIX + ".backend=simulated), or set " + PREFIX + ".backend=simulated to use it";
		written.forEach((name, value) -> logger.warn(name + "=" + value + " has no effect on the "
				+ (simulated ? "simulated" : "native") + " backend (" + PREFIX + ".backend): " + action));
	}

	/**
	 * Refuse a name of a map (a set, a device) that Boot does not keep as written: it
	 * drops characters such as spaces, '/' and 'ä' from a name, which would rename the
	 * set or device silently; and a list where a map of names is meant (a YAML '-' item,
	 * bound as the name 0). A name in brackets, {@code rdma.counter-sets.[ok1]}, is kept.
	 * @return the keys refused, e.g. {@code rdma.counter-sets.0}
	 */
	private Set<String> checkWrittenKeys(List<ConfigurationProperty> written) {
		Set<String> refused = new HashSet<>();
		for (NamedMap map : NAMED_MAPS) {
			ConfigurationPropertyName root = ConfigurationPropertyName.of(map.property());
			int key = root.getNumberOfElements();
			// the names as written of each name as Boot compares them
			Map<String, Set<String>> spellings = new LinkedHashMap<>();
			for (ConfigurationProperty property : written) {
				if (root.isAncestorOf(property.getName()) && property.getName().getNumberOfElements() > key
						&& property.getOrigin() instanceof PropertySourceOrigin origin) {
					checkWrittenKey(map, property.getName(), key, origin.getPropertyName(), refused);
					spellings
						.computeIfAbsent(property.getName().getElement(key, ConfigurationPropertyName.Form.UNIFORM),
								(uniform) -> new LinkedHashSet<>())
						.add(property.getName().getElement(key, ConfigurationPropertyName.Form.ORIGINAL));
				}
			}
			spellings.values().stream().filter((names) -> names.size() > 1).forEach((names) -> {
				List<String> all = List.copyOf(names);
				for (String other : all.subList(1, all.size())) {
					if (refused.add(map.property() + "." + other)) {
						this.problems.add(map.property() + "." + other, other, "names the same entry as "
								+ map.property() + "." + all.get(0) + " for Spring Boot, which compares these names "
								+ "without case, '-' and '_': the keys of both would be bound to each; write the name "
								+ "the same way everywhere (an environment variable writes it in lowercase)");
					}
				}
			});
		}
		return refused;
	}

	private void checkWrittenKey(NamedMap map, ConfigurationPropertyName name, int key, String written,
			Set<String> refused) {
		String bound = name.getElement(key, ConfigurationPropertyName.Form.ORIGINAL);
		int tail = written.length();
		for (int i = key + 1; i < name.getNumberOfElements() && tail > 0; i++) {
			tail = (name.isNumericIndex(i) && written.charAt(tail - 1) == ']') ? written.lastIndexOf('[', tail - 1)
					: written.lastIndexOf('.', tail - 1);
		}
		Matcher head = map.written().matcher((tail > 0) ? written.substring(0, tail) : written);
		if (!head.matches()) {
			return;
		}
		String as = head.group(1);
		boolean bracketed = as.length() > 1 && as.startsWith("[") && as.endsWith("]");
		String inner = bracketed ? as.substring(1, as.length() - 1) : as;
		String property = map.property() + "." + bound;
		if (bracketed && !inner.isEmpty() && inner.chars().allMatch(Character::isDigit)) {
			if (refused.add(property)) {
				this.problems.add(head.group(0), as,
						"is a list item, but " + map.property() + " is a map by name, not a list: write "
								+ map.property() + ".<name>.<key> (in YAML a name under "
								+ map.property().substring(PREFIX.length() + 1) + ", not a '-' item)");
			}
		}
		else if (!inner.equals(bound) && !map.valid().matcher(inner).matches() && refused.add(property)) {
			this.problems.add(head.group(0), inner, map.rule());
		}
	}

	/**
	 * A map of {@link RdmaProperties} keyed by a name.
	 *
	 * @param property the map's property
	 * @param written the map's property as it may be written, then its key
	 * @param valid what a key may be
	 * @param rule what to tell of a key that is not
	 */
	private record NamedMap(String property, Pattern written, Pattern valid, String rule) {

		NamedMap(String property, String written, Pattern valid, String rule) {
			this(property, Pattern.compile(written + "(?:\\.|(?=\\[))(.+)"), valid, rule);
		}

	}

}
