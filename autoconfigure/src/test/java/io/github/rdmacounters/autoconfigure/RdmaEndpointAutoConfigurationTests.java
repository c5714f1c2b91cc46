package io.github.rdmacounters.autoconfigure;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.testsupport.ScriptedDevice;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RdmaEndpointAutoConfiguration}.
 */
class RdmaEndpointAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaEndpointAutoConfiguration.class));

	@Test
	void runWhenExposedShouldCreateEndpoint() {
		this.contextRunner.withUserConfiguration(RegistryConfiguration.class)
			.withPropertyValues("management.endpoints.web.exposure.include=rdma")
			.run((context) -> assertThat(context).hasSingleBean(RdmaEndpoint.class));
	}

	@Test
	void runWhenNotExposedShouldNotCreateEndpoint() {
		this.contextRunner.withUserConfiguration(RegistryConfiguration.class)
			.run((context) -> assertThat(context).doesNotHaveBean(RdmaEndpoint.class));
	}

	@Test
	void runWhenDisabledShouldNotCreateEndpoint() {
		this.contextRunner.withUserConfiguration(RegistryConfiguration.class)
			.withPropertyValues("management.endpoints.web.exposure.include=rdma",
					"management.endpoint.rdma.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(RdmaEndpoint.class));
	}

	@Test
	void runWithoutRegistryShouldNotCreateEndpoint() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=rdma")
			.run((context) -> assertThat(context).doesNotHaveBean(RdmaEndpoint.class));
	}

	@Test
	void runWithUserEndpointShouldBackOff() {
		this.contextRunner.withUserConfiguration(RegistryConfiguration.class, UserEndpointConfiguration.class)
			.withPropertyValues("management.endpoints.web.exposure.include=rdma")
			.run((context) -> assertThat(context).getBean(RdmaEndpoint.class)
				.isSameAs(context.getBean("userEndpoint")));
	}

	@Configuration(proxyBeanMethods = false)
	static class RegistryConfiguration {

		@Bean
		RdmaRegistry rdmaRegistry() {
			ScriptedDevice device = new ScriptedDevice("mlx5_0", "simulated");
			return new RdmaRegistry(List.of(new ManagedDevice(device, 1, List.of(), null)));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserEndpointConfiguration {

		@Bean
		RdmaEndpoint userEndpoint(RdmaRegistry registry) {
			return new RdmaEndpoint(registry);
		}

	}

}
