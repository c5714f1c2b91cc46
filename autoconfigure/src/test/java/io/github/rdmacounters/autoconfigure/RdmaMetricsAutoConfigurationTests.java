package io.github.rdmacounters.autoconfigure;

import java.time.Duration;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.metrics.RdmaFlowMetrics;
import io.github.rdmacounters.testsupport.ScriptedDevice;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RdmaMetricsAutoConfiguration}.
 */
class RdmaMetricsAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaMetricsAutoConfiguration.class));

	@Test
	void runWithMeterRegistryShouldCreateFlowMetrics() {
		this.contextRunner.withUserConfiguration(MeterRegistryConfiguration.class, RegistryConfiguration.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(RdmaFlowMetrics.class);
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				context.getBean(RdmaFlowMetrics.class).bindTo(meters);
				assertThat(meters.get(RdmaFlowMetrics.PACKETS).tag("set", "roce").functionCounter().count())
					.isZero();
			});
	}

	@Test
	void runWithoutMeterRegistryShouldNotCreateFlowMetrics() {
		this.contextRunner.withUserConfiguration(RegistryConfiguration.class)
			.run((context) -> assertThat(context).doesNotHaveBean(RdmaFlowMetrics.class));
	}

	@Test
	void runWithoutMicrometerShouldNotCreateFlowMetrics() {
		this.contextRunner.withUserConfiguration(RegistryConfiguration.class)
			.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(RdmaFlowMetrics.class));
	}

	@Test
	void runWithUserFlowMetricsShouldBackOff() {
		this.contextRunner
			.withUserConfiguration(MeterRegistryConfiguration.class, RegistryConfiguration.class,
					UserMetricsConfiguration.class)
			.run((context) -> assertThat(context).getBean(RdmaFlowMetrics.class)
				.isSameAs(context.getBean("userMetrics")));
	}

	@Configuration(proxyBeanMethods = false)
	static class MeterRegistryConfiguration {

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class RegistryConfiguration {

		@Bean
		RdmaRegistry rdmaRegistry() {
			ScriptedDevice device = new ScriptedDevice("mlx5_0", "simulated");
			return new RdmaRegistry(List.of(new ManagedDevice(device, 1,
					List.of(device.counterSet("roce", FlowSpec.any(), Duration.ZERO)), null)));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserMetricsConfiguration {

		@Bean
		RdmaFlowMetrics userMetrics(RdmaRegistry registry) {
			return new RdmaFlowMetrics(registry);
		}

	}

}
