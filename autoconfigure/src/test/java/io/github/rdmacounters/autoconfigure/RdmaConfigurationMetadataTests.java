package io.github.rdmacounters.autoconfigure;

import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import com.jayway.jsonpath.JsonPath;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.io.ClassPathResource;

import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.ManagedDeviceFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the configuration metadata the annotation processor generates, merged with
 * {@code additional-spring-configuration-metadata.json}, documents every property of
 * {@link RdmaProperties} (the groups {@code rdma.events}, {@code rdma.ui} and
 * {@code rdma.simulated} included) with its default, nothing else, and that its hints
 * name real properties and values.
 *
 * @author rdma-counters
 */
class RdmaConfigurationMetadataTests {

	private static final String METADATA = "META-INF/spring-configuration-metadata.json";

	@Test
	void everyBindablePropertyIsDocumentedWithADescriptionEndingInAPeriod() throws IOException {
		Set<String> expected = new TreeSet<>();
		collect(RdmaProperties.PREFIX, RdmaProperties.class, expected);
		assertThat(expected).as("the model's properties")
			.contains("rdma.enabled", "rdma.backend", "rdma.fail-on-unavailable", "rdma.read-cache-ttl",
					"rdma.native.library", "rdma.devices", "rdma.counter-sets", "rdma.port-counters.sysfs-root",
					"rdma.events.reopen-backoff.max", "rdma.ui.poll-interval", "rdma.simulated.devices",
					"rdma.simulated.traffic.sets");
		Map<String, Map<String, Object>> properties = properties();
		assertThat(properties.keySet()).containsAll(expected);
		for (String name : expected) {
			Object description = properties.get(name).get("description");
			assertThat(description).as("description of %s", name).isInstanceOf(String.class);
			assertThat((String) description).as("description of %s", name).isNotBlank().endsWith(".");
		}
	}

	@Test
	void everyRdmaPropertyInTheMetadataExistsOnThePropertiesTree() throws IOException {
		Set<String> bindable = new TreeSet<>();
		collect(RdmaProperties.PREFIX, RdmaProperties.class, bindable);
		assertThat(properties().keySet()).allSatisfy((name) -> assertThat(bindable).as("the model").contains(name));
	}

	@Test
	void removedPropertiesAreNotInTheMetadata() throws IOException {
		assertThat(properties().keySet()).doesNotContain("rdma.device", "rdma.port", "rdma.device-defaults.port",
				"rdma.device-defaults.fail-on-unavailable", "rdma.simulated.device-name", "rdma.simulated.ports",
				"rdma.simulated.link-layer");
		assertThat(properties().keySet()).allSatisfy((name) -> assertThat(name).doesNotStartWith("rdma.device-"));
	}

	@Test
	void noPropertyIsDeprecated() throws IOException {
		List<Map<String, Object>> deprecated = JsonPath.read(metadata(), "$.properties[?(@.deprecated == true)]");
		assertThat(deprecated).as("deprecated properties").isEmpty();
	}

	@Test
	void metadataRecordsTheDefaultsOfTheProperties() throws IOException {
		Map<String, String> defaults = defaults(RdmaProperties.PREFIX, RdmaProperties.class);
		Map<String, Map<String, Object>> properties = properties();
		int checked = 0;
		for (Map.Entry<String, String> expected : defaults.entrySet()) {
			Object recorded = properties.get(expected.getKey()).get("defaultValue");
			if (expected.getValue().isEmpty()) {
				assertThat(recorded).as("default of %s", expected.getKey()).isNull();
			}
			else {
				assertThat(String.valueOf(recorded)).as("default of %s", expected.getKey())
					.isEqualTo(expected.getValue());
				checked++;
			}
		}
		assertThat(checked).as("properties with a default").isGreaterThanOrEqualTo(18);
		assertThat(properties.get("rdma.backend")).containsEntry("defaultValue", "native");
		assertThat(properties.get("rdma.read-cache-ttl")).containsEntry("defaultValue", "1s");
		assertThat(properties.get("rdma.fail-on-unavailable")).containsEntry("defaultValue", true);
	}

	@Test
	void reopenBackoffDefaultsAreTheFactorysDefaults() throws IOException {
		Map<String, Map<String, Object>> properties = properties();
		assertThat(DurationStyle
			.detectAndParse((String) properties.get("rdma.events.reopen-backoff.initial").get("defaultValue")))
			.isEqualTo(ManagedDeviceFactory.DEFAULT_REOPEN_INITIAL_BACKOFF);
		assertThat(DurationStyle
			.detectAndParse((String) properties.get("rdma.events.reopen-backoff.max").get("defaultValue")))
			.isEqualTo(ManagedDeviceFactory.DEFAULT_REOPEN_MAX_BACKOFF);
	}

	@Test
	void hintsNamePropertiesAndValuesThatExist() throws IOException {
		Set<String> names = properties().keySet();
		List<Map<String, Object>> hints = JsonPath.read(metadata(), "$.hints[*]");
		assertThat(hints).extracting((hint) -> hint.get("name"))
			.contains("rdma.backend", "rdma.counter-sets.keys", "rdma.simulated.traffic.sets.keys");
		for (Map<String, Object> hint : hints) {
			String name = (String) hint.get("name");
			String property = name.replaceAll("\\.(keys|values)$", "");
			assertThat(names).as("hint %s", name).contains(property);
			List<Map<String, Object>> values = JsonPath.read(hint, "$.values[*]");
			assertThat(values).as("values of hint %s", name)
				.isNotEmpty()
				.allSatisfy((value) -> assertThat((String) value.get("description")).isNotBlank().endsWith("."));
		}
	}

