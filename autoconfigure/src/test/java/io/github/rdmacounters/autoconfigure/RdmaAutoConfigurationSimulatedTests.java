package io.github.rdmacounters.autoconfigure;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.rdmacounters.actuate.endpoint.CounterSetDescriptor;
import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint;
import io.github.rdmacounters.actuate.health.PortCountersHealthIndicator;
import io.github.rdmacounters.actuate.health.RdmaHealthIndicator;
import io.github.rdmacounters.autoconfigure.event.RdmaEventsAutoConfiguration;
import io.github.rdmacounters.autoconfigure.health.RdmaHealthContributorAutoConfiguration;
import io.github.rdmacounters.autoconfigure.metrics.RdmaMetricsAutoConfiguration;
import io.github.rdmacounters.autoconfigure.ui.RdmaUiAutoConfiguration;
import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.CounterSetReading;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.CountersSnapshot;
import io.github.rdmacounters.core.DeviceDefinition;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.ManagedDeviceFactory;
import io.github.rdmacounters.core.NoUniqueRdmaDeviceException;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.PortCountersSource;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.core.RdmaException;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.core.ReadMode;
import io.github.rdmacounters.metrics.PortCountersMetrics;
import io.github.rdmacounters.metrics.RdmaFlowMetrics;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedBackendControl;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;
import io.github.rdmacounters.testsupport.ScriptedDevice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link RdmaAutoConfiguration} on the simulated backend.
 *
 * @author rdma-counters
 */
@ExtendWith(OutputCaptureExtension.class)
class RdmaAutoConfigurationSimulatedTests {

