package io.github.rdmacounters.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint;
import io.github.rdmacounters.autoconfigure.health.RdmaHealthContributorAutoConfiguration;
import io.github.rdmacounters.autoconfigure.metrics.RdmaMetricsAutoConfiguration;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.metrics.RdmaFlowMetrics;
import io.github.rdmacounters.testsupport.ScriptedDevice;
import io.github.rdmacounters.testsupport.ScriptedDevice.ScriptedCounters;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The endpoint, the health indicator and the meters, as the auto-configurations wire
 * them, share one device read per set within the read cache time-to-live, also when many
 * callers ask at once.
 */
class RdmaActuatorSharedReadTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaEndpointAutoConfiguration.class,
				RdmaHealthContributorAutoConfiguration.class, RdmaMetricsAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=rdma", "rdma.port-counters.enabled=false")
		.withUserConfiguration(DeviceConfiguration.class);

	@Test
	void concurrentEndpointHealthAndMeterCallsWithinTheTtlReadEachSetOnce() {
		this.contextRunner.run((context) -> {
			RdmaEndpoint endpoint = context.getBean(RdmaEndpoint.class);
			HealthIndicator health = (HealthIndicator) context
				.getBean("rdmaHealthContributor", CompositeHealthContributor.class)
				.stream()
				.findFirst()
				.orElseThrow()
				.contributor();
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			context.getBean(RdmaFlowMetrics.class).bindTo(meters);
			ScriptedDevice device = context.getBean(ScriptedDevice.class);
			device.counters().forEach((counters) -> counters.add(5, 500));
			int callers = 12;
			CountDownLatch start = new CountDownLatch(1);
			ExecutorService pool = Executors.newFixedThreadPool(callers);
			try {
				List<Future<Object>> results = new ArrayList<>();
				for (int i = 0; i < callers; i++) {
					int caller = i;
					Callable<Object> call = () -> {
						start.await();
						return switch (caller % 3) {
							case 0 -> endpoint.rdma();
							case 1 -> health.health().getStatus();
							default -> meters.get(RdmaFlowMetrics.PACKETS).tag("set", "roce").functionCounter().count()
									+ meters.get(RdmaFlowMetrics.BYTES).tag("set", "https").functionCounter().count();
						};
					};
					results.add(pool.submit(call));
				}
				start.countDown();
				for (int i = 0; i < callers; i++) {
					Object result = results.get(i).get();
					if (i % 3 == 1) {
						assertThat(result).isEqualTo(Status.UP);
					}
					if (i % 3 == 2) {
						assertThat(result).isEqualTo(505.0);
					}
				}
			}
			finally {
				pool.shutdownNow();
			}
			assertThat(device.counters()).extracting(ScriptedCounters::reads).containsExactly(1, 1);
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class DeviceConfiguration {

		@Bean
		ScriptedDevice scriptedDevice() {
			return new ScriptedDevice("mlx5_0", "simulated");
		}

		@Bean
		RdmaRegistry rdmaRegistry(ScriptedDevice device) {
			return new RdmaRegistry(List
				.of(new ManagedDevice(device, List.of(device.counterSet("roce", FlowSpec.any(), Duration.ofMinutes(1)),
						device.counterSet("https", FlowSpec.any(), Duration.ofMinutes(1))), null)));
		}

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

}
