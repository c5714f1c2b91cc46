package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ClassPathResource;

import io.github.rdmacounters.autoconfigure.RdmaDeviceProperties.CounterSetProperties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the configuration reference in the README lists every {@code rdma} property,
 * no property that does not exist, and the defaults the metadata records.
 *
 * @author rdma-counters
 */
class ReadmeConfigurationReferenceTests {

	private static final String SET_PREFIX = "rdma.counter-sets.<name>";

	@Test
	void referenceListsEveryPropertyAndNothingElse() throws IOException {
		Set<String> expected = new TreeSet<>();
		RdmaConfigurationMetadataTests.collect(RdmaProperties.PREFIX, RdmaProperties.class, expected);
		RdmaConfigurationMetadataTests.collect(RdmaEventsProperties.PREFIX, RdmaEventsProperties.class, expected);
		RdmaConfigurationMetadataTests.collect(SET_PREFIX, CounterSetProperties.class, expected);
		RdmaConfigurationMetadataTests.collect("rdma.devices.<name>", RdmaProperties.Device.class, expected);
		RdmaConfigurationMetadataTests.collect("rdma.simulated.devices.<name>", RdmaProperties.SimulatedDevice.class,
				expected);
		Set<String> documented = documentedProperties();
		assertThat(documented).as("properties in the README's configuration reference").containsAll(expected);
		assertThat(expected).as("properties the README documents").containsAll(documented);
	}

	@Test
	void referenceShowsTheDefaultsOfTheMetadata() throws IOException {
		Map<String, String> defaults = documentedDefaults();
		List<Map<String, Object>> properties = JsonPath.read(metadata(), "$.properties[*]");
		int checked = 0;
		for (Map<String, Object> property : properties) {
			String name = (String) property.get("name");
			Object defaultValue = property.get("defaultValue");
			if (defaults.containsKey(name) && defaultValue != null && !(defaultValue instanceof List)) {
				assertThat(defaults.get(name)).as("README default of %s", name).isEqualTo("`" + defaultValue + "`");
				checked++;
			}
		}
		assertThat(checked).as("properties whose default the README shows").isGreaterThanOrEqualTo(10);
	}

	@Test
	void referenceMarksEveryDeprecatedPropertyWithItsReplacement() throws IOException {
		Map<String, String> descriptions = documentedDescriptions();
		List<Map<String, Object>> deprecated = JsonPath.read(metadata(), "$.properties[?(@.deprecated == true)]");
		assertThat(deprecated).as("deprecated properties").isNotEmpty();
		for (Map<String, Object> property : deprecated) {
			String name = (String) property.get("name");
			@SuppressWarnings("unchecked")
			String replacement = (String) ((Map<String, Object>) property.get("deprecation")).get("replacement");
			assertThat(descriptions.get(name)).as("README description of %s", name)
				.startsWith("Deprecated: ")
				.contains("`" + replacement);
		}
	}

	private static String metadata() throws IOException {
		try (InputStream in = new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream()) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

	private static Map<String, String> documentedDefaults() throws IOException {
		Map<String, String> defaults = new TreeMap<>();
		Matcher row = Pattern.compile("^\\| `([a-z][^`]+)` \\| ([^|]*) \\|", Pattern.MULTILINE)
			.matcher(referenceSection());
		while (row.find()) {
			defaults.put(row.group(1), row.group(2).trim());
		}
		return defaults;
	}

	private static Map<String, String> documentedDescriptions() throws IOException {
		Map<String, String> descriptions = new TreeMap<>();
		Matcher row = Pattern.compile("^\\| `([a-z][^`]+)` \\| [^|]* \\| (.*) \\|$", Pattern.MULTILINE)
			.matcher(referenceSection());
		while (row.find()) {
			descriptions.put(row.group(1), row.group(2).trim());
		}
		return descriptions;
	}

	private static Set<String> documentedProperties() throws IOException {
		String section = referenceSection();
		Set<String> names = new TreeSet<>();
		Matcher row = Pattern.compile("^\\| `(rdma\\.[^`]+)` \\|", Pattern.MULTILINE).matcher(section);
		while (row.find()) {
			names.add(row.group(1));
		}
		return names;
	}

	private static String referenceSection() throws IOException {
		return ReadmeSnippetsTests.section("Configuration reference");
	}

}
