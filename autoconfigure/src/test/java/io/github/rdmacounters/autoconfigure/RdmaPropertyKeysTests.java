package io.github.rdmacounters.autoconfigure;

import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.bind.Name;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RdmaPropertyKeys}: the keys of the {@code rdma} properties read off
 * their types, and the checks and analyses that use them.
 *
 * @author rdma-counters
 */
class RdmaPropertyKeysTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class))
		.withPropertyValues("rdma.backend=simulated");

	@Test
	void topLevelKeysAreEveryComponentOfRdmaProperties() {
		assertThat(RdmaPropertyKeys.names(RdmaProperties.class)).containsExactlyElementsOf(
				Arrays.stream(RdmaProperties.class.getRecordComponents()).map(RdmaPropertyKeysTests::key).toList());
		assertThat(RdmaPropertyKeys.names(RdmaProperties.class)).contains("optional-counters", "queue-pairs", "ethtool",
				"native", "events");
	}

	static Stream<String> groups() {
		return Arrays.stream(RdmaProperties.class.getRecordComponents())
			.filter((component) -> !component.getType().isPrimitive() && !component.getType().isEnum()
					&& component.getType() != Duration.class && component.getType() != Map.class)
			.map(RdmaPropertyKeysTests::key);
	}

	@ParameterizedTest
	@MethodSource("groups")
	void environmentVariableThatSetsNothingUnderAnyGroupFailsStartup(String group) {
		String variable = "RDMA_" + group.replace("-", "").toUpperCase() + "_NOSUCHKEY";
		this.runner
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
								Map.of(variable, "1"))))
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy("InvalidConfigurationPropertyValueFailureAnalyzer")
				.descriptionContains(variable, "sets no rdma property"));
	}

	@Test
	void unknownKeyIsFoundWithTheClosestAcrossMapsAndGroups() {
		RdmaPropertyKeys.Unknown unknown = RdmaPropertyKeys
			.unknown(ConfigurationPropertyName.adapt("rdma.devices.mlx5_0.fail-on-unavailabel", '.'));
		assertThat(unknown).isNotNull();
		assertThat(unknown.index()).isEqualTo(3);
		assertThat(unknown.closest()).isEqualTo("fail-on-unavailable");
		assertThat(RdmaPropertyKeys.unknown(ConfigurationPropertyName.of("rdma.queue-pairs[0].enabled")).listItem())
			.isTrue();
		assertThat(RdmaPropertyKeys.unknown(ConfigurationPropertyName.of("rdma.counter-sets.x.flow.protocol")))
			.isNull();
		assertThat(RdmaPropertyKeys.unknown(ConfigurationPropertyName.of("rdma.native.library"))).isNull();
	}

	@Test
	void invalidDurationIsShownAsWritten() {
		MockEnvironment environment = new MockEnvironment().withProperty("rdma.ethtool.pause-storm.window", "-5s");
		FailureAnalysisAssert
			.of(new InvalidConfigurationPropertyValueException("rdma.ethtool.pause-storm.window",
					Duration.ofSeconds(-5), "must be positive, e.g. 1m"), environment)
			.analyzedBy(InvalidRdmaPropertyValueFailureAnalyzer.class)
			.descriptionContains("Invalid value '-5s' for configuration property 'rdma.ethtool.pause-storm.window'",
					"must be positive");
		assertThat(FailureAnalysisAssert
			.of(new InvalidConfigurationPropertyValueException("rdma.ethtool.pause-storm.window",
					Duration.ofSeconds(-5), "must be positive"), environment)
			.analysis()
			.getDescription()).doesNotContain("PT-5S");
	}

	private static String key(RecordComponent component) {
		RecordComponent[] components = RdmaProperties.class.getRecordComponents();
		int index = 0;
		while (!components[index].getName().equals(component.getName())) {
			index++;
		}
		Name name = RdmaProperties.class.getDeclaredConstructors()[0].getParameters()[index].getAnnotation(Name.class);
		return DataObjectPropertyName.toDashedForm((name != null) ? name.value() : component.getName());
	}

}
