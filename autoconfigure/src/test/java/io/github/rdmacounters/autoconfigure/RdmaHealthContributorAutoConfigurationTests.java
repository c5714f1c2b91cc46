package io.github.rdmacounters.autoconfigure;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.rdmacounters.actuate.health.RdmaHealthIndicator;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.testsupport.ScriptedDevice;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RdmaHealthContributorAutoConfiguration}.
 */
class RdmaHealthContributorAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaHealthContributorAutoConfiguration.class));

	@Test
	void runWithOneDeviceShouldCreateCompositeWithTheDeviceSoItsPathIsRdmaSlashDevice() {
		this.contextRunner.withUserConfiguration(OneDeviceConfiguration.class).run((context) -> {
			CompositeHealthContributor composite = context.getBean("rdmaHealthContributor",
					CompositeHealthContributor.class);
			assertThat(composite.stream()).hasSize(1);
			HealthContributor device = composite.stream().findFirst().orElseThrow().contributor();
			assertThat(device).isInstanceOf(RdmaHealthIndicator.class);
			assertThat(((RdmaHealthIndicator) device).health().getStatus()).isEqualTo(Status.UP);
		});
	}

	@Test
	void runWithSeveralDevicesShouldCreateCompositeWithOneIndicatorPerDevice() {
		this.contextRunner.withUserConfiguration(TwoDevicesConfiguration.class).run((context) -> {
			HealthContributor contributor = context.getBean("rdmaHealthContributor", HealthContributor.class);
			assertThat(contributor).isInstanceOf(CompositeHealthContributor.class);
			CompositeHealthContributor composite = (CompositeHealthContributor) contributor;
			assertThat(composite.getContributor("mlx5_0")).isInstanceOf(RdmaHealthIndicator.class);
			assertThat(composite.getContributor("mlx5_1")).isInstanceOf(RdmaHealthIndicator.class);
		});
	}

	@Test
	void runWithNoDevicesShouldCreateAnEmptyComposite() {
		this.contextRunner.withBean(RdmaRegistry.class, () -> new RdmaRegistry(List.of())).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean("rdmaHealthContributor")).isInstanceOf(CompositeHealthContributor.class);
			assertThat(context.getBean("rdmaHealthContributor", CompositeHealthContributor.class).stream()).isEmpty();
		});
	}

	@Test
	void runWhenDisabledShouldNotCreateIndicator() {
		this.contextRunner.withUserConfiguration(OneDeviceConfiguration.class)
			.withPropertyValues("management.health.rdma.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("rdmaHealthContributor"));
	}

	@Test
	void runWithoutRegistryShouldNotCreateIndicator() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean("rdmaHealthContributor"));
	}

	@Test
	void runWithUserIndicatorShouldBackOff() {
		this.contextRunner.withUserConfiguration(OneDeviceConfiguration.class, UserIndicatorConfiguration.class)
			.run((context) -> {
				assertThat(context).doesNotHaveBean("rdmaHealthContributor");
				assertThat(context).hasBean("rdmaHealthIndicator");
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class OneDeviceConfiguration {

		@Bean
		RdmaRegistry rdmaRegistry() {
			return new RdmaRegistry(List.of(device("mlx5_0")));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoDevicesConfiguration {

		@Bean
		RdmaRegistry rdmaRegistry() {
			return new RdmaRegistry(List.of(device("mlx5_0"), device("mlx5_1")));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserIndicatorConfiguration {

		@Bean
		HealthIndicator rdmaHealthIndicator() {
			return () -> null;
		}

	}

	static ManagedDevice device(String name) {
		return new ManagedDevice(new ScriptedDevice(name, "simulated"), 1, List.of(), null);
	}

}
