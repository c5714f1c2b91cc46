package io.github.rdmacounters.autoconfigure;

import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import com.jayway.jsonpath.JsonPath;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.io.ClassPathResource;

import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.ManagedDeviceFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the configuration metadata the annotation processor generates, merged with
 * {@code additional-spring-configuration-metadata.json}, documents every {@code rdma}
 * property and that its hints name real properties and values.
 *
 * @author rdma-counters
 */
class RdmaConfigurationMetadataTests {

	private static final String METADATA = "META-INF/spring-configuration-metadata.json";

	@Test
	void everyBindablePropertyIsDocumentedWithADescription() throws IOException {
		Set<String> expected = new TreeSet<>();
		collect(RdmaProperties.PREFIX, RdmaProperties.class, expected);
		collect(RdmaUiProperties.PREFIX, RdmaUiProperties.class, expected);
		collect(RdmaEventsProperties.PREFIX, RdmaEventsProperties.class, expected);
		Map<String, Map<String, Object>> properties = properties();
		assertThat(properties.keySet()).containsAll(expected);
		assertThat(expected).contains("rdma.enabled", "rdma.backend", "rdma.device", "rdma.port",
				"rdma.fail-on-unavailable", "rdma.read-cache-ttl", "rdma.native.library", "rdma.counter-sets",
				"rdma.port-counters.sysfs-root", "rdma.simulated.link-layer");
		for (String name : expected) {
			Object description = properties.get(name).get("description");
			assertThat(description).as("description of %s", name).isInstanceOf(String.class);
			assertThat((String) description).as("description of %s", name).isNotBlank().endsWith(".");
		}
	}

	@Test
	void everyRdmaPropertyInTheMetadataExistsOnThePropertiesClass() throws IOException {
		Set<String> bindable = new TreeSet<>();
		collect(RdmaProperties.PREFIX, RdmaProperties.class, bindable);
		collect(RdmaUiProperties.PREFIX, RdmaUiProperties.class, bindable);
		collect(RdmaEventsProperties.PREFIX, RdmaEventsProperties.class, bindable);
		assertThat(properties().keySet()).allSatisfy((name) -> assertThat(bindable).contains(name));
	}

	@Test
	void metadataRecordsTheDefaults() throws IOException {
		Map<String, Map<String, Object>> properties = properties();
		assertThat(properties.get("rdma.enabled")).containsEntry("defaultValue", true);
		assertThat(properties.get("rdma.backend")).containsEntry("defaultValue", "native");
		assertThat(properties.get("rdma.port")).containsEntry("defaultValue", 1);
		assertThat(properties.get("rdma.read-cache-ttl")).containsEntry("defaultValue", "1s");
		assertThat(properties.get("rdma.native.library")).containsEntry("defaultValue", "libibverbs.so.1");
		assertThat(properties.get("rdma.fail-on-unavailable")).containsEntry("defaultValue", true);
		assertThat(DurationStyle
			.detectAndParse((String) properties.get("rdma.events.reopen-backoff.initial").get("defaultValue")))
			.as("the factory's default")
			.isEqualTo(ManagedDeviceFactory.DEFAULT_REOPEN_INITIAL_BACKOFF);
		assertThat(DurationStyle
			.detectAndParse((String) properties.get("rdma.events.reopen-backoff.max").get("defaultValue")))
			.as("the factory's default")
			.isEqualTo(ManagedDeviceFactory.DEFAULT_REOPEN_MAX_BACKOFF);
	}

	@Test
	void hintsNamePropertiesAndValuesThatExist() throws IOException {
		Set<String> names = properties().keySet();
		List<Map<String, Object>> hints = JsonPath.read(metadata(), "$.hints[*]");
		assertThat(hints).extracting((hint) -> hint.get("name"))
			.contains("rdma.backend", "rdma.simulated.link-layer", "rdma.device", "rdma.counter-sets.keys");
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
	void singleDeviceSimulatedPropertiesAreDeprecatedForAnEntryOfTheDevicesMap() throws IOException {
		Set<String> deviceKeys = new TreeSet<>();
		collect("rdma.simulated.devices.<name>", RdmaProperties.SimulatedDevice.class, deviceKeys);
		Map<String, Map<String, Object>> properties = properties();
		for (String key : List.of("ports", "link-layer", "counters-supported", "managed-flow-steering")) {
			Map<String, Object> property = properties.get("rdma.simulated." + key);
			assertThat(property).as("rdma.simulated.%s", key).containsEntry("deprecated", true);
			assertThat(property.get("deprecation")).as("deprecation of rdma.simulated.%s", key)
				.asInstanceOf(InstanceOfAssertFactories.MAP)
				.containsEntry("replacement", "rdma.simulated.devices.<name>." + key);
			assertThat(deviceKeys).contains("rdma.simulated.devices.<name>." + key);
		}
		assertThat(properties.get("rdma.simulated.device-name")).containsEntry("deprecated", true);
		assertThat(properties.get("rdma.simulated.device-name").get("deprecation"))
			.asInstanceOf(InstanceOfAssertFactories.MAP)
			.containsEntry("replacement", "rdma.simulated.devices");
		assertThat(properties).allSatisfy((name, property) -> {
			if (!name.startsWith("rdma.simulated.") || name.startsWith("rdma.simulated.traffic.")
					|| name.startsWith("rdma.simulated.devices")) {
				assertThat(property).as(name).doesNotContainKey("deprecated");
			}
		});
	}

	@Test
	void enumHintsOfferValidConstants() throws IOException {
		assertThat(hintValues("rdma.backend"))
			.containsExactlyInAnyOrderElementsOf(Arrays.stream(RdmaProperties.Backend.values())
				.map((value) -> value.name().toLowerCase(Locale.ROOT))
				.toList());
		assertThat(hintValues("rdma.simulated.link-layer"))
			.allSatisfy((value) -> assertThat(LinkLayer.valueOf(value.toUpperCase(Locale.ROOT))).isNotNull());
	}

	private List<String> hintValues(String name) throws IOException {
		return JsonPath.read(metadata(), "$.hints[?(@.name == '" + name + "')].values[*].value");
	}

	private Map<String, Map<String, Object>> properties() throws IOException {
		List<Map<String, Object>> properties = JsonPath.read(metadata(), "$.properties[*]");
		return properties.stream()
			.filter((property) -> ((String) property.get("name")).startsWith(RdmaProperties.PREFIX + "."))
			.collect(Collectors.toMap((property) -> (String) property.get("name"), (property) -> property));
	}

	private static String metadata() throws IOException {
		try (InputStream in = new ClassPathResource(METADATA).getInputStream()) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

	/**
	 * Collect the names of the bindable leaf properties of a JavaBean properties type:
	 * nested types of this package are followed, maps and lists of them are leaves (the
	 * metadata describes a map, not its values).
	 */
	static void collect(String prefix, Class<?> type, Set<String> names) {
		List<PropertyDescriptor> descriptors = new ArrayList<>();
		try {
			descriptors.addAll(Arrays.asList(Introspector.getBeanInfo(type, Object.class).getPropertyDescriptors()));
		}
		catch (java.beans.IntrospectionException ex) {
			throw new IllegalStateException(ex);
		}
		for (PropertyDescriptor descriptor : descriptors) {
			String name = prefix + "." + kebab(descriptor.getName());
			Class<?> propertyType = descriptor.getPropertyType();
			boolean nested = propertyType.getPackage() == RdmaProperties.class.getPackage() && !propertyType.isEnum();
			if (nested) {
				collect(name, propertyType, names);
			}
			else {
				names.add(name);
			}
		}
	}

	private static String kebab(String camel) {
		return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
	}

}