	@Test
	void hintedSetNamesAreValidSetNames() throws IOException {
		List<String> names = JsonPath.read(metadata(),
				"$.hints[?(@.name == 'rdma.counter-sets.keys' || @.name == 'rdma.simulated.traffic.sets.keys')]"
						+ ".values[*].value");
		assertThat(names).isNotEmpty().allMatch((name) -> CounterSetDefinition.NAME.matcher(name).matches());
	}

	@Test
	void backendHintOffersEveryBackendAndNothingElse() throws IOException {
		List<String> values = JsonPath.read(metadata(), "$.hints[?(@.name == 'rdma.backend')].values[*].value");
		assertThat(values).containsExactlyInAnyOrderElementsOf(Arrays.stream(RdmaProperties.Backend.values())
			.map((value) -> value.name().toLowerCase(Locale.ROOT))
			.toList());
	}

	private Map<String, Map<String, Object>> properties() throws IOException {
		List<Map<String, Object>> properties = JsonPath.read(metadata(), "$.properties[*]");
		return properties.stream()
			.filter((property) -> ((String) property.get("name")).startsWith(RdmaProperties.PREFIX + "."))
			.collect(Collectors.toMap((property) -> (String) property.get("name"), (property) -> property));
	}

	static String metadata() throws IOException {
		try (InputStream in = new ClassPathResource(METADATA).getInputStream()) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

	/**
	 * Collect the names of the bindable leaf properties of a JavaBean properties type:
	 * nested types of this package are followed, maps and lists are leaves (the metadata
	 * describes a map, not its values).
	 * @param prefix the prefix of the type's properties
	 * @param type the type
	 * @param names the names to add to
	 */
	static void collect(String prefix, Class<?> type, Set<String> names) {
		for (PropertyDescriptor descriptor : descriptors(type)) {
			String name = prefix + "." + kebab(descriptor.getName());
			if (nested(descriptor.getPropertyType())) {
				collect(name, descriptor.getPropertyType(), names);
			}
			else {
				names.add(name);
			}
		}
	}

	/**
	 * The default of each bindable leaf property of a type, read from a new instance (of
	 * a record, the one Boot's binder creates with nothing set) and written as the
	 * metadata and the README write it: {@code 1s}, {@code native}, {@code true}; empty
	 * for a property without a default (null, or an empty map or list).
	 * @param prefix the prefix of the type's properties
	 * @param type the type
	 * @return the defaults by property name
	 */
	static Map<String, String> defaults(String prefix, Class<?> type) {
		Map<String, String> defaults = new TreeMap<>();
		Object instance = type.isRecord() ? new Binder().bindOrCreate("x", type) : newInstance(type);
		defaults(prefix, instance, defaults);
		return defaults;
	}

	private static void defaults(String prefix, Object instance, Map<String, String> defaults) {
		if (instance.getClass().isRecord()) {
			for (RecordComponent component : instance.getClass().getRecordComponents()) {
				defaults(prefix + "." + kebab(component.getName()), component.getType(),
						invoke(component.getAccessor(), instance), defaults);
			}
			return;
		}
		for (PropertyDescriptor descriptor : descriptors(instance.getClass())) {
			defaults(prefix + "." + kebab(descriptor.getName()), descriptor.getPropertyType(),
					invoke(descriptor.getReadMethod(), instance), defaults);
		}
	}

	private static void defaults(String name, Class<?> type, @Nullable Object value, Map<String, String> defaults) {
		if (nested(type) && value != null) {
			defaults(name, value, defaults);
		}
		else {
			defaults.put(name, written(value));
		}
	}

	private static String written(@Nullable Object value) {
		if (value == null || (value instanceof Collection<?> collection && collection.isEmpty())
				|| (value instanceof Map<?, ?> map && map.isEmpty())) {
			return "";
		}
		if (value instanceof Duration duration) {
			for (ChronoUnit unit : List.of(ChronoUnit.DAYS, ChronoUnit.HOURS, ChronoUnit.MINUTES, ChronoUnit.SECONDS)) {
				if (duration.toMillis() % unit.getDuration().toMillis() == 0) {
					return DurationStyle.SIMPLE.print(duration, unit);
				}
			}
			return DurationStyle.SIMPLE.print(duration);
		}
		if (value instanceof Enum<?> constant) {
			return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
		}
		if (value instanceof Double number && number == Math.rint(number)) {
			return String.valueOf(number.longValue());
		}
		return String.valueOf(value);
	}

	private static List<PropertyDescriptor> descriptors(Class<?> type) {
		try {
			return Arrays.asList(Introspector.getBeanInfo(type, Object.class).getPropertyDescriptors());
		}
		catch (java.beans.IntrospectionException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static boolean nested(Class<?> type) {
		return type.getPackage() == RdmaProperties.class.getPackage() && !type.isEnum();
	}

	private static @Nullable Object invoke(Method accessor, Object instance) {
		try {
			return accessor.invoke(instance);
		}
		catch (IllegalAccessException | InvocationTargetException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static Object newInstance(Class<?> type) {
		try {
			return type.getDeclaredConstructor().newInstance();
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String kebab(String camel) {
		return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
	}

}
