package io.github.rdmacounters.autoconfigure;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.mock.env.MockEnvironment;

import io.github.rdmacounters.actuate.endpoint.DeviceDescriptor;
import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint;
import io.github.rdmacounters.core.RdmaRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RdmaEndpointAutoConfiguration}.
 */
class RdmaEndpointAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaEndpointAutoConfiguration.class));

	@Test
	void runWhenExposedShouldCreateEndpointOverTheRegistry() {
		this.contextRunner.withUserConfiguration(OneScriptedDeviceConfiguration.class)
			.withPropertyValues("management.endpoints.web.exposure.include=rdma")
			.run((context) -> {
				assertThat(context).hasSingleBean(RdmaEndpoint.class);
				RdmaEndpoint endpoint = context.getBean(RdmaEndpoint.class);
				assertThat(endpoint.rdma().devices()).containsOnlyKeys("mlx5_0");
				assertThat(endpoint.counterSet("roce")).isNotNull()
					.satisfies((set) -> assertThat(set.device()).isEqualTo("mlx5_0"));
				assertThat(endpoint.counterSet("missing")).isNull();
			});
	}

	@Test
	void runWithoutCounterSetsShouldServeEveryDeviceOfTheHostFromSysfsOnTheConfiguredBackend() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class))
			.withPropertyValues("management.endpoints.web.exposure.include=rdma", "rdma.backend=simulated",
					"rdma.simulated.devices.mlx5_0.ports=2", "rdma.simulated.devices.mlx5_1.ports=1")
			.run((context) -> {
				Map<String, DeviceDescriptor> devices = context.getBean(RdmaEndpoint.class).rdma().devices();
				assertThat(devices).containsOnlyKeys("mlx5_0", "mlx5_1");
				assertThat(devices.get("mlx5_0").backend()).isEqualTo("simulated");
				assertThat(devices.get("mlx5_0").ports()).containsOnlyKeys(1, 2);
				assertThat(devices.get("mlx5_0").ports().get(1).state()).isEqualTo("ACTIVE");
				assertThat(devices.get("mlx5_0").counterSets()).isEmpty();
				assertThat(devices.get("mlx5_1").ports()).containsOnlyKeys(1);
			});
	}

	@Test
	void runWhenNotExposedShouldNotCreateEndpoint() {
		this.contextRunner.withUserConfiguration(OneScriptedDeviceConfiguration.class)
			.run((context) -> assertThat(context).doesNotHaveBean(RdmaEndpoint.class));
	}

	@Test
	void runWhenDisabledShouldNotCreateEndpoint() {
		this.contextRunner.withUserConfiguration(OneScriptedDeviceConfiguration.class)
			.withPropertyValues("management.endpoints.web.exposure.include=rdma",
					"management.endpoint.rdma.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(RdmaEndpoint.class));
	}

	@Test
	void runWhenAccessIsNoAccessLevelShouldFailNamingTheProperty() {
		this.contextRunner.withUserConfiguration(OneScriptedDeviceConfiguration.class)
			.withPropertyValues("management.endpoints.web.exposure.include=rdma",
					"management.endpoint.rdma.access=maybe")
			.run((context) -> FailureAnalysisAssert
				.of(context.getStartupFailure(),
						new MockEnvironment().withProperty("management.endpoint.rdma.access", "maybe"))
				.analyzedBy(RdmaSwitchFailureAnalyzer.class)
				.descriptionContains(
						"Invalid value 'maybe' for configuration property 'management.endpoint.rdma.access'",
						"must be none, read-only or unrestricted"));
	}

	@Test
	void runWithoutRegistryShouldNotCreateEndpoint() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=rdma")
			.run((context) -> assertThat(context).doesNotHaveBean(RdmaEndpoint.class));
	}

	@Test
	void runWithUserEndpointShouldBackOff() {
		this.contextRunner.withUserConfiguration(OneScriptedDeviceConfiguration.class, UserEndpointConfiguration.class)
			.withPropertyValues("management.endpoints.web.exposure.include=rdma")
			.run((context) -> assertThat(context).getBean(RdmaEndpoint.class)
				.isSameAs(context.getBean("userEndpoint")));
	}

	@Configuration(proxyBeanMethods = false)
	static class UserEndpointConfiguration {

		@Bean
		RdmaEndpoint userEndpoint(RdmaRegistry registry) {
			return new RdmaEndpoint(registry);
		}

	}

}
