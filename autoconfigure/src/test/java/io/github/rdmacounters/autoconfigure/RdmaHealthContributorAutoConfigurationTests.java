package io.github.rdmacounters.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.mock.env.MockEnvironment;

import io.github.rdmacounters.actuate.health.PortCountersHealthIndicator;
import io.github.rdmacounters.actuate.health.RdmaHealthIndicator;
import io.github.rdmacounters.autoconfigure.health.RdmaHealthContributorAutoConfiguration;
import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.DeviceDefinition;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.ManagedDeviceFactory;
import io.github.rdmacounters.core.PortState;
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
		this.contextRunner.withUserConfiguration(OneScriptedDeviceConfiguration.class).run((context) -> {
			CompositeHealthContributor composite = context.getBean("rdmaHealthContributor",
					CompositeHealthContributor.class);
			assertThat(composite.stream()).extracting(CompositeHealthContributor.Entry::name).containsExactly("mlx5_0");
			HealthContributor device = composite.getContributor("mlx5_0");
			assertThat(device).isInstanceOf(RdmaHealthIndicator.class);
			Health health = ((RdmaHealthIndicator) device).health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("device", "mlx5_0");
			assertThat(health.getDetails().get("portStates"))
				.isEqualTo(Map.of("1", Map.of("state", "ACTIVE", "physicalState", "LinkUp")));
			assertThat(health.getDetails().get("counterSets")).asInstanceOf(InstanceOfAssertFactories.MAP)
				.containsOnlyKeys("roce");
		});
	}

	@Test
	void runWithADeviceWhosePortIsDownShouldReportItDownNamingThePort() {
		this.contextRunner.withUserConfiguration(OneScriptedDeviceConfiguration.class).run((context) -> {
			context.getBean(ScriptedDevice.class).setPortState(PortState.DOWN);
			Health health = ((HealthIndicator) context
				.getBean("rdmaHealthContributor", CompositeHealthContributor.class)
				.getContributor("mlx5_0")).health();
			assertThat(health.getStatus()).isEqualTo(Status.DOWN);
			assertThat(health.getDetails()).containsEntry("reason", "Port 1 is DOWN (physical state Disabled)");
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
	void runWithNoDevicesShouldCreateACompositeWhoseOnlyEntryIsUnknownWithTheReason() {
		this.contextRunner.withBean(RdmaRegistry.class, () -> new RdmaRegistry(List.of())).run((context) -> {
			assertThat(context).hasNotFailed();
			CompositeHealthContributor composite = context.getBean("rdmaHealthContributor",
					CompositeHealthContributor.class);
			assertThat(composite.stream()).extracting(CompositeHealthContributor.Entry::name)
				.containsExactly("devices");
			Health health = ((HealthIndicator) composite.getContributor("devices")).health();
			assertThat(health.getStatus()).isEqualTo(Status.UNKNOWN);
			assertThat(health.getDetails().get("reason")).asString().contains("No RDMA device on this host");
		});
	}

	@Test
	void runWithHostPortCountersShouldAddAPortCountersIndicatorForEachDeviceWithoutCounterSets() {
		SimulatedBackend backend = new SimulatedBackend(List.of(SimulatedDeviceSpec.builder().name("mlx5_0").build(),
				SimulatedDeviceSpec.builder().name("mlx5_1").portCount(2).build()));
		HostPortCountersSource host = backend.hostPortCounters(Path.of("/sys/class/infiniband"), (device) -> true,
				(counter) -> true, Duration.ofMinutes(1));
		this.contextRunner.withUserConfiguration(OneScriptedDeviceConfiguration.class)
			.withBean(HostPortCountersSource.class, () -> host)
			.run((context) -> {
				CompositeHealthContributor composite = context.getBean("rdmaHealthContributor",
						CompositeHealthContributor.class);
				assertThat(composite.stream()).extracting(CompositeHealthContributor.Entry::name)
					.containsExactly("mlx5_0", "mlx5_1");
				assertThat(composite.getContributor("mlx5_0")).as("managed").isInstanceOf(RdmaHealthIndicator.class);
				assertThat(composite.getContributor("mlx5_1")).as("sysfs only")
					.isInstanceOf(PortCountersHealthIndicator.class);
				Health sysfsOnly = ((HealthIndicator) composite.getContributor("mlx5_1")).health();
				assertThat(sysfsOnly.getStatus()).isEqualTo(Status.UP);
				assertThat(sysfsOnly.getDetails().get("ports")).asInstanceOf(InstanceOfAssertFactories.MAP)
					.containsOnlyKeys("1", "2");
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
		this.contextRunner.withUserConfiguration(OneScriptedDeviceConfiguration.class)
			.withPropertyValues("management.health.rdma.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("rdmaHealthContributor"));
	}

	@Test
	void runWhenEnabledIsNoBooleanShouldFailNamingTheProperty() {
		this.contextRunner.withUserConfiguration(OneScriptedDeviceConfiguration.class)
			.withPropertyValues("management.health.rdma.enabled=maybe")
			.run((context) -> FailureAnalysisAssert
				.of(context.getStartupFailure(),
						new MockEnvironment().withProperty("management.health.rdma.enabled", "maybe"))
				.analyzedBy(RdmaSwitchFailureAnalyzer.class)
				.descriptionContains(
						"Invalid value 'maybe' for configuration property 'management.health.rdma.enabled'",
						"must be true or false"));
	}

	@Test
	void runWithoutRegistryShouldNotCreateIndicator() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean("rdmaHealthContributor"));
	}

	@Test
	void runWithUserIndicatorShouldBackOff() {
		this.contextRunner.withUserConfiguration(OneScriptedDeviceConfiguration.class, UserIndicatorConfiguration.class)
			.run((context) -> {
				assertThat(context).doesNotHaveBean("rdmaHealthContributor");
				assertThat(context).hasBean("rdmaHealthIndicator");
			});
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
				.create(DeviceDefinition.of("mlx5_0", CounterSetDefinition.of("roce", 1, FlowSpec.any())), true);
			return new CachedDevice(device, SimulatedBackendControl.of(backend), clock);
		}

	}

	static ManagedDevice device(String name) {
		ScriptedDevice device = new ScriptedDevice(name, "simulated");
		return new ManagedDevice(device, List.of(device.counterSet("roce", FlowSpec.any(), Duration.ZERO)), null);
	}

}