	private final ApplicationContextRunner simulatedRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class))
		.withPropertyValues("rdma.backend=simulated");

	private final ApplicationContextRunner contextRunner = this.simulatedRunner.withPropertyValues(
			"rdma.counter-sets.vxlan.flow.protocol=udp", "rdma.counter-sets.vxlan.flow.destination-port=4789",
			"rdma.counter-sets.tcp.counters.packets=0", "rdma.counter-sets.tcp.flow.protocol=tcp",
			"rdma.counter-sets.tcp.flow.destination-ip=10.0.0.0/24");

	/**
	 * The sets of {@link #contextRunner} on mlx5_7, a device the simulated host lacks.
	 */
	private final ApplicationContextRunner onMissingDeviceRunner = this.contextRunner
		.withPropertyValues("rdma.counter-sets.vxlan.device=mlx5_7", "rdma.counter-sets.tcp.device=mlx5_7");

	/** A simulated host of two mlx5 devices, each with its network interface. */
	private final ApplicationContextRunner twoDevicesRunner = this.simulatedRunner.withPropertyValues(
			"rdma.simulated.devices.mlx5_0.netdevs=ens1f0np0", "rdma.simulated.devices.mlx5_1.netdevs=ens2f0np0");

	@Test
	void runWithSimulatedBackendCreatesDeviceRegistryAndOneCountersBeanPerSet() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(RdmaBackend.class)
				.hasSingleBean(ManagedDevices.class)
				.hasSingleBean(RdmaRegistry.class)
				.doesNotHaveBean(ManagedDevice.class);
			assertThat(context.getBean(RdmaBackend.class)).isInstanceOf(SimulatedBackend.class);
			assertThat(context.getBeansOfType(Counters.class)).containsOnlyKeys("vxlan", "tcp");
			assertThat(context.getBean(ManagedDevices.class).devices())
				.isEqualTo(context.getBean(RdmaRegistry.class).devices());
			ManagedDevice device = onlyDevice(context);
			assertThat(device.name()).isEqualTo("sim_mlx5_0");
			assertThat(device.ports()).as("the first ACTIVE port").containsExactly(1);
			assertThat(device.backend()).isEqualTo("simulated");
			assertThat(device.isAvailable()).isTrue();
			assertThat(device.portCounters()).isNotNull();
			assertThat(device.counterSets()).extracting(CounterSet::name).containsExactly("vxlan", "tcp");
			CounterSet vxlan = context.getBean(RdmaRegistry.class).counterSet("vxlan");
			assertThat(vxlan).isNotNull();
			assertThat(vxlan.spec().protocol()).isEqualTo(L4Protocol.UDP);
			assertThat(vxlan.spec().destinationPort()).isEqualTo(4789);
			assertThat(vxlan.spec().dontTrap()).isTrue();
			assertThat(vxlan.indexes()).containsEntry(CounterType.PACKETS, 0).containsEntry(CounterType.BYTES, 1);
			assertThat(context.getBean("vxlan")).isSameAs(vxlan.counters());
			CounterSet tcp = context.getBean(RdmaRegistry.class).counterSet("tcp");
			assertThat(tcp.indexes()).containsOnlyKeys(CounterType.PACKETS);
		});
	}

	@Test
	void countersInjectedByQualifierCountTheTrafficOfTheirOwnFlow() {
		this.contextRunner.withUserConfiguration(QualifiedCountersConfiguration.class).run((context) -> {
			SimulatedBackend backend = context.getBean(SimulatedBackend.class);
			InetAddress source = InetAddress.getByName("10.0.0.1");
			InetAddress destination = InetAddress.getByName("10.0.0.2");
			backend.deliver("sim_mlx5_0", 1, Packet.udp(source, 50000, destination, 4789, 1000));
			backend.deliver("sim_mlx5_0", 1, Packet.udp(source, 50000, destination, 4789, 500));
			backend.deliver("sim_mlx5_0", 1, Packet.udp(source, 50000, destination, 53, 100));
			QualifiedCountersUser user = context.getBean(QualifiedCountersUser.class);
			CountersSnapshot vxlan = user.vxlan.read(ReadMode.FRESH);
			assertThat(vxlan.get(0)).isEqualTo(2);
			assertThat(vxlan.get(1)).isEqualTo(1500);
			assertThat(user.tcp.read(ReadMode.FRESH).get(0)).isZero();
		});
	}

	@Test
	void closingTheContextClosesFlowsCountersAndDeviceLeavingNoLiveObjects() {
		SimulatedBackend backend = SimulatedBackend.withDefaultDevice();
		this.contextRunner.withBean(SimulatedBackend.class, () -> backend).run((context) -> {
			assertThat(SimulatedBackendControl.of(backend).liveObjects()).isGreaterThan(0);
			Counters vxlan = context.getBean("vxlan", Counters.class);
			ManagedDevice device = onlyDevice(context);
			context.close();
			assertThat(vxlan.isClosed()).isTrue();
			assertThat(device.device().isClosed()).isTrue();
			assertThat(SimulatedBackendControl.of(backend).liveObjects())
				.as("live: %s", SimulatedBackendControl.of(backend).liveObjectDescriptions())
				.isZero();
		});
	}

	@Test
	void userDefinedBackendWinsOverTheConfiguredOne() {
		SimulatedBackend backend = SimulatedBackend.withDefaultDevice();
		this.contextRunner.withPropertyValues("rdma.backend=native")
			.withBean(SimulatedBackend.class, () -> backend)
			.run((context) -> {
				assertThat(context).hasSingleBean(RdmaBackend.class);
				assertThat(context.getBean(RdmaBackend.class)).isSameAs(backend);
				assertThat(onlyDevice(context).isAvailable()).isTrue();
				assertThat(SimulatedBackendControl.of(backend).verbCalls()).contains("ibv_create_counters");
			});
	}

	@Test
	void userDefinedManagedDevicesAndRegistryBackOff() {
		this.simulatedRunner.withBean("myDevices", ManagedDevices.class, () -> new ManagedDevices(List.of()))
			.withBean("myRegistry", RdmaRegistry.class, () -> new RdmaRegistry(List.of()))
			.run((context) -> {
				assertThat(context).hasSingleBean(ManagedDevices.class).hasSingleBean(RdmaRegistry.class);
				assertThat(context).hasBean("myDevices")
					.hasBean("myRegistry")
					.doesNotHaveBean("rdmaDevices")
					.doesNotHaveBean("rdmaRegistry");
			});
	}

	@Test
	void userDefinedManagedDevicesWithTheConfiguredSetBackTheCountersBeanOfThatSet() {
		SimulatedBackend backend = SimulatedBackend.withDefaultDevice();
		this.simulatedRunner.withPropertyValues("rdma.counter-sets.vxlan.flow.protocol=udp")
			.withBean(SimulatedBackend.class, () -> backend)
			.withBean("myDevices", ManagedDevices.class,
					() -> new ManagedDevices(List.of(ManagedDeviceFactory.of(backend, Duration.ofSeconds(1))
						.create(DeviceDefinition.of("sim_mlx5_0",
								CounterSetDefinition.of("vxlan", FlowSpec.builder().protocol(L4Protocol.UDP).build())),
								true))))
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(ManagedDevices.class).hasBean("myDevices");
				ManagedDevice mine = context.getBean(ManagedDevices.class).devices().get(0);
				assertThat(context.getBean("vxlan")).isSameAs(mine.counterSets().get(0).counters());
			});
	}

	@Test
	void userDefinedRegistryBacksOffTheCountersBeansOfTheConfiguredSets() {
		this.contextRunner.withBean("myRegistry", RdmaRegistry.class, () -> new RdmaRegistry(List.of()))
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(RdmaRegistry.class).hasBean("myRegistry");
				assertThat(context).doesNotHaveBean(Counters.class);
			});
	}

	@Test
	void userDefinedRegistryBackOffLogsTheSetsLeftWithoutCountersBeansOnce(CapturedOutput output) {
		this.contextRunner.withBean("myRegistry", RdmaRegistry.class, () -> new RdmaRegistry(List.of()))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				String line = "Not registering Counters beans for rdma.counter-sets [vxlan, tcp]: "
						+ "the application defines its own RdmaRegistry";
				assertThat(output.getAll()).containsOnlyOnce(line);
			});
	}

	@Test
	void counterSetNamedLikeAStarterBeanFailsStartupNamingTheSetAndTheBean() {
		this.simulatedRunner.withPropertyValues("rdma.counter-sets.rdmaRegistry.flow.protocol=udp").run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(InvalidRdmaPropertyValueFailureAnalyzer.class)
				.descriptionContains(
						"Invalid value 'rdmaRegistry' for configuration property 'rdma.counter-sets.rdmaRegistry'",
						"A bean named 'rdmaRegistry' (factory method rdmaRegistry of", "rename the set");
		});
	}

	@Test
	void aSetNamedLikeAnyBeanOfTheStartersAutoConfigurationsFailsStartupNamingTheSetAndTheBean() throws Exception {
		List<Class<?>> starter = new ArrayList<>();
		for (String name : ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader())) {
			if (name.startsWith("io.github.rdmacounters.")) {
				starter.add(Class.forName(name));
			}
		}
		assertThat(starter).contains(RdmaAutoConfiguration.class, RdmaEventsAutoConfiguration.class,
				RdmaUiAutoConfiguration.class);
		WebApplicationContextRunner runner = new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(starter.toArray(Class<?>[]::new)))
			.withBean(SimpleMeterRegistry.class)
			.withPropertyValues("rdma.backend=simulated", "rdma.ui.enabled=true", "rdma.simulated.traffic.enabled=true",
					"management.endpoints.web.exposure.include=rdma");
		List<String> names = new ArrayList<>();
		runner.run((context) -> {
			assertThat(context).hasNotFailed();
			Arrays.stream(context.getBeanDefinitionNames())
				.filter((name) -> name.startsWith("rdma") && CounterSetDefinition.NAME.matcher(name).matches())
				.forEach(names::add);
		});
		assertThat(names).contains("rdmaRegistry", "rdmaDevices", "rdmaHostPortCounters", "rdmaCounterSetPlan",
				"rdmaEventPublisher", "rdmaEventMetrics", "rdmaUi", "rdmaSyntheticTraffic", "rdmaEndpoint");
		for (String name : names) {
			runner.withPropertyValues("rdma.counter-sets." + name + ".flow.protocol=udp")
				.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
					.analyzedBy(InvalidRdmaPropertyValueFailureAnalyzer.class)
					.descriptionContains("for configuration property 'rdma.counter-sets." + name + "'",
							"A bean named '" + name + "'", "rename the set"));
		}
	}

	@Test
	void userDefinedBeanNamedLikeACounterSetFailsStartupNamingTheSetAndTheBean() {
		this.contextRunner.withUserConfiguration(OwnRoceCountersConfiguration.class).run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(InvalidRdmaPropertyValueFailureAnalyzer.class)
				.descriptionContains("Invalid value 'vxlan' for configuration property 'rdma.counter-sets.vxlan'",
						"A bean named 'vxlan' (factory method vxlan of", "rename the set");
		});
	}

	@Test
	void runWhenDisabledCreatesNoRdmaBeans() {
		this.contextRunner.withPropertyValues("rdma.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(RdmaBackend.class)
				.doesNotHaveBean(ManagedDevices.class)
				.doesNotHaveBean(HostPortCountersSource.class)
				.doesNotHaveBean(RdmaRegistry.class)
				.doesNotHaveBean(Counters.class)
				.doesNotHaveBean(RdmaProperties.class);
		});
	}

	@Test
	void runWithoutActuatorAndMicrometerOnTheClasspathStillCreatesTheBeans() {
		this.contextRunner.withUserConfiguration(WholeStarterConfiguration.class)
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate",
					"org.springframework.boot.health", "io.micrometer"))
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.hasSingleBean(ManagedDevices.class)
					.hasSingleBean(HostPortCountersSource.class)
					.doesNotHaveBean("rdmaEndpoint")
					.doesNotHaveBean("rdmaHealthContributor")
					.doesNotHaveBean("rdmaFlowMetrics");
				assertThat(context.getBeansOfType(Counters.class)).containsOnlyKeys("vxlan", "tcp");
			});
	}

	@Test
	void simulatedPortCountersShareOneSysfsReadWithinTheReadCacheTtl() {
		this.contextRunner.withPropertyValues("rdma.read-cache-ttl=5m").run((context) -> {
			HostPortCountersSource host = context.getBean(HostPortCountersSource.class);
			assertThat(host.snapshot()).isSameAs(host.snapshot());
			PortCountersSource source = onlyDevice(context).portCounters();
			assertThat(source).isNotNull();
			assertThat(source.snapshot()).isSameAs(source.snapshot()).isSameAs(host.snapshot().device("sim_mlx5_0"));
		});
	}

	@Test
	void readCacheTtlOfZeroFailsStartupNamingThePropertyAndTheMinimum() {
		this.simulatedRunner.withPropertyValues("rdma.read-cache-ttl=0").run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(InvalidRdmaPropertyValueFailureAnalyzer.class)
				.descriptionContains("Invalid value '0' for configuration property 'rdma.read-cache-ttl'",
						"must be 100ms to 10m");
		});
	}

	@Test
	void runWithoutCounterSetsOpensNoDeviceAndServesThePortCountersFromSysfs() {
		SimulatedBackend backend = SimulatedBackend.withDefaultDevice();
		this.simulatedRunner.withBean(SimulatedBackend.class, () -> backend).run((context) -> {
			assertThat(context.getBean(ManagedDevices.class).devices()).isEmpty();
			assertThat(context.getBean(RdmaRegistry.class).devices()).isEmpty();
			assertThat(context).doesNotHaveBean(Counters.class);
			assertThat(context.getBean(HostPortCountersSource.class).snapshot().device("sim_mlx5_0").port(1))
				.isNotNull();
			assertThat(SimulatedBackendControl.of(backend).verbCalls()).as("no verbs call").isEmpty();
			assertThat(SimulatedBackendControl.of(backend).liveObjects()).isZero();
		});
	}

	@Test
	void disablingPortCountersLeavesTheHostAndTheSetsDeviceWithoutASource() {
		this.contextRunner.withPropertyValues("rdma.port-counters.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(HostPortCountersSource.class);
			assertThat(onlyDevice(context).isAvailable()).isTrue();
			assertThat(onlyDevice(context).portCounters()).isNull();
		});
	}

	@Test
	void simulatedPropertiesShapeTheSimulatedDevice() {
		this.simulatedRunner
			.withPropertyValues("rdma.simulated.devices.sim_ib_0.ports=2",
					"rdma.simulated.devices.sim_ib_0.link-layer=infiniband", "rdma.counter-sets.ib.port=2")
			.run((context) -> {
				ManagedDevice device = onlyDevice(context);
				assertThat(device.name()).isEqualTo("sim_ib_0");
				assertThat(device.ports()).containsExactly(2);
				assertThat(context.getBean(RdmaRegistry.class).counterSet("ib").port()).isEqualTo(2);
				assertThat(device.device().queryDevice().physicalPortCount()).isEqualTo(2);
				assertThat(device.device().queryPort(2).linkLayer().name()).isEqualTo("INFINIBAND");
			});
	}

	@Test
	void deviceWithoutCounterSupportFailsStartupWithCounterSetNamedInTheAnalysis() {
		this.contextRunner.withPropertyValues("rdma.simulated.devices.sim_mlx5_0.counters-supported=false")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysisAssert analysis = FailureAnalysisAssert.of(context.getStartupFailure());
				analysis.analyzedBy(RdmaOperationFailureAnalyzer.class)
					.descriptionContains("Creating counter set 'vxlan' (rdma.counter-sets.vxlan) on sim_mlx5_0 port 1",
							"EOPNOTSUPP (95)", "only the mlx5", "provider")
					.actionContains("Set rdma.counter-sets.vxlan.device to an mlx5 device, or remove the set",
							"rdma.devices.sim_mlx5_0.fail-on-unavailable=false", "rdma.fail-on-unavailable=false");
			});
	}

	@Test
	void deviceWithoutCounterSupportKeepsDeviceAndPortCountersAndMakesOnlyTheSetsUnavailableWhenAllowed() {
		this.contextRunner
			.withPropertyValues("rdma.simulated.devices.sim_mlx5_0.counters-supported=false",
					"rdma.fail-on-unavailable=false")
			.withBean(SimpleMeterRegistry.class)
			.withUserConfiguration(WholeStarterConfiguration.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				SimulatedBackend backend = context.getBean(SimulatedBackend.class);
				ManagedDevice device = onlyDevice(context);
				assertThat(device.isAvailable()).isTrue();
				assertThat(device.unavailabilityCause()).isNull();
				assertThat(device.portCounters()).isNotNull();
				assertThat(device.portCounters().snapshot().port(1)).isNotNull();
				assertThat(device.counterSets()).extracting(CounterSet::name).containsExactly("vxlan", "tcp");
				for (CounterSet set : device.counterSets()) {
					CounterSetReading reading = set.read();
					assertThat(reading.isSuccess()).isFalse();
					assertThat(reading.failure())
						.hasMessageContaining("Counter set '" + set.name() + "' is unavailable")
						.hasMessageContaining("ibv_create_counters failed: EOPNOTSUPP (95)");
				}
				Counters vxlan = context.getBean("vxlan", Counters.class);
				assertThat(vxlan).isSameAs(device.counterSets().get(0).counters());
				assertThat(vxlan.isClosed()).as("unavailable, not closed").isFalse();
				assertThatExceptionOfType(RdmaException.class).isThrownBy(() -> vxlan.read(ReadMode.FRESH))
					.withMessageContaining("Counter set 'vxlan' is unavailable")
					.withMessageContaining("EOPNOTSUPP");
				Health health = ((RdmaHealthIndicator) context
					.getBean("rdmaHealthContributor", CompositeHealthContributor.class)
					.getContributor(device.name())).health();
				assertThat(health.getStatus()).isEqualTo(Status.DOWN);
				assertThat(health.getDetails().get("portStates")).asInstanceOf(InstanceOfAssertFactories.MAP)
					.extractingByKey("1")
					.asInstanceOf(InstanceOfAssertFactories.MAP)
					.containsEntry("state", "ACTIVE");
				assertThat(String.valueOf(health.getDetails().get("reason")))
					.contains("Counter set 'vxlan' could not be read", "EOPNOTSUPP");
				MeterRegistry meters = new SimpleMeterRegistry();
				context.getBean(PortCountersMetrics.class).bindTo(meters);
				assertThat(
						meters.get(PortCountersMetrics.STATE).tags("device", "sim_mlx5_0", "port", "1").gauge().value())
					.isEqualTo(4.0);
				assertThat(SimulatedBackendControl.of(backend).liveObjects())
					.as("only the device: %s", SimulatedBackendControl.of(backend).liveObjectDescriptions())
					.isGreaterThan(0);
				context.close();
				assertThat(SimulatedBackendControl.of(backend).liveObjects())
					.as("live: %s", SimulatedBackendControl.of(backend).liveObjectDescriptions())
					.isZero();
			});
	}

	@Test
	void unknownDeviceStartsUnavailableWithoutPortCountersWhenAllowed() {
		this.onMissingDeviceRunner.withPropertyValues("rdma.fail-on-unavailable=false").run((context) -> {
			ManagedDevice device = onlyDevice(context);
			assertThat(device.isAvailable()).isFalse();
			assertThat(device.portCounters()).as("the simulated backend has no tree for mlx5_7").isNull();
			Counters vxlan = context.getBean("vxlan", Counters.class);
			assertThat(vxlan.isClosed()).isFalse();
			assertThatExceptionOfType(RdmaException.class).isThrownBy(() -> vxlan.read(ReadMode.FRESH))
				.withMessageContaining("Counter set 'vxlan' is unavailable: the application started without mlx5_7");
		});
	}

	@Test
	void unknownDeviceAllowedAtStartupKeepsItsConfiguredSetsUnavailableInEndpointHealthAndMeters() {
		this.onMissingDeviceRunner.withPropertyValues("rdma.devices.mlx5_7.fail-on-unavailable=false")
			.run((context) -> {
				ManagedDevice device = onlyDevice(context);
				RdmaRegistry registry = context.getBean(RdmaRegistry.class);
				assertThat(device.counterSets()).extracting(CounterSet::name).containsExactly("vxlan", "tcp");
				CounterSet vxlan = registry.counterSet("vxlan");
				assertThat(vxlan).isNotNull();
				assertThat(vxlan.deviceName()).isEqualTo("mlx5_7");
				assertThat(vxlan.spec().destinationPort()).isEqualTo(4789);
				assertThat(context.getBean("vxlan")).as("the bean is the set's counters").isSameAs(vxlan.counters());
				assertThat(context.getBean("tcp")).isSameAs(registry.counterSet("tcp").counters());

				CounterSetDescriptor described = new RdmaEndpoint(registry).counterSet("vxlan");
				assertThat(described).isNotNull();
				assertThat(described.readSucceeded()).isFalse();
				assertThat(described.lastError())
					.contains("Counter set 'vxlan' is unavailable: the application started without mlx5_7")
					.contains("No RDMA device named 'mlx5_7'");
				assertThat(new RdmaEndpoint(registry).rdma().devices().get("mlx5_7").counterSets())
					.containsOnlyKeys("vxlan", "tcp");

				Health health = new RdmaHealthIndicator(device).health();
				assertThat(health.getStatus()).isEqualTo(Status.DOWN);
				assertThat(String.valueOf(health.getDetails().get("reason"))).startsWith("Device unavailable: ")
					.contains("No RDMA device named 'mlx5_7'");
				assertThat(health.getDetails().get("counterSets")).asInstanceOf(InstanceOfAssertFactories.MAP)
					.containsOnlyKeys("vxlan", "tcp");

				MeterRegistry meters = new SimpleMeterRegistry();
				new RdmaFlowMetrics(registry).bindTo(meters);
				assertThat(meters.get(RdmaFlowMetrics.PACKETS)
					.tag("device", "mlx5_7")
					.tag("set", "vxlan")
					.functionCounter()
					.count()).isZero();
				// one failure per read cache time-to-live: ManagedDeviceTests moves a
				// clock
				// past it
				assertThat(meters.get(RdmaFlowMetrics.READ_FAILURES).tag("set", "vxlan").functionCounter().count())
					.isPositive();
				context.close();
				assertThat(vxlan.counters().isClosed()).as("unavailable, not closed").isFalse();
				device.close();
			});
	}

	@Test
	void deviceWithoutFlowSteeringFailsStartupWithFlowSteeringAnalysis() {
		this.contextRunner.withPropertyValues("rdma.simulated.devices.sim_mlx5_0.managed-flow-steering=false")
			.run((context) -> {
				FailureAnalysisAssert.of(context.getStartupFailure())
					.analyzedBy(RdmaOperationFailureAnalyzer.class)
					.descriptionContains("ibv_create_flow", "managed flow steering")
					.actionContains("MANAGED_FLOW_STEERING", "rdma.counter-sets.vxlan.flow");
			});
	}

	@Test
	void rawPacketQueuePairNotPermittedFailsStartupAskingForCapNetRaw() {
		SimulatedBackend backend = SimulatedBackend.withDefaultDevice();
		SimulatedBackendControl.of(backend).failAlways("ibv_create_qp", Errno.EPERM);
		this.contextRunner.withBean(SimulatedBackend.class, () -> backend).run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(RdmaOperationFailureAnalyzer.class)
				.descriptionContains("was not permitted", "EPERM (1)", "CAP_NET_RAW")
				.actionContains("setcap cap_net_raw+ep");
			assertThat(SimulatedBackendControl.of(backend).liveObjects())
				.as("live: %s", SimulatedBackendControl.of(backend).liveObjectDescriptions())
				.isZero();
		});
	}

	@Test
	void unknownDeviceFailsStartupNamingTheSetsOnItAndListingTheDevicesFound() {
		this.onMissingDeviceRunner.run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(DeviceNotFoundFailureAnalyzer.class)
				.descriptionContains("'mlx5_7'", "rdma.counter-sets.vxlan, rdma.counter-sets.tcp",
						"Devices found: sim_mlx5_0")
				.actionContains("one of the devices found (sim_mlx5_0)",
						"rdma.devices.mlx5_7.fail-on-unavailable=false");
		});
	}

	@Test
	void unknownDeviceStartsUnavailableWhenItsOwnOptionAllows() {
		this.onMissingDeviceRunner.withPropertyValues("rdma.devices.mlx5_7.fail-on-unavailable=false")
			.run((context) -> {
				ManagedDevice device = onlyDevice(context);
				assertThat(device.isAvailable()).isFalse();
				assertThat(device.name()).isEqualTo("mlx5_7");
				assertThat(device.backend()).isEqualTo("simulated");
				assertThat(context.getBean(RdmaRegistry.class).devices()).containsExactly(device);
			});
	}

	@Test
	void aTrappingFlowFailsStartupNamingDontTrapAndWhyEvenWhenAllowedToStartWithout() {
		SimulatedBackend backend = SimulatedBackend.withDefaultDevice();
		this.contextRunner.withBean(SimulatedBackend.class, () -> backend)
			.withPropertyValues("rdma.fail-on-unavailable=false", "rdma.counter-sets.steal.counters.packets=0",
					"rdma.counter-sets.steal.flow.protocol=tcp", "rdma.counter-sets.steal.flow.dont-trap=false")
			.run((context) -> {
				FailureAnalysisAssert.of(context.getStartupFailure())
					.analyzedBy(InvalidRdmaConfigurationFailureAnalyzer.class)
					.descriptionContains("Property: rdma.counter-sets.steal.flow.dont-trap", "away from the kernel",
							"no receive buffers");
				assertThat(SimulatedBackendControl.of(backend).liveObjects()).as("nothing opened").isZero();
			});
	}

	@Test
	void invalidPropertiesFailStartupListingEachEvenWhenAllowedToStartWithout() {
		SimulatedBackend backend = SimulatedBackend.withDefaultDevice();
		this.contextRunner.withBean(SimulatedBackend.class, () -> backend)
			.withPropertyValues("rdma.fail-on-unavailable=false", "rdma.counter-sets.vxlan.port=0",
					"rdma.counter-sets.bad.flow.destination-port=80")
			.run((context) -> {
				FailureAnalysisAssert.of(context.getStartupFailure())
					.analyzedBy(InvalidRdmaConfigurationFailureAnalyzer.class)
					.descriptionContains(
							"Property: rdma.counter-sets.vxlan.port\n    Value: \"0\"\n    Reason: must be 1 to 255",
							"Property: rdma.counter-sets.bad.flow.destination-port\n    Value: \"80\"\n"
									+ "    Reason: needs rdma.counter-sets.bad.flow.protocol (tcp or udp)")
					.actionContains("Update the rdma properties");
				assertThat(SimulatedBackendControl.of(backend).liveObjects()).as("nothing opened").isZero();
			});
	}

	@Test
	void invalidSimulatedDeviceFailsStartupAsAnInvalidPropertyBeforeTheBackendIsBuilt() {
		this.simulatedRunner.withPropertyValues("rdma.simulated.devices.sim_a.ports=0").run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(InvalidRdmaPropertyValueFailureAnalyzer.class)
				.descriptionContains(
						"Invalid value '0' for configuration property 'rdma.simulated.devices.sim_a.ports'",
						"must be 1 to 255");
		});
	}

	@Test
	void unknownProtocolFailsStartupNamingPropertyValueAndValidValues() {
		this.contextRunner.withPropertyValues("rdma.counter-sets.vxlan.flow.protocol=sctp").run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.descriptionContains("rdma.counter-sets.vxlan.flow.protocol", "'sctp'", "must be tcp or udp");
		});
	}

	@Test
	void unknownBackendFailsStartupNamingTheValidBackends() {
		this.contextRunner.withPropertyValues("rdma.backend=emulated").run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.descriptionContains("rdma.backend", "'emulated'", "must be native or simulated");
		});
	}

	@Test
	void countersBeanClosedEarlyClosesOnceAndTheContextStillClosesCleanly() {
		SimulatedBackend backend = SimulatedBackend.withDefaultDevice();
		this.contextRunner.withBean(SimulatedBackend.class, () -> backend).run((context) -> {
			Counters vxlan = context.getBean("vxlan", Counters.class);
			int before = SimulatedBackendControl.of(backend).liveObjects();
			vxlan.close();
			vxlan.close();
			assertThat(SimulatedBackendControl.of(backend).liveObjects()).as("flow and counters of vxlan destroyed")
				.isEqualTo(before - 2);
			assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(() -> vxlan.read(ReadMode.FRESH));
			CounterSetReading reading = context.getBean(RdmaRegistry.class).counterSet("vxlan").read();
			assertThat(reading.isSuccess()).isFalse();
			context.close();
			assertThat(SimulatedBackendControl.of(backend).liveObjects())
				.as("live: %s", SimulatedBackendControl.of(backend).liveObjectDescriptions())
				.isZero();
		});
	}

	@Test
	void hostOfFourDevicesWithoutCounterSetsStartsAndServesEachDevicesPortCountersInHealthWithoutOpeningAny() {
		SimulatedBackend backend = new SimulatedBackend(List.of(SimulatedDeviceSpec.builder().name("mlx5_0").build(),
				SimulatedDeviceSpec.builder().name("mlx5_1").portCount(2).build(),
				SimulatedDeviceSpec.builder().name("mlx5_2").build(),
				SimulatedDeviceSpec.builder().name("rxe_0").countersSupported(false).build()));
		this.simulatedRunner.withConfiguration(AutoConfigurations.of(RdmaHealthContributorAutoConfiguration.class))
			.withBean(SimulatedBackend.class, () -> backend)
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(Counters.class);
				assertThat(context.getBean(ManagedDevices.class).devices()).isEmpty();
				assertThat(context.getBean(RdmaRegistry.class).devices()).isEmpty();
				assertThat(context.getBean(RdmaRegistry.class).counterSets()).isEmpty();
				CompositeHealthContributor rdma = context.getBean("rdmaHealthContributor",
						CompositeHealthContributor.class);
				assertThat(rdma.stream()).extracting(CompositeHealthContributor.Entry::name)
					.containsExactly("mlx5_0", "mlx5_1", "mlx5_2", "rxe_0")
					.doesNotContain(ManagedDeviceFactory.ANY_DEVICE);
				rdma.stream().forEach((entry) -> {
					assertThat(entry.contributor()).as(entry.name()).isInstanceOf(PortCountersHealthIndicator.class);
					Health health = ((HealthIndicator) entry.contributor()).health();
					assertThat(health.getStatus()).as(entry.name()).isEqualTo(Status.UP);
					assertThat(health.getDetails()).containsEntry("device", entry.name());
				});
				assertThat(((HealthIndicator) rdma.getContributor("mlx5_1")).health().getDetails().get("ports"))
					.asInstanceOf(InstanceOfAssertFactories.MAP)
					.containsOnlyKeys("1", "2");
				assertThat(SimulatedBackendControl.of(backend).verbCalls()).as("no verbs call").isEmpty();
			});
	}

	@Test
	void setsChosenByNetdevAndByDeviceLandOnTheirDevicesAndEachCountsOnlyItsOwnDevicesTraffic() {
		this.twoDevicesRunner
			.withPropertyValues("rdma.counter-sets.storage.netdev=ens2f0np0",
					"rdma.counter-sets.storage.flow.protocol=udp",
					"rdma.counter-sets.storage.flow.destination-port=4420", "rdma.counter-sets.backup.device=mlx5_0",
					"rdma.counter-sets.backup.flow.protocol=udp", "rdma.counter-sets.backup.flow.destination-port=4420")
			.withUserConfiguration(StorageAndBackupConfiguration.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RdmaRegistry registry = context.getBean(RdmaRegistry.class);
				assertThat(registry.devices()).extracting(ManagedDevice::name)
					.containsExactlyInAnyOrder("mlx5_0", "mlx5_1");
				assertThat(registry.device("mlx5_1").counterSets()).extracting(CounterSet::name)
					.containsExactly("storage");
				assertThat(registry.device("mlx5_0").counterSets()).extracting(CounterSet::name)
					.containsExactly("backup");
				SimulatedBackend backend = context.getBean(SimulatedBackend.class);
				InetAddress source = InetAddress.getByName("10.0.0.1");
				InetAddress destination = InetAddress.getByName("10.0.0.2");
				backend.deliver("mlx5_1", 1, Packet.udp(source, 50000, destination, 4420, 1000));
				StorageAndBackup user = context.getBean(StorageAndBackup.class);
				assertThat(user.storage.read(ReadMode.FRESH).get(0)).isEqualTo(1);
				assertThat(user.storage.read(ReadMode.FRESH).get(1)).isEqualTo(1000);
				assertThat(user.backup.read(ReadMode.FRESH).get(0)).isZero();
				backend.deliver("mlx5_0", 1, Packet.udp(source, 50000, destination, 4420, 200));
				backend.deliver("mlx5_0", 1, Packet.udp(source, 50000, destination, 4420, 200));
				assertThat(user.backup.read(ReadMode.FRESH).get(0)).isEqualTo(2);
				assertThat(user.storage.read(ReadMode.FRESH).get(0)).isEqualTo(1);
			});
	}

	@Test
	void unknownNetdevFailsStartupNamingTheSetsNetdevPropertyAndListingTheDevicesInterfaces() {
		this.twoDevicesRunner
			.withPropertyValues("rdma.counter-sets.storage.netdev=ens9f0",
					"rdma.counter-sets.storage.flow.protocol=udp")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(InvalidRdmaConfigurationFailureAnalyzer.class)
				.descriptionContains("Property: rdma.counter-sets.storage.netdev\n    Value: \"ens9f0\"",
						"No RDMA device of this host has the network interface ens9f0",
						"mlx5_0=[ens1f0np0], mlx5_1=[ens2f0np0]"));
	}

	@Test
	void setsWithoutDeviceOnAHostOfTwoMlx5DevicesFailStartupNamingTheSetAndTheDevices() {
		this.twoDevicesRunner
			.withPropertyValues("rdma.counter-sets.storage.flow.protocol=udp",
					"rdma.counter-sets.backup.flow.protocol=tcp")
			.run((context) -> {
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(NoUniqueRdmaDeviceException.class)
					.hasMessage("rdma.counter-sets.storage names no device and the simulated backend finds 2 RDMA "
							+ "devices with flow counters: mlx5_0, mlx5_1");
				FailureAnalysisAssert.of(context.getStartupFailure())
					.analyzedBy(NoUniqueRdmaDeviceFailureAnalyzer.class)
					.actionContains("Set rdma.counter-sets.storage.device to the device to count on");
			});
	}

	@Test
	void setsWithoutDeviceLandOnTheOnlyDeviceWithFlowCounters() {
		this.simulatedRunner
			.withPropertyValues("rdma.simulated.devices.mlx5_0.ports=1",
					"rdma.simulated.devices.rxe_0.counters-supported=false",
					"rdma.counter-sets.storage.flow.protocol=udp", "rdma.counter-sets.backup.flow.protocol=tcp")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RdmaRegistry registry = context.getBean(RdmaRegistry.class);
				assertThat(registry.devices()).extracting(ManagedDevice::name).containsExactly("mlx5_0");
				assertThat(registry.device("mlx5_0").counterSets()).extracting(CounterSet::name)
					.containsExactly("storage", "backup");
				assertThat(registry.counterSets()).allSatisfy((set) -> {
					assertThat(set.deviceName()).isEqualTo("mlx5_0");
					assertThat(set.read().isSuccess()).as(set.name()).isTrue();
				});
				assertThat(SimulatedBackendControl.of(context.getBean(SimulatedBackend.class)).liveObjectDescriptions())
					.as("rxe_0 was probed and closed again")
					.noneMatch((live) -> live.contains("rxe_0"));
			});
	}

	private static ManagedDevice onlyDevice(ApplicationContext context) {
		List<ManagedDevice> devices = context.getBean(RdmaRegistry.class).devices();
		assertThat(devices).hasSize(1);
		return devices.get(0);
	}

	@Configuration(proxyBeanMethods = false)
	static class StorageAndBackupConfiguration {

		@Bean
		StorageAndBackup storageAndBackup(@Qualifier("storage") Counters storage,
				@Qualifier("backup") Counters backup) {
			return new StorageAndBackup(storage, backup);
		}

	}

	record StorageAndBackup(Counters storage, Counters backup) {

	}

	@Configuration(proxyBeanMethods = false)
	static class QualifiedCountersConfiguration {

		@Bean
		QualifiedCountersUser qualifiedCountersUser(@Qualifier("vxlan") Counters vxlan,
				@Qualifier("tcp") Counters tcp) {
			return new QualifiedCountersUser(vxlan, tcp);
		}

	}

	static class QualifiedCountersUser {

		final Counters vxlan;

		final Counters tcp;

		QualifiedCountersUser(Counters vxlan, Counters tcp) {
			this.vxlan = vxlan;
			this.tcp = tcp;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnRoceCountersConfiguration {

		@Bean
		Counters vxlan() {
			return new ScriptedDevice("mlx5_0", "simulated").createCounters();
		}

	}

	/**
	 * Imports every auto-configuration of the starter the way an application does, so
	 * that the class conditions filter out the optional ones whose classes are missing.
	 */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ RdmaAutoConfiguration.class, RdmaEndpointAutoConfiguration.class,
			RdmaHealthContributorAutoConfiguration.class, RdmaMetricsAutoConfiguration.class })
	static class WholeStarterConfiguration {

	}

	@Test
	void deviceFilterThatLeavesNoDeviceWarnsNamingTheFilterAndTheHostsDevices(CapturedOutput output) {
		this.simulatedRunner.withPropertyValues("rdma.port-counters.devices.include=mlx5_*").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output)
				.contains("rdma.port-counters.devices.include=mlx5_* leaves "
						+ "none of this host's RDMA devices [sim_mlx5_0], so no port counters are read")
				.doesNotContain("devices.exclude=");
		});
		this.simulatedRunner.withPropertyValues("rdma.port-counters.devices.exclude=*")
			.run((context) -> assertThat(output)
				.contains("rdma.port-counters.devices.exclude=* leaves none of this host's RDMA devices [sim_mlx5_0]"));
	}

	@Test
	void deviceFilterEntryThatMatchesNoDeviceIsWarnedAboutWhenAnotherMatches(CapturedOutput output) {
		this.simulatedRunner
			.withPropertyValues("rdma.port-counters.devices.include=sim_*,nomatch*",
					"rdma.port-counters.devices.exclude=mlx5_9")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(HostPortCountersSource.class).snapshot().devices()).hasSize(1);
				assertThat(output)
					.containsOnlyOnce("rdma.port-counters.devices.include[1]=nomatch* matches none of this host's "
							+ "RDMA devices [sim_mlx5_0]; correct the name or glob, or remove it")
					.containsOnlyOnce("rdma.port-counters.devices.exclude[0]=mlx5_9 matches none of this host's "
							+ "RDMA devices [sim_mlx5_0]")
					.doesNotContain("include[0]=sim_*");
			});
	}

	@Test
	void deviceOptionsOfADeviceTheHostDoesNotHaveAreWarnedAboutWithTheClosestNames(CapturedOutput output) {
		this.simulatedRunner
			.withPropertyValues("rdma.devices.sim_mlx5_9.fail-on-unavailable=false",
					"rdma.devices.sim_mlx5_0.fail-on-unavailable=true")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output)
					.containsOnlyOnce("rdma.devices.sim_mlx5_9.fail-on-unavailable=false names an RDMA device this "
							+ "host does not have (devices found: sim_mlx5_0; closest: sim_mlx5_0), so it has no "
							+ "effect; correct the device name, or remove rdma.devices.sim_mlx5_9")
					.doesNotContain("rdma.devices.sim_mlx5_0.fail-on-unavailable=true names");
			});
	}

	@Test
	void deviceTheHostDoesNotHaveWithFailOnUnavailableFailsStartupNamingItAndTheDevicesFound() {
		this.simulatedRunner.withPropertyValues("rdma.devices.nope_0.fail-on-unavailable=true").run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(ConfiguredDeviceMissingFailureAnalyzer.class)
				.descriptionContains("rdma.devices.nope_0.fail-on-unavailable=true asks startup to fail without the "
						+ "RDMA device 'nope_0', and this host does not have it. Devices found: sim_mlx5_0 "
						+ "(closest: sim_mlx5_0).")
				.actionContains("rdma.devices.nope_0.fail-on-unavailable=false");
		});
	}

	@Test
	void counterEntryThatMatchesNoCounterOfTheHostIsWarnedAboutWithTheClosestNames(CapturedOutput output) {
		this.simulatedRunner.withPropertyValues("rdma.port-counters.include=port_*,port_rcv_dta").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).containsOnlyOnce("rdma.port-counters.include[1]=port_rcv_dta matches none of the ")
				.containsPattern("include\\[1]=port_rcv_dta matches none of the \\d+ port counters of this host's "
						+ "devices \\(closest: port_rcv_data, [^)]+\\); correct the name or glob")
				.doesNotContain("include[0]=");
		});
	}

	@Test
	void counterExcludeThatRemovesEveryCounterIsWarnedAbout(CapturedOutput output) {
		this.simulatedRunner.withPropertyValues("rdma.port-counters.exclude=*").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output)
				.containsOnlyOnce("rdma.port-counters.exclude=* removes every port counter of this host's devices (")
				.doesNotContain("exclude[0]=");
		});
	}

	@Test
	void includeThatExcludeTakesBackEntirelyIsWarnedAbout(CapturedOutput output) {
		this.simulatedRunner
			.withPropertyValues("rdma.port-counters.include=port_rcv_*", "rdma.port-counters.exclude=port_*")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).containsOnlyOnce("rdma.port-counters.include=port_rcv_* and "
						+ "rdma.port-counters.exclude=port_* leave none of the port counters of this host's devices");
			});
	}

	@Test
	void includeThatExcludeTakesBackInPartDoesNotWarn(CapturedOutput output) {
		this.simulatedRunner
			.withPropertyValues("rdma.port-counters.include=port_rcv_*", "rdma.port-counters.exclude=port_rcv_data")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).doesNotContain("leave none of the port counters");
			});
	}

	@Test
	void deviceExcludeAloneThatLeavesNoDeviceNamesOnlyTheExclude(CapturedOutput output) {
		this.simulatedRunner.withPropertyValues("rdma.port-counters.devices.exclude=sim_*").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output)
				.containsOnlyOnce("rdma.port-counters.devices.exclude=sim_* leaves none of this host's RDMA devices")
				.doesNotContain("devices.include=");
		});
	}

	@Test
	void deviceFilterThatKeepsADeviceDoesNotWarn(CapturedOutput output) {
		this.simulatedRunner.withPropertyValues("rdma.port-counters.devices.include=sim_*").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(HostPortCountersSource.class).snapshot().devices()).hasSize(1);
			assertThat(output).doesNotContain("none of this host's RDMA devices");
		});
	}

	@Test
	void sysfsRootOnTheSimulatedBackendWarnsThatItHasNoEffect(CapturedOutput output) {
		this.simulatedRunner.withPropertyValues("rdma.port-counters.sysfs-root=/srv/sysfs-copy").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output)
				.contains("rdma.port-counters.sysfs-root=/srv/sysfs-copy has no effect on the " + "simulated backend");
		});
	}

}
