package io.github.rdmacounters.autoconfigure.metrics;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
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

import io.github.rdmacounters.autoconfigure.OneScriptedDeviceConfiguration;
import io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration;
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
	void runWithMeterRegistryShouldCreateFlowMetricsTaggedWithDevicePortAndSet() {
		this.contextRunner.withUserConfiguration(MeterRegistryConfiguration.class, OneScriptedDeviceConfiguration.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(RdmaFlowMetrics.class);
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				context.getBean(RdmaFlowMetrics.class).bindTo(meters);
				assertThat(meters.get(RdmaFlowMetrics.PACKETS)
					.tags("device", "mlx5_0", "port", "1", "set", "roce")
					.functionCounter()
					.count()).isZero();
				context.getBean(ScriptedDevice.class).counters().get(0).add(3, 300);
				assertThat(meters.get(RdmaFlowMetrics.PACKETS).tag("set", "roce").functionCounter().count())
					.isEqualTo(3);
				assertThat(meters.get(RdmaFlowMetrics.BYTES).tag("set", "roce").functionCounter().count())
					.isEqualTo(300);
			});
	}

	@Test
	void runOnTheSimulatedBackendShouldMeterEachSetOnItsDeviceAndThePortCountersOfEveryDevice() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class))
			.withUserConfiguration(MeterRegistryConfiguration.class)
			.withPropertyValues("rdma.backend=simulated", "rdma.simulated.devices.mlx5_0.ports=1",
					"rdma.simulated.devices.mlx5_1.ports=2", "rdma.counter-sets.nvme.device=mlx5_1",
					"rdma.counter-sets.nvme.port=2", "rdma.counter-sets.nvme.flow.protocol=tcp",
					"rdma.counter-sets.nvme.flow.destination-port=4420")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				context.getBean(RdmaFlowMetrics.class).bindTo(meters);
				context.getBean(PortCountersMetrics.class).bindTo(meters);
				assertThat(meters.find(RdmaFlowMetrics.PACKETS).meters()).singleElement()
					.satisfies((meter) -> assertThat(meter.getId().getTags()).containsExactlyInAnyOrder(
							Tag.of("device", "mlx5_1"), Tag.of("port", "2"), Tag.of("set", "nvme")));
				assertThat(meters.get(RdmaFlowMetrics.BYTES).tags("device", "mlx5_1", "set", "nvme").functionCounter())
					.isNotNull();
				assertThat(meters.find(PortCountersMetrics.STATE).gauges())
					.extracting((gauge) -> gauge.getId().getTag("device") + "/" + gauge.getId().getTag("port"))
					.containsExactlyInAnyOrder("mlx5_0/1", "mlx5_1/1", "mlx5_1/2");
				assertThat(meters.get(PortCountersMetrics.STATE).tags("device", "mlx5_1", "port", "2").gauge().value())
					.as("ACTIVE")
					.isEqualTo(4.0);
				assertThat(meters.find("rdma.port.data.received").functionCounters())
					.extracting((counter) -> counter.getId().getTag("device"))
					.contains("mlx5_0", "mlx5_1");
				assertThat(meters.get(PortCountersMetrics.DEVICES).gauge().value()).isEqualTo(2.0);
			});
	}

	@Test
	void runWithBootPrometheusRegistryShouldServeFlowSeriesAsMetersWithCommonTags() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
							PrometheusMetricsExportAutoConfiguration.class, RdmaMetricsAutoConfiguration.class))
			.withUserConfiguration(OneScriptedDeviceConfiguration.class)
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
		this.contextRunner.withUserConfiguration(OneScriptedDeviceConfiguration.class)
			.run((context) -> assertThat(context).doesNotHaveBean(RdmaFlowMetrics.class));
	}

	@Test
	void runWithoutMicrometerShouldNotCreateFlowMetrics() {
		this.contextRunner.withUserConfiguration(OneScriptedDeviceConfiguration.class)
			.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(RdmaFlowMetrics.class));
	}

	@Test
	void runWithUserFlowMetricsShouldBackOff() {
		this.contextRunner
			.withUserConfiguration(MeterRegistryConfiguration.class, OneScriptedDeviceConfiguration.class,
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
				assertThat(meters.get("rdma.port.data.received")
					.tags("device", "mlx5_0", "port", "1")
					.functionCounter()
					.count()).isEqualTo(4000);
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
					List.of(new ManagedDevice(new ScriptedDevice("mlx5_0", "native"), List.of(), source)));
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
	static class UserMetricsConfiguration {

		@Bean
		RdmaFlowMetrics userMetrics(RdmaRegistry registry) {
			return new RdmaFlowMetrics(registry);
		}

	}

}
