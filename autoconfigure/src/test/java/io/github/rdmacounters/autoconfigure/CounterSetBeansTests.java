package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.type.classreading.CachingMetadataReaderFactory;
import org.springframework.core.type.classreading.MetadataReader;
import org.springframework.core.type.classreading.MetadataReaderFactory;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaException;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.core.ReadMode;
import io.github.rdmacounters.core.UnavailableCounters;
import io.github.rdmacounters.testsupport.FakeVerbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests of the {@link Counters} beans of the sets of {@code rdma.counter-sets} on several
 * devices: one bean per set, named by the set's key and injected by it, the registry's
 * own counters on the device the set names, closed once with the context.
 *
 * @author rdma-counters
 */
class CounterSetBeansTests {

	private final FakeVerbs fake = FakeVerbs.get();

	private final ApplicationContextRunner nativeRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class))
		.withPropertyValues(FakeDeviceSets.properties(this.fake))
		.withPropertyValues("rdma.port-counters.enabled=false");

	private final ApplicationContextRunner simulatedRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class))
		.withPropertyValues("rdma.backend=simulated", "rdma.simulated.devices.sim_mlx5_0.ports=1",
				"rdma.simulated.devices.sim_mlx5_1.ports=2");

	@BeforeEach
	void addDevices() {
		this.fake.reset();
		FakeDeviceSets.addDevices(this.fake);
	}

	@AfterEach
	void forgetFake() {
		this.fake.reset();
	}

	@Test
	void eachSetIsABeanNamedByItsKeyThatIsTheRegistrysCountersOnTheDeviceItNames() {
		this.nativeRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			RdmaRegistry registry = context.getBean(RdmaRegistry.class);
			Map<String, Counters> beans = context.getBeansOfType(Counters.class);
			assertThat(beans).containsOnlyKeys("vxlan0", "vxlan1", "https", "nvme");
			assertThat(beans.get("vxlan0")).isSameAs(set(registry, "mlx5_0", "vxlan0").counters());
			assertThat(beans.get("vxlan1")).isSameAs(set(registry, "mlx5_1", "vxlan1").counters());
			assertThat(beans.get("https")).isSameAs(set(registry, "mlx5_1", "https").counters());
			assertThat(beans.get("nvme")).isSameAs(set(registry, "mlx5_9", "nvme").counters());
			assertThat(set(registry, "mlx5_0", "vxlan0").port()).isEqualTo(1);
			assertThat(set(registry, "mlx5_1", "vxlan1").port()).as("first ACTIVE port").isEqualTo(2);
			assertThat(set(registry, "mlx5_1", "https").port()).isEqualTo(2);

			FakeDeviceSets.deliverTraffic(this.fake);
			assertThat(packets(beans.get("vxlan0"))).isEqualTo(1);
			assertThat(packets(beans.get("vxlan1"))).isEqualTo(2);
			assertThat(packets(beans.get("https"))).isEqualTo(1);
		});
	}

	@Test
	void setBeansAreInjectedByTheirKeyWhateverDeviceTheyAreOn() {
		this.nativeRunner.withUserConfiguration(QualifiedInjection.class).run((context) -> {
			assertThat(context).hasNotFailed();
			QualifiedInjection injected = context.getBean(QualifiedInjection.class);
			assertThat(injected.https).isSameAs(context.getBean("https"));
			assertThat(injected.vxlan0).isSameAs(context.getBean("vxlan0"));
			assertThat(injected.vxlan1).isSameAs(context.getBean("vxlan1")).isNotSameAs(injected.vxlan0);
			assertThat(context.containsBean("mlx5_1.https")).as("no <device>.<set> name").isFalse();
		});
	}

	@Test
	void setOnADeviceThatFailedAtStartupIsABeanThatReportsTheDevicesCause() {
		this.nativeRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			ManagedDevice missing = context.getBean(RdmaRegistry.class).device("mlx5_9");
			assertThat(missing.isAvailable()).isFalse();
			Counters nvme = context.getBean("nvme", Counters.class);
			assertThat(nvme).isInstanceOfSatisfying(UnavailableCounters.class,
					(unavailable) -> assertThat(unavailable.cause()).isSameAs(missing.unavailabilityCause()));
			assertThatExceptionOfType(RdmaException.class).isThrownBy(() -> nvme.read(ReadMode.FRESH))
				.withMessageContaining("nvme")
				.withMessageContaining("mlx5_9")
				.withCause(missing.unavailabilityCause());
		});
	}

	@Test
	void contextCloseClosesEverySetOnceBeforeItsDevice() {
		this.nativeRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			List<Counters> counters = List.of(context.getBean("vxlan0", Counters.class),
					context.getBean("vxlan1", Counters.class), context.getBean("https", Counters.class));
			assertThat(this.fake.flows()).hasSize(3);
			context.close();
			assertThat(counters).allMatch(Counters::isClosed);
			// a second destroy of a flow or counters, or one after the device's context,
			// is a misuse to the fake
			assertThat(this.fake.misuseLog()).isEmpty();
			assertThat(this.fake.liveObjects()).as(this.fake.liveDescription()).isZero();
		});
	}

	@Test
	void setsOfTheSameFlowOnTwoDevicesAreTwoBeansEachOnItsDeviceAndPort() {
		this.simulatedRunner.withPropertyValues("rdma.counter-sets.storage.device=sim_mlx5_0",
				"rdma.counter-sets.storage.flow.protocol=tcp", "rdma.counter-sets.storage.flow.destination-port=4420",
				"rdma.counter-sets.storage-b.device=sim_mlx5_1", "rdma.counter-sets.storage-b.port=2",
				"rdma.counter-sets.storage-b.flow.protocol=tcp",
				"rdma.counter-sets.storage-b.flow.destination-port=4420")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RdmaRegistry registry = context.getBean(RdmaRegistry.class);
				assertThat(context.getBeansOfType(Counters.class)).containsOnlyKeys("storage", "storage-b");
				assertThat(context.getBean("storage")).isSameAs(set(registry, "sim_mlx5_0", "storage").counters());
				assertThat(context.getBean("storage-b")).isSameAs(set(registry, "sim_mlx5_1", "storage-b").counters());
				assertThat(set(registry, "sim_mlx5_0", "storage").port()).isEqualTo(1);
				assertThat(set(registry, "sim_mlx5_1", "storage-b").port()).isEqualTo(2);
			});
	}

	@Test
	void camelCaseSetKeysNamingNoDeviceCountOnTheOnlyDeviceAndADevicesOptionOpensNothing() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class))
			.withPropertyValues("rdma.backend=simulated", "rdma.counterSets.storage.flow.protocol=tcp",
					"rdma.counterSets.storage.flow.destinationPort=4420",
					"rdma.devices.mlx5_9.fail-on-unavailable=false")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RdmaRegistry registry = context.getBean(RdmaRegistry.class);
				assertThat(registry.devices()).extracting(ManagedDevice::name).containsExactly("sim_mlx5_0");
				CounterSet storage = set(registry, "sim_mlx5_0", "storage");
				assertThat(storage.spec().destinationPort()).isEqualTo(4420);
				assertThat(context.getBean("storage")).isSameAs(storage.counters());
			});
	}

	@Test
	void setWhoseNameIsAnotherBeansFailsStartupNamingTheSetsProperty() {
		this.simulatedRunner.withUserConfiguration(OwnHttpsBean.class)
			.withPropertyValues("rdma.counter-sets.https.device=sim_mlx5_1",
					"rdma.counter-sets.https.flow.protocol=tcp", "rdma.counter-sets.https.flow.destination-port=443")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(InvalidRdmaPropertyValueFailureAnalyzer.class)
				.descriptionContains("Invalid value 'https' for configuration property 'rdma.counter-sets.https'",
						"A bean named 'https' (factory method https of", "rename the set"));
	}

	@Test
	void setNamedLikeAStarterBeanFailsStartupNamingTheSetsProperty() {
		this.simulatedRunner
			.withPropertyValues("rdma.counter-sets.rdmaDevices.flow.protocol=tcp",
					"rdma.counter-sets.rdmaDevices.flow.destination-port=443")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(InvalidRdmaPropertyValueFailureAnalyzer.class)
				.descriptionContains("'rdma.counter-sets.rdmaDevices'",
						"A bean named 'rdmaDevices' (factory method " + "rdmaDevices of", "rename the set"));
	}

	@Test
	void setNamedLikeAStarterBeanFailsStartupAlsoWhenTheClassFilesAreReadWithBootsSharedReader() {
		// SpringApplication's start registers this bean: the parser of the configuration
		// classes reads with it, and so does the starter's check, to read them once
		RecordingReaders readers = new RecordingReaders();
		this.simulatedRunner
			.withBean("org.springframework.boot.autoconfigure.internalCachingMetadataReaderFactory",
					MetadataReaderFactory.class, () -> readers)
			.withPropertyValues("rdma.counter-sets.rdmaDevices.flow.protocol=tcp",
					"rdma.counter-sets.rdmaDevices.flow.destination-port=443")
			.run((context) -> {
				FailureAnalysisAssert.of(context.getStartupFailure())
					.analyzedBy(InvalidRdmaPropertyValueFailureAnalyzer.class)
					.descriptionContains("'rdma.counter-sets.rdmaDevices'",
							"A bean named 'rdmaDevices' (factory method " + "rdmaDevices of", "rename the set");
				assertThat(readers.read).contains(RdmaAutoConfiguration.class.getName());
			});
	}

	@Test
	void setsUnderCamelCaseCounterSetsAreBeansNamedAsWrittenAsBootBindsThem() {
		this.simulatedRunner.withPropertyValues("rdma.counterSets.storage.device=sim_mlx5_0",
				"rdma.counterSets.storage.flow.protocol=tcp", "rdma.counterSets.storage.flow.destination-port=4420",
				"rdma.counterSets.nvme_tcp.device=sim_mlx5_1", "rdma.counterSets.nvme_tcp.port=2",
				"rdma.counterSets.nvme_tcp.flow.protocol=tcp", "rdma.counterSets.nvme_tcp.flow.destination-port=4420")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RdmaRegistry registry = context.getBean(RdmaRegistry.class);
				assertThat(context.getBeansOfType(Counters.class)).containsOnlyKeys("storage", "nvme_tcp");
				assertThat(context.getBean("storage")).isSameAs(set(registry, "sim_mlx5_0", "storage").counters());
				assertThat(context.getBean("nvme_tcp")).isSameAs(set(registry, "sim_mlx5_1", "nvme_tcp").counters());
			});
	}

	@Test
	void camelCaseKeysOfASetAreAcceptedAsBootBindsThem() {
		this.simulatedRunner.withPropertyValues("rdma.counter-sets.storage.device=sim_mlx5_1",
				"rdma.counter-sets.storage.flow.protocol=tcp", "rdma.counter-sets.storage.flow.destinationPort=4420",
				"rdma.counter-sets.storage.readMode=prefer-cached", "rdma.counter-sets.storage.counters.PACKETS=0")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				CounterSet storage = set(context.getBean(RdmaRegistry.class), "sim_mlx5_1", "storage");
				assertThat(storage.spec().destinationPort()).isEqualTo(4420);
				assertThat(storage.readMode()).isEqualTo(ReadMode.PREFER_CACHED);
				assertThat(context.getBean("storage")).isSameAs(storage.counters());
			});
	}

	@Test
	void setsOfEnvironmentVariablesAreBeansOnTheDeviceTheyNameAsBootBindsThem() {
		this.simulatedRunner.withPropertyValues("rdma.simulated.devices.simroce.ports=1")
			.withInitializer(
					(context) -> context.getEnvironment()
						.getPropertySources()
						.addFirst(environmentVariables(Map.of("RDMA_COUNTERSETS_STORAGE_DEVICE", "simroce",
								"RDMA_COUNTERSETS_STORAGE_FLOW_PROTOCOL", "tcp",
								"RDMA_COUNTERSETS_STORAGE_FLOW_DESTINATIONPORT", "4420"))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RdmaRegistry registry = context.getBean(RdmaRegistry.class);
				assertThat(registry.devices()).extracting(ManagedDevice::name).containsExactly("simroce");
				CounterSet storage = set(registry, "simroce", "storage");
				assertThat(storage.spec().destinationPort()).isEqualTo(4420);
				assertThat(context.getBeansOfType(Counters.class)).containsOnlyKeys("storage");
				assertThat(context.getBean("storage")).isSameAs(storage.counters());
			});
	}

	@Test
	void setBeansAreTheSetsBootBindsFromEverySourceInTheirOrder() {
		this.simulatedRunner
			.withPropertyValues("rdma.counter-sets.web.device=sim_mlx5_0", "rdma.counter-sets.web.flow.protocol=tcp",
					"rdma.counter-sets[Nvme_Tcp].device=sim_mlx5_1", "rdma.counter-sets[Nvme_Tcp].flow.protocol=tcp",
					"rdma.counterSets.storage.flow.protocol=tcp")
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(environmentVariables(Map.of("RDMA_COUNTERSETS_STORAGE_DEVICE", "sim_mlx5_1",
						"RDMA_COUNTERSETS_STORAGE_FLOW_DESTINATIONPORT", "4420"))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Map<String, CounterSetProperties> bound = context.getBean(RdmaProperties.class).counterSets();
				assertThat(bound).containsOnlyKeys("storage", "web", "Nvme_Tcp");
				assertThat(context.getBeanNamesForType(Counters.class)).containsExactlyElementsOf(bound.keySet());
				assertThat(set(context.getBean(RdmaRegistry.class), "sim_mlx5_1", "storage").spec().destinationPort())
					.isEqualTo(4420);
			});
	}

	@Test
	void unknownCamelCaseKeyFailsStartupNamingThePropertyAsWritten() {
		this.simulatedRunner
			.withPropertyValues("rdma.counterSets.storage.flow.protocol=tcp",
					"rdma.counterSets.storage.flow.destinatonPort=4420")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(UnboundRdmaPropertyFailureAnalyzer.class)
				.descriptionContains(
						"Invalid value '4420' for configuration property "
								+ "'rdma.counterSets.storage.flow.destinatonPort'",
						"'flow.destinatonPort' is not a counter set property; did you mean flow.destination-port?"));
	}

	@Test
	void unknownKeyOfAnEnvironmentVariableFailsStartupNamingTheVariable() {
		this.simulatedRunner.withPropertyValues("rdma.simulated.devices.simroce.ports=1")
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(environmentVariables(Map.of("RDMA_COUNTERSETS_STORAGE_FLOW_PROTOCOL", "tcp",
						"RDMA_COUNTERSETS_STORAGE_FLOW_DESTINATONPORT", "4420"))))
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(UnboundRdmaPropertyFailureAnalyzer.class)
				.descriptionContains(
						"Invalid value '4420' for configuration property "
								+ "'RDMA_COUNTERSETS_STORAGE_FLOW_DESTINATONPORT'",
						"is not a counter set property; did you mean flow.destination-port?"));
	}

	/**
	 * Environment variables as Boot reads them: a source named like the system
	 * environment gets Boot's environment variable mapping.
	 */
	private static SystemEnvironmentPropertySource environmentVariables(Map<String, Object> variables) {
		return new SystemEnvironmentPropertySource(
				"test-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables);
	}

	private static CounterSet set(RdmaRegistry registry, String device, String name) {
		ManagedDevice managed = registry.device(device);
		assertThat(managed).as("device %s", device).isNotNull();
		return managed.counterSets()
			.stream()
			.filter((set) -> set.name().equals(name))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no set " + name + " on " + device));
	}

	private static long packets(Counters counters) {
		return counters.read(ReadMode.FRESH).get(0);
	}

	@Configuration(proxyBeanMethods = false)
	static class QualifiedInjection {

		final Counters https;

		final Counters vxlan0;

		final Counters vxlan1;

		QualifiedInjection(@Qualifier("https") Counters https, @Qualifier("vxlan0") Counters vxlan0,
				@Qualifier("vxlan1") Counters vxlan1) {
			this.https = https;
			this.vxlan0 = vxlan0;
			this.vxlan1 = vxlan1;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnHttpsBean {

		@Bean
		String https() {
			return "mine";
		}

	}

	static class RecordingReaders extends CachingMetadataReaderFactory {

		final List<String> read = new CopyOnWriteArrayList<>();

		@Override
		public MetadataReader getMetadataReader(String className) throws IOException {
			this.read.add(className);
			return super.getMetadataReader(className);
		}

	}

}
