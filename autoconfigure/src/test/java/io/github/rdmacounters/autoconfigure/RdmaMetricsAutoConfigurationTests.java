package io.github.rdmacounters.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.PortCountersSource;
import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.metrics.PortCountersMetrics;
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
				assertThat(meters.get(RdmaFlowMetrics.PACKETS).tag("set", "roce").functionCounter().count()).isZero();
			});
	}

	@Test
	void runWithBootPrometheusRegistryShouldServeFlowSeriesAsMetersWithCommonTags() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
							PrometheusMetricsExportAutoConfiguration.class, RdmaMetricsAutoConfiguration.class))
			.withUserConfiguration(RegistryConfiguration.class)
			.withPropertyValues("management.metrics.tags.application=orders")
			.run((context) -> {
				PrometheusMeterRegistry prometheus = context.getBean(PrometheusMeterRegistry.class);
				assertThat(prometheus.get(RdmaFlowMetrics.PACKETS).tag("set", "roce").functionCounter().count())
					.isZero();
				assertThat(prometheus.scrape()).contains("# TYPE rdma_flow_packets_total counter")
					.contains(
							"rdma_flow_packets_total{application=\"orders\",device=\"mlx5_0\",port=\"1\",set=\"roce\"} 0.0")
					.contains(
							"rdma_flow_read_failures_total{application=\"orders\",device=\"mlx5_0\",port=\"1\",set=\"roce\"} 0.0");
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

	@Test
	void runWithPortCountersShouldCreatePortCountersMetricsHonouringIncludeAndExclude() {
		this.contextRunner.withUserConfiguration(MeterRegistryConfiguration.class, PortCountersConfiguration.class)
			.withPropertyValues("rdma.port-counters.include=port_*", "rdma.port-counters.exclude=port_xmit_data")
			.run((context) -> {
				assertThat(context).hasSingleBean(PortCountersMetrics.class);
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				context.getBean(PortCountersMetrics.class).bindTo(meters);
				assertThat(meters.get("rdma.port.data.received").functionCounter().count()).isEqualTo(4000);
				assertThat(meters.find("rdma.port.data.transmitted").meters()).isEmpty();
				assertThat(meters.find("rdma.out.of.buffer.drops").meters()).isEmpty();
			});
	}

	@Test
	void runWithPortCountersDisabledShouldNotCreatePortCountersMetrics() {
		this.contextRunner.withUserConfiguration(MeterRegistryConfiguration.class, PortCountersConfiguration.class)
			.withPropertyValues("rdma.port-counters.enabled=false")
			.run((context) -> assertThat(context).hasSingleBean(RdmaFlowMetrics.class)
				.doesNotHaveBean(PortCountersMetrics.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class PortCountersConfiguration {

		@Bean
		RdmaRegistry rdmaRegistry() {
			PortStatus port = new PortStatus(1, "ACTIVE", "LinkUp", "100 Gb/sec (4X EDR)", "Ethernet",
					Map.of("port_rcv_data", 4000L, "port_xmit_data", 8000L, "out_of_buffer", 1L),
					Map.of("port_rcv_data", "counters", "port_xmit_data", "counters", "out_of_buffer", "hw_counters"),
					List.of());
			PortCountersSnapshot snapshot = new PortCountersSnapshot("mlx5_0", "22.36.1010", "MT_0000000222", "MT4125",
					"0c42:a103:0065:0f2c", List.of(port), Instant.now());
			PortCountersSource source = new PortCountersSource() {

				@Override
				public String deviceName() {
					return "mlx5_0";
				}

				@Override
				public PortCountersSnapshot snapshot() {
					return snapshot;
				}

			};
			return new RdmaRegistry(
					List.of(new ManagedDevice(new ScriptedDevice("mlx5_0", "native"), 1, List.of(), source)));
		}

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
