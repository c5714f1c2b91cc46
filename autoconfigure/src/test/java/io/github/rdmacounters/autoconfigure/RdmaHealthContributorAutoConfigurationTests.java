package io.github.rdmacounters.autoconfigure;

import java.time.Duration;
import java.time.Instant;
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
import io.github.rdmacounters.core.DeviceDefinition;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.ManagedDeviceFactory;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedBackendControl;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;
import io.github.rdmacounters.testsupport.MutableClock;
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
	void manyHealthRequestsWithinOneReadCacheTtlQueryThePortOnceThroughTheDevicesQueryCache() {
		CachedDevice cached = CachedDevice.open();
		ManagedDevice device = cached.device();
		SimulatedBackendControl control = cached.control();
		this.contextRunner.withBean(RdmaRegistry.class, () -> new RdmaRegistry(List.of(device))).run((context) -> {
			CompositeHealthContributor composite = context.getBean("rdmaHealthContributor",
					CompositeHealthContributor.class);
			for (int i = 0; i < 200; i++) {
				HealthIndicator indicator = (HealthIndicator) composite.getContributor("mlx5_0");
				assertThat(indicator.health(false).getStatus()).isEqualTo(Status.UP);
			}
			assertThat(control.verbCalls()).as("ibv_query_port calls for 200 health requests")
				.filteredOn("ibv_query_port"::equals)
				.hasSize(1);
			cached.clock().advance(Duration.ofMinutes(10));
			((HealthIndicator) composite.getContributor("mlx5_0")).health(false);
			assertThat(control.verbCalls()).as("after the time-to-live")
				.filteredOn("ibv_query_port"::equals)
				.hasSize(2);
		});
		device.close();
	}

	@Test
	void portQueryFailureIsReusedForTheReadCacheTtlToo() {
		CachedDevice cached = CachedDevice.open();
		ManagedDevice device = cached.device();
		SimulatedBackendControl control = cached.control();
		control.failNext("ibv_query_port", Errno.EINVAL);
		this.contextRunner.withBean(RdmaRegistry.class, () -> new RdmaRegistry(List.of(device))).run((context) -> {
			CompositeHealthContributor composite = context.getBean("rdmaHealthContributor",
					CompositeHealthContributor.class);
			for (int i = 0; i < 50; i++) {
				HealthIndicator indicator = (HealthIndicator) composite.getContributor("mlx5_0");
				assertThat(indicator.health(true).getDetails().get("reason")).asString().contains("EINVAL");
			}
			assertThat(control.verbCalls()).filteredOn("ibv_query_port"::equals).hasSize(1);
		});
		device.close();
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

	/**
	 * The simulated device mlx5_0, opened with a read cache time-to-live of ten minutes
	 * on a clock the test moves, and the control of its backend, which records the verbs
	 * called.
	 */
	private record CachedDevice(ManagedDevice device, SimulatedBackendControl control, MutableClock clock) {

		static CachedDevice open() {
			SimulatedBackend backend = new SimulatedBackend(
					List.of(SimulatedDeviceSpec.builder().name("mlx5_0").build()));
			MutableClock clock = new MutableClock(Instant.parse("2026-11-29T12:00:00Z"));
			ManagedDevice device = new ManagedDeviceFactory(backend, Duration.ofMinutes(10), clock, (name) -> null)
				.create(new DeviceDefinition("mlx5_0", 1, List.of(), "rdma"), true);
			return new CachedDevice(device, SimulatedBackendControl.of(backend), clock);
		}

	}

	static ManagedDevice device(String name) {
		return new ManagedDevice(new ScriptedDevice(name, "simulated"), 1, List.of(), null);
	}

}
