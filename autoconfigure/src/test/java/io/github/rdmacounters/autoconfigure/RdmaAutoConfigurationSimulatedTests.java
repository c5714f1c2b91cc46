package io.github.rdmacounters.autoconfigure;

import java.net.InetAddress;
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
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint;
import io.github.rdmacounters.actuate.health.RdmaHealthIndicator;
import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterSetReading;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.CountersSnapshot;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.ManagedDevice;
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

	@Test
	void runWithSimulatedBackendCreatesDeviceRegistryAndOneCountersBeanPerSet() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(RdmaBackend.class)
				.hasSingleBean(ManagedDevice.class)
				.hasSingleBean(RdmaRegistry.class);
			assertThat(context.getBean(RdmaBackend.class)).isInstanceOf(SimulatedBackend.class);
			assertThat(context.getBeansOfType(Counters.class)).containsOnlyKeys("vxlan", "tcp");
			ManagedDevice device = context.getBean(ManagedDevice.class);
			assertThat(device.name()).isEqualTo("sim_mlx5_0");
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
			ManagedDevice device = context.getBean(ManagedDevice.class);
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
				assertThat(context.getBean(ManagedDevice.class).isAvailable()).isTrue();
			});
	}

	@Test
	void userDefinedManagedDeviceAndRegistryBackOff() {
		SimulatedBackend backend = SimulatedBackend.withDefaultDevice();
		this.simulatedRunner
			.withBean("myDevice", ManagedDevice.class,
					() -> new ManagedDevice(backend.open("sim_mlx5_0"), 1, List.of(), null))
			.withBean("myRegistry", RdmaRegistry.class, () -> new RdmaRegistry(List.of()))
			.run((context) -> {
				assertThat(context).hasSingleBean(ManagedDevice.class).hasSingleBean(RdmaRegistry.class);
				assertThat(context).hasBean("myDevice").hasBean("myRegistry").doesNotHaveBean("rdmaManagedDevice");
			});
	}

	@Test
	void userDefinedManagedDeviceBacksOffTheCountersBeansOfTheConfiguredSets() {
		SimulatedBackend backend = SimulatedBackend.withDefaultDevice();
		this.contextRunner
			.withBean("myDevice", ManagedDevice.class,
					() -> new ManagedDevice(backend.open("sim_mlx5_0"), 1, List.of(), null))
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(ManagedDevice.class).hasBean("myDevice");
				assertThat(context).doesNotHaveBean(Counters.class);
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
	void counterSetNamedLikeAStarterBeanFailsStartupNamingTheSet() {
		this.simulatedRunner.withPropertyValues("rdma.counter-sets.rdmaRegistry.flow.protocol=udp").run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy("InvalidConfigurationPropertyValueFailureAnalyzer")
				.descriptionContains(
						"Invalid value 'rdmaRegistry' for configuration property 'rdma.counter-sets.rdmaRegistry'",
						"starter's own beans");
		});
	}

	@Test
	void setsNamedLikeTheNewerStarterBeansFailStartupNamingTheSet() {
		this.simulatedRunner.withPropertyValues("rdma.counter-sets.rdmaPropertiesChecks.flow.protocol=udp")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy("InvalidConfigurationPropertyValueFailureAnalyzer")
				.descriptionContains("Invalid value 'rdmaPropertiesChecks' for configuration property "
						+ "'rdma.counter-sets.rdmaPropertiesChecks'", "starter's own beans"));
		this.simulatedRunner
			.withPropertyValues("rdma.devices.sim_mlx5_0.counter-sets.rdmaEventPublisher.flow.protocol=udp")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy("InvalidConfigurationPropertyValueFailureAnalyzer")
				.descriptionContains("Invalid value 'rdmaEventPublisher' for configuration property "
						+ "'rdma.devices.sim_mlx5_0.counter-sets.rdmaEventPublisher'", "starter's own beans"));
	}

	@Test
	void everyBeanNameOfTheStartersAutoConfigurationsThatASetCouldTakeIsAStarterBeanName() throws Exception {
		List<Class<?>> starter = new ArrayList<>();
		for (String name : ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader())) {
			if (name.startsWith("io.github.rdmacounters.")) {
				starter.add(Class.forName(name));
			}
		}
		assertThat(starter).contains(RdmaAutoConfiguration.class, RdmaEventsAutoConfiguration.class,
				RdmaUiAutoConfiguration.class);
		new WebApplicationContextRunner().withConfiguration(AutoConfigurations.of(starter.toArray(Class<?>[]::new)))
			.withBean(SimpleMeterRegistry.class)
			.withPropertyValues("rdma.backend=simulated", "rdma.ui.enabled=true", "rdma.simulated.traffic.enabled=true",
					"management.endpoints.web.exposure.include=rdma")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				List<String> names = Arrays.stream(context.getBeanDefinitionNames())
					.filter((name) -> name.startsWith("rdma")
							&& RdmaPropertiesValidator.SET_NAME.matcher(name).matches())
					.toList();
				assertThat(names).contains("rdmaRegistry", "rdmaEventPublisher", "rdmaEventMetrics", "rdmaUi",
						"rdmaSyntheticTraffic", "rdmaEndpoint");
				assertThat(RdmaPropertiesValidator.STARTER_BEAN_NAMES).containsAll(names);
			});
	}

	@Test
	void userDefinedBeanNamedLikeACounterSetFailsStartupNamingTheSetAndTheBean() {
		this.contextRunner.withUserConfiguration(OwnRoceCountersConfiguration.class).run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy("InvalidConfigurationPropertyValueFailureAnalyzer")
				.descriptionContains("Invalid value 'vxlan' for configuration property 'rdma.counter-sets.vxlan'",
						"A bean named 'vxlan' (factory method vxlan of", "rename the set");
		});
	}

	@Test
	void runWhenDisabledCreatesNoRdmaBeans() {
		this.contextRunner.withPropertyValues("rdma.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(RdmaBackend.class)
				.doesNotHaveBean(ManagedDevice.class)
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
					.hasSingleBean(ManagedDevice.class)
					.doesNotHaveBean("rdmaEndpoint")
					.doesNotHaveBean("rdmaHealthContributor")
					.doesNotHaveBean("rdmaFlowMetrics");
				assertThat(context.getBeansOfType(Counters.class)).containsOnlyKeys("vxlan", "tcp");
			});
	}

	@Test
	void simulatedPortCountersShareOneSysfsReadWithinTheReadCacheTtl() {
		this.simulatedRunner.withPropertyValues("rdma.read-cache-ttl=5m").run((context) -> {
			PortCountersSource source = context.getBean(ManagedDevice.class).portCounters();
			assertThat(source.snapshot()).isSameAs(source.snapshot());
		});
	}

	@Test
	void readCacheTtlOfZeroFailsStartupNamingThePropertyAndTheMinimum() {
		this.simulatedRunner.withPropertyValues("rdma.read-cache-ttl=0").run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy("InvalidConfigurationPropertyValueFailureAnalyzer")
				.descriptionContains("Invalid value '0' for configuration property 'rdma.read-cache-ttl'",
						"at least 100ms");
		});
	}

	@Test
	void runWithoutCounterSetsOpensTheDeviceWithPortCountersOnly() {
		this.simulatedRunner.run((context) -> {
			ManagedDevice device = context.getBean(ManagedDevice.class);
			assertThat(device.counterSets()).isEmpty();
			assertThat(context).doesNotHaveBean(Counters.class);
			assertThat(device.portCounters().snapshot().port(1)).isNotNull();
		});
	}

	@Test
	void disablingPortCountersLeavesTheDeviceWithoutASource() {
		this.contextRunner.withPropertyValues("rdma.port-counters.enabled=false")
			.run((context) -> assertThat(context.getBean(ManagedDevice.class).portCounters()).isNull());
	}

	@Test
	void simulatedPropertiesShapeTheSimulatedDevice() {
		this.simulatedRunner
			.withPropertyValues("rdma.simulated.devices.sim_ib_0.ports=2",
					"rdma.simulated.devices.sim_ib_0.link-layer=infiniband", "rdma.port=2")
			.run((context) -> {
				ManagedDevice device = context.getBean(ManagedDevice.class);
				assertThat(device.name()).isEqualTo("sim_ib_0");
				assertThat(device.port()).isEqualTo(2);
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
					.actionContains("Remove rdma.counter-sets", "rdma.fail-on-unavailable=false");
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
				ManagedDevice device = context.getBean(ManagedDevice.class);
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
				assertThat(health.getDetails()).containsEntry("portState", "ACTIVE");
				assertThat(String.valueOf(health.getDetails().get("reason")))
					.contains("Counter set 'vxlan' could not be read", "EOPNOTSUPP");
				MeterRegistry meters = new SimpleMeterRegistry();
				context.getBean(PortCountersMetrics.class).bindTo(meters);
				assertThat(meters.get(PortCountersMetrics.STATE).tag("port", "1").gauge().value()).isEqualTo(4.0);
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
		this.contextRunner.withPropertyValues("rdma.device=mlx5_7", "rdma.fail-on-unavailable=false").run((context) -> {
			ManagedDevice device = context.getBean(ManagedDevice.class);
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
		this.contextRunner.withPropertyValues("rdma.device=mlx5_7", "rdma.fail-on-unavailable=false").run((context) -> {
			ManagedDevice device = context.getBean(ManagedDevice.class);
			RdmaRegistry registry = context.getBean(RdmaRegistry.class);
			assertThat(device.counterSets()).extracting(CounterSet::name).containsExactly("vxlan", "tcp");
			CounterSet vxlan = registry.counterSet("vxlan");
			assertThat(vxlan).isNotNull();
			assertThat(vxlan.deviceName()).isEqualTo("mlx5_7");
			assertThat(vxlan.spec().destinationPort()).isEqualTo(4789);
			assertThat(context.getBean("vxlan")).as("the bean is the set's counters").isSameAs(vxlan.counters());
			assertThat(context.getBean("tcp")).isSameAs(registry.counterSet("tcp").counters());

			RdmaEndpoint.CounterSetDescriptor described = new RdmaEndpoint(registry).counterSet("vxlan", null);
			assertThat(described).isNotNull();
			assertThat(described.isReadSucceeded()).isFalse();
			assertThat(described.getLastError())
				.contains("Counter set 'vxlan' is unavailable: the application started without mlx5_7")
				.contains("No RDMA device named 'mlx5_7'");
			assertThat(new RdmaEndpoint(registry).rdma().getDevices().get("mlx5_7").getCounterSets())
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
			// one failure per read cache time-to-live: ManagedDeviceTests moves a clock
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
	void unknownDeviceFailsStartupListingTheDevicesFound() {
		this.contextRunner.withPropertyValues("rdma.device=mlx5_7").run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(DeviceNotFoundFailureAnalyzer.class)
				.descriptionContains("'mlx5_7'", "Devices found: sim_mlx5_0")
				.actionContains("Set rdma.device to one of the devices found (sim_mlx5_0)");
		});
	}

	@Test
	void unknownDeviceStartsUnavailableWhenAllowed() {
		this.contextRunner.withPropertyValues("rdma.device=mlx5_7", "rdma.fail-on-unavailable=false").run((context) -> {
			ManagedDevice device = context.getBean(ManagedDevice.class);
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
					.analyzedBy(InvalidRdmaPropertiesFailureAnalyzer.class)
					.descriptionContains("Property: rdma.counter-sets.steal.flow.dont-trap", "away from the kernel",
							"no receive buffers");
				assertThat(SimulatedBackendControl.of(backend).liveObjects()).as("nothing opened").isZero();
			});
	}

	@Test
	void invalidPropertiesFailStartupListingEachEvenWhenAllowedToStartWithout() {
		SimulatedBackend backend = SimulatedBackend.withDefaultDevice();
		this.contextRunner.withBean(SimulatedBackend.class, () -> backend)
			.withPropertyValues("rdma.fail-on-unavailable=false", "rdma.port=0",
					"rdma.counter-sets.bad.flow.destination-port=80")
			.run((context) -> {
				FailureAnalysisAssert.of(context.getStartupFailure())
					.analyzedBy(InvalidRdmaPropertiesFailureAnalyzer.class)
					.descriptionContains("Property: rdma.port\n    Value: \"0\"\n    Reason: must be 1 to 255",
							"Property: rdma.counter-sets.bad.flow.destination-port\n    Value: \"80\"\n"
									+ "    Reason: needs rdma.counter-sets.bad.flow.protocol (tcp or udp)")
					.actionContains("Update the rdma properties");
				assertThat(SimulatedBackendControl.of(backend).liveObjects()).as("nothing opened").isZero();
			});
	}

	@Test
	void invalidSimulatedDeviceFailsStartupAsAnInvalidPropertyBeforeTheBackendIsBuilt() {
		this.simulatedRunner.withPropertyValues("rdma.simulated.ports=0").run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy("InvalidConfigurationPropertyValueFailureAnalyzer")
				.descriptionContains("Invalid value '0' for configuration property 'rdma.simulated.ports'",
						"must be 1 to 255");
		});
	}

	@Test
	void unknownProtocolFailsStartupNamingPropertyValueAndValidValues() {
		this.contextRunner.withPropertyValues("rdma.counter-sets.vxlan.flow.protocol=sctp").run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.descriptionContains("rdma.counter-sets.vxlan.flow.protocol", "sctp")
				.actionContains("TCP", "UDP");
		});
	}

	@Test
	void unknownBackendFailsStartupNamingTheValidBackends() {
		this.contextRunner.withPropertyValues("rdma.backend=emulated").run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.descriptionContains("rdma.backend", "emulated")
				.actionContains("NATIVE", "SIMULATED");
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
		Counters vxlan(ManagedDevice device) {
			return device.device().createCounters();
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

}
