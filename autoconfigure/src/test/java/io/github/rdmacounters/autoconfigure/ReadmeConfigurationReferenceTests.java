package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.support.SpringApplicationJsonEnvironmentPostProcessor;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import io.github.rdmacounters.autoconfigure.simulated.SimulatedProperties;
import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.RdmaRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the configuration reference ({@code docs/configuration.md}) lists every
 * property of {@link RdmaProperties} with its default and no property that does not
 * exist, and that what it says of environment variables is true.
 *
 * @author rdma-counters
 */
class ReadmeConfigurationReferenceTests {

	private static final String SET_PREFIX = "rdma.counter-sets.<name>";

	private final ApplicationContextRunner simulated = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class))
		.withPropertyValues("rdma.backend=simulated");

	@Test
	void referenceListsEveryPropertyAndNothingElse() throws IOException {
		Set<String> expected = new TreeSet<>(model().keySet());
		Set<String> documented = documentedDefaults().keySet();
		documented.removeIf((name) -> !name.startsWith(RdmaProperties.PREFIX + "."));
		assertThat(documented).as("properties in the README's configuration reference").containsAll(expected);
		assertThat(expected).as("properties of the model").containsAll(documented);
	}

	@Test
	void referenceShowsTheDefaultOfEveryProperty() throws IOException {
		Map<String, String> documented = documentedDefaults();
		model().forEach((name, value) -> {
			String expected = value.isEmpty() ? "" : "`" + value + "`";
			if ((SET_PREFIX + ".counters").equals(name)) {
				// an empty map that means packets at 0 and bytes at 1
				assertThat(CounterSetDefinition.DEFAULT_COUNTERS).containsExactly(Map.entry(CounterType.PACKETS, 0),
						Map.entry(CounterType.BYTES, 1));
				expected = "`packets: 0`, `bytes: 1`";
			}
			assertThat(documented.get(name)).as("README default of %s", name).isEqualTo(expected);
		});
	}

	@Test
	void referenceShowsTheDefaultsOfTheMetadata() throws IOException {
		Map<String, String> defaults = documentedDefaults();
		List<Map<String, Object>> properties = JsonPath.read(RdmaConfigurationMetadataTests.metadata(),
				"$.properties[*]");
		int checked = 0;
		for (Map<String, Object> property : properties) {
			String name = (String) property.get("name");
			Object defaultValue = property.get("defaultValue");
			if (defaults.containsKey(name) && defaultValue != null && !(defaultValue instanceof List)) {
				assertThat(defaults.get(name)).as("README default of %s", name).isEqualTo("`" + defaultValue + "`");
				checked++;
			}
		}
		assertThat(checked).as("properties whose default the README shows").isGreaterThanOrEqualTo(20);
	}

	@Test
	void referenceMentionsNoRemovedProperty() throws IOException {
		assertThat(referenceSection()).doesNotContain("rdma.device-defaults", "`rdma.device`", "`rdma.port`",
				"rdma.simulated.device-name", "<device>.<set>", "?device=", "Deprecated");
	}

	@Test
	void environmentVariableOfTheReferenceSetsTheDeviceOfItsSet() throws IOException {
		Matcher variable = Pattern.compile("`(RDMA_COUNTERSETS_(\\w+?)_DEVICE)=(\\w+)`").matcher(referenceSection());
		assertThat(variable.find()).as("an RDMA_COUNTERSETS_ variable in the reference").isTrue();
		String set = variable.group(2).toLowerCase();
		String device = variable.group(3);
		this.simulated
			.withInitializer((context) -> environment(context.getEnvironment(), Map.of(variable.group(1), device)))
			.withPropertyValues("rdma.simulated.devices." + device + ".ports=1",
					"rdma.counter-sets." + set + ".flow.protocol=tcp",
					"rdma.counter-sets." + set + ".flow.destination-port=4420")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(RdmaProperties.class).counterSets().get(set).device()).isEqualTo(device);
				assertThat(context.getBean(RdmaRegistry.class).counterSet(set).deviceName()).isEqualTo(device);
				assertThat(context.getBean(set, Counters.class)).isNotNull();
			});
	}

	@Test
	void deviceOptionsAreRefusedFromEnvironmentVariablesAndTakenFromTheReferencesJson() throws IOException {
		String section = referenceSection();
		Matcher refused = Pattern.compile("`(RDMA_DEVICES_\\w+)`").matcher(section);
		Matcher json = Pattern.compile("`SPRING_APPLICATION_JSON='([^']+)'`").matcher(section);
		assertThat(refused.find()).as("an RDMA_DEVICES_ variable in the reference").isTrue();
		assertThat(json.find()).as("a SPRING_APPLICATION_JSON example in the reference").isTrue();
		this.simulated
			.withInitializer((context) -> environment(context.getEnvironment(), Map.of(refused.group(1), "false")))
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(InvalidConfigurationPropertyValueException.class);
				FailureAnalysisAssert.of(context.getStartupFailure())
					.descriptionContains("'" + refused.group(1) + "'", "SPRING_APPLICATION_JSON",
							"{\"rdma\":{\"devices\":{\"mlx5_0\":{\"fail-on-unavailable\":false}}}}");
			});
		// the JSON makes a missing mlx5_0 no reason to stop
		this.simulated.withInitializer((context) -> {
			environment(context.getEnvironment(), Map.of("SPRING_APPLICATION_JSON", json.group(1)));
			new SpringApplicationJsonEnvironmentPostProcessor().postProcessEnvironment(context.getEnvironment(),
					new SpringApplication());
		})
			.withPropertyValues("rdma.counter-sets.storage.device=mlx5_0",
					"rdma.counter-sets.storage.flow.protocol=tcp")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(RdmaProperties.class).failOnUnavailable("mlx5_0")).isFalse();
				assertThat(context.getBean(RdmaRegistry.class).devices()).singleElement()
					.satisfies((device) -> assertThat(device.name()).isEqualTo("mlx5_0"))
					.matches((device) -> !device.isAvailable(), "unavailable");
			});
		this.simulated
			.withPropertyValues("rdma.counter-sets.storage.device=mlx5_0",
					"rdma.counter-sets.storage.flow.protocol=tcp")
			.run((context) -> assertThat(context).as("without the JSON").hasFailed());
	}

	private static void environment(ConfigurableEnvironment environment, Map<String, Object> variables) {
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
	}

	/**
	 * The properties of the model with their defaults: the tree of {@link RdmaProperties}
	 * and the values of its maps.
	 */
	private static Map<String, String> model() {
		Map<String, String> model = new TreeMap<>(
				RdmaConfigurationMetadataTests.defaults(RdmaProperties.PREFIX, RdmaProperties.class));
		model.putAll(RdmaConfigurationMetadataTests.defaults("rdma.devices.<name>", RdmaProperties.Device.class));
		model.putAll(RdmaConfigurationMetadataTests.defaults(SET_PREFIX, CounterSetProperties.class));
		model.putAll(RdmaConfigurationMetadataTests.defaults("rdma.simulated.devices.<name>",
				SimulatedProperties.Device.class));
		model.putAll(RdmaConfigurationMetadataTests.defaults("rdma.simulated.traffic.sets.<name>",
				SimulatedProperties.SetTraffic.class));
		assertThat(model).as("the model").containsKeys("rdma.ui.path", "rdma.events.enabled", SET_PREFIX + ".netdev");
		return model;
	}

	private static Map<String, String> documentedDefaults() throws IOException {
		Map<String, String> defaults = new TreeMap<>();
		Matcher row = Pattern.compile("^\\| `([a-z][^`]+)` \\|([^|]*)\\|", Pattern.MULTILINE)
			.matcher(referenceSection());
		while (row.find()) {
			assertThat(defaults.put(row.group(1), row.group(2).trim())).as("rows of %s", row.group(1)).isNull();
		}
		return defaults;
	}

	private static String referenceSection() throws IOException {
		return ReadmeSnippetsTests.page("docs/configuration.md");
	}

}
