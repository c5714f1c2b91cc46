package io.github.rdmacounters.autoconfigure;

import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.jayway.jsonpath.JsonPath;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.Name;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.io.ClassPathResource;

import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.DeviceDefinition;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.ManagedDeviceFactory;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.ReadMode;
import io.github.rdmacounters.simulated.SimulatedBackend;

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

	private static final Pattern HINTED_FLOW = Pattern
		.compile("flow\\.protocol (tcp|udp), flow\\.destination-port (\\d+)");

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
			// a sentence: the configuration processor takes a record's description from
			// its
			// @param tag, and from the end of a longer tag that starts with the same name
			assertThat((String) description).as("description of %s", name).matches("[A-Z].*\\.");
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

	@Test
	void setNameHintsSuggestFlowsThatCountAndNeverARoceFlow() throws Exception {
		List<Map<String, Object>> values = JsonPath.read(metadata(),
				"$.hints[?(@.name == 'rdma.counter-sets.keys')].values[*]");
		assertThat(values).extracting((value) -> value.get("value")).contains("nvme-tcp", "iscsi", "vxlan");
		for (Map<String, Object> value : values) {
			String name = (String) value.get("value");
			Matcher flow = HINTED_FLOW.matcher((String) value.get("description"));
			assertThat(flow.find()).as("hint %s names its flow.protocol and flow.destination-port", name).isTrue();
			L4Protocol protocol = L4Protocol.valueOf(flow.group(1).toUpperCase(Locale.ROOT));
			int port = Integer.parseInt(flow.group(2));
			assertThat(name + " " + value.get("description")).as("hint %s", name).doesNotContainIgnoringCase("roce");
			assertThat(countedOnRoceDevice(name, protocol, port)).as("packets the hinted set %s counts", name)
				.isEqualTo(1);
		}
		// what the test rejects: a RoCEv2 set (UDP 4791) counts nothing, as on real mlx5
		assertThat(countedOnRoceDevice("roce", L4Protocol.UDP, 4791)).isZero();
	}

	@Test
	void noHintAnywhereMentionsTheRoceV2Port() throws IOException {
		List<Object> texts = JsonPath.read(metadata(), "$.hints[*].values[*]['value','description']");
		assertThat(texts).isNotEmpty().allSatisfy((text) -> assertThat(String.valueOf(text)).doesNotContain("4791"));
	}

	@Test
	void deviceSelectorHintsLeaveAnyDeviceNameOpen() throws IOException {
		for (String name : List.of("rdma.devices.keys", "rdma.simulated.devices.keys",
				"rdma.port-counters.devices.include", "rdma.port-counters.devices.exclude", "rdma.counter-sets.keys")) {
			List<String> providers = JsonPath.read(metadata(),
					"$.hints[?(@.name == '" + name + "')].providers[*].name");
			assertThat(providers).as("providers of hint %s", name).containsExactly("any");
		}
		List<String> globs = JsonPath.read(metadata(),
				"$.hints[?(@.name == 'rdma.port-counters.devices.include')].values[*].value");
		assertThat(globs).contains("mlx5_*").allMatch((glob) -> glob.matches("[A-Za-z0-9_*?]+"));
	}

	@Test
	void protocolAndReadModeInsideASetOfferExactlyTheirEnumsValues() throws Exception {
		// Boot's metadata has no hints for the properties of a map's values: an IDE
		// completes
		// them from the value type, so these types must offer exactly what works
		assertThat(CounterSetProperties.Flow.class.getMethod("protocol").getReturnType()).isEqualTo(L4Protocol.class);
		assertThat(CounterSetProperties.class.getMethod("readMode").getReturnType()).isEqualTo(ReadMode.class);
		assertThat(L4Protocol.values()).containsExactly(L4Protocol.TCP, L4Protocol.UDP);
		assertThat(ReadMode.values()).containsExactly(ReadMode.FRESH, ReadMode.PREFER_CACHED);
	}

	private static long countedOnRoceDevice(String name, L4Protocol protocol, int port) throws Exception {
		SimulatedBackend backend = SimulatedBackend.withDefaultDevice();
		ManagedDeviceFactory factory = ManagedDeviceFactory.of(backend, Duration.ofSeconds(1));
		FlowSpec spec = FlowSpec.builder().protocol(protocol).destinationPort(port).build();
		try (ManagedDevice device = factory
			.create(DeviceDefinition.of("sim_mlx5_0", CounterSetDefinition.of(name, spec)), true)) {
			InetAddress client = InetAddress.getByName("192.0.2.10");
			InetAddress server = InetAddress.getByName("192.0.2.20");
			backend.deliver("sim_mlx5_0", 1, (protocol == L4Protocol.TCP)
					? Packet.tcp(client, 50000, server, port, 1024) : Packet.udp(client, 50000, server, port, 1024));
			return device.counterSets().get(0).read().value(CounterType.PACKETS);
		}
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
		Map<String, Class<?>> properties = new LinkedHashMap<>();
		if (type.isRecord()) {
			for (RecordComponent component : type.getRecordComponents()) {
				properties.put(prefix + "." + name(component), component.getType());
			}
		}
		else {
			for (PropertyDescriptor descriptor : descriptors(type)) {
				properties.put(prefix + "." + kebab(descriptor.getName()), descriptor.getPropertyType());
			}
		}
		properties.forEach((name, property) -> {
			if (nested(property)) {
				collect(name, property, names);
			}
			else {
				names.add(name);
			}
		});
	}

	/** The property name of a record component: its {@link Name @Name}, else its own. */
	private static String name(RecordComponent component) {
		Class<?> record = component.getDeclaringRecord();
		RecordComponent[] components = record.getRecordComponents();
		Class<?>[] types = Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
		try {
			Parameter[] parameters = record.getDeclaredConstructor(types).getParameters();
			for (int i = 0; i < components.length; i++) {
				Name name = parameters[i].getAnnotation(Name.class);
				if (components[i].getName().equals(component.getName()) && name != null) {
					return name.value();
				}
			}
			return kebab(component.getName());
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException(ex);
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
				defaults(prefix + "." + name(component), component.getType(), invoke(component.getAccessor(), instance),
						defaults);
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

	/** A group of the starter's own: its package or one of its feature packages. */
	private static boolean nested(Class<?> type) {
		String root = RdmaProperties.class.getPackageName();
		return (type.getPackageName().equals(root) || type.getPackageName().startsWith(root + ".")) && !type.isEnum();
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
