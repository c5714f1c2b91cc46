package io.github.rdmacounters.autoconfigure;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import io.github.rdmacounters.autoconfigure.health.RdmaHealthContributorAutoConfiguration;
import io.github.rdmacounters.autoconfigure.metrics.RdmaMetricsAutoConfiguration;
import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterSetReading;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.CountersSnapshot;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.ManagedDeviceFactory;
import io.github.rdmacounters.core.NoUniqueRdmaDeviceException;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.RdmaException;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.core.RdmaUnavailableException;
import io.github.rdmacounters.core.ReadMode;
import io.github.rdmacounters.sysfs.SysfsFixtures;
import io.github.rdmacounters.testsupport.FakeVerbs;
import io.github.rdmacounters.verbs.NativeBackend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link RdmaAutoConfiguration} on the native backend, against the fake
 * libibverbs.
 *
 * @author rdma-counters
 */
class RdmaAutoConfigurationNativeTests {

	private final FakeVerbs fake = FakeVerbs.get();

	private final ApplicationContextRunner nativeRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class))
		.withPropertyValues("rdma.native.library=" + this.fake.libraryPath());

	private final ApplicationContextRunner contextRunner = this.nativeRunner.withPropertyValues(
			"rdma.counter-sets.vxlan.flow.protocol=udp", "rdma.counter-sets.vxlan.flow.destination-port=4789",
			"rdma.counter-sets.all.counters.packets=0");

	@BeforeEach
	void resetFake() {
		this.fake.reset();
	}

	@AfterEach
	void forgetFake() {
		this.fake.reset();
	}

	@Test
	void nativeBackendOpensTheOnlyDeviceAndCountsDeliveredTrafficPerSet() {
		this.fake.device("mlx5_0").add();
		this.contextRunner.run((context) -> {
			assertThat(context.getBean(RdmaBackend.class)).isInstanceOf(NativeBackend.class);
			assertThat(context.getBean(RdmaRegistry.class).devices()).extracting(ManagedDevice::name)
				.containsExactly("mlx5_0");
			ManagedDevice device = context.getBean(RdmaRegistry.class).device("mlx5_0");
			assertThat(device.backend()).isEqualTo("native");
			assertThat(device.isAvailable()).isTrue();
			assertThat(context.getBeansOfType(Counters.class)).containsOnlyKeys("vxlan", "all");
			InetAddress a = InetAddress.getByName("192.168.1.1");
			InetAddress b = InetAddress.getByName("192.168.1.2");
			this.fake.deliver("mlx5_0", 1, Packet.udp(a, 40000, b, 4789, 1024));
			this.fake.deliver("mlx5_0", 1, Packet.tcp(a, 40000, b, 22, 60));
			CountersSnapshot vxlan = context.getBean("vxlan", Counters.class).read(ReadMode.FRESH);
			assertThat(vxlan.get(0)).isEqualTo(1);
			assertThat(vxlan.get(1)).isEqualTo(1024);
			CounterSetReading all = context.getBean(RdmaRegistry.class).counterSet("all").read();
			assertThat(all.value(CounterType.PACKETS)).isEqualTo(2);
			assertThat(all.has(CounterType.BYTES)).isFalse();
		});
	}

	@Test
	void closingTheContextLeavesNoLiveNativeObjectsAndNoMisuse() {
		this.fake.device("mlx5_0").add();
		this.contextRunner.run((context) -> {
			assertThat(this.fake.liveObjects()).isGreaterThan(0);
			context.close();
			this.fake.assertClean();
		});
	}

	@Test
	void enodevOnEveryVerbWhileRunningFailsReadsAndShutdownCompletesWithoutMisuse() {
		this.fake.device("mlx5_0").add();
		this.contextRunner.run((context) -> {
			Counters vxlan = context.getBean("vxlan", Counters.class);
			for (String verb : List.of("ibv_read_counters", "ibv_query_port", "ibv_query_device", "ibv_destroy_flow",
					"ibv_destroy_counters", "ibv_destroy_qp", "ibv_destroy_cq", "ibv_dealloc_pd", "ibv_close_device")) {
				this.fake.failAlways(verb, Errno.ENODEV);
			}
			assertThatExceptionOfType(RdmaException.class).isThrownBy(() -> vxlan.read(ReadMode.FRESH))
				.withMessageContaining("ENODEV");
			CounterSetReading reading = context.getBean(RdmaRegistry.class).counterSet("vxlan").read();
			assertThat(reading.isSuccess()).isFalse();
			context.close();
			// Every destroy failed: the kernel frees what is left when the process closes
			// the device file; what matters is that nothing reached a freed handle
			assertThat(this.fake.misuseLog()).isEmpty();
			assertThat(vxlan.isClosed()).isTrue();
			this.fake.clearFaults();
		});
	}

	@Test
	void flowsTheApplicationBuildsOnPlainCountersOfASetsDeviceCountAndCloseWithTheContext() {
		this.fake.device("mlx5_0").add();
		this.contextRunner.run((context) -> {
			RdmaDevice device = context.getBean(RdmaRegistry.class).device("mlx5_0").device();
			Counters counters = device.createCounters();
			counters.attach(CounterType.PACKETS, 0);
			FlowSpec spec = FlowSpec.builder().protocol(L4Protocol.TCP).destinationPort(5201).build();
			device.createFlow(1, spec, counters);
			InetAddress a = InetAddress.getByName("10.1.0.1");
			InetAddress b = InetAddress.getByName("10.1.0.2");
			this.fake.deliver("mlx5_0", 1, Packet.tcp(a, 40000, b, 5201, 1500));
			assertThat(counters.read(ReadMode.FRESH).get(0)).isEqualTo(1);
			context.close();
			assertThat(counters.isClosed()).isTrue();
			this.fake.assertClean();
		});
	}

	@Test
	void readsRacingTheContextCloseFailWithRdmaClosedExceptionAndNeverReachFreedHandles() throws Exception {
		for (int round = 0; round < 10; round++) {
			this.fake.reset();
			this.fake.device("mlx5_0").add();
			this.contextRunner.run((context) -> {
				List<Counters> counters = List.of(context.getBean("vxlan", Counters.class),
						context.getBean("all", Counters.class));
				List<CounterSet> sets = context.getBean(RdmaRegistry.class).counterSets();
				int threads = 4;
				CountDownLatch reading = new CountDownLatch(threads);
				Queue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
				AtomicLong closedFailures = new AtomicLong();
				List<Thread> readers = new ArrayList<>();
				for (int i = 0; i < threads; i++) {
					Counters mine = counters.get(i % counters.size());
					CounterSet set = sets.get(i % sets.size());
					Thread reader = new Thread(() -> readUntilClosed(mine, set, reading, closedFailures, unexpected),
							"reader-" + i);
					readers.add(reader);
					reader.start();
				}
				assertThat(reading.await(10, TimeUnit.SECONDS)).as("every reader read once").isTrue();
				context.close();
				for (Thread reader : readers) {
					reader.join(10_000);
					assertThat(reader.isAlive()).as("%s finished", reader.getName()).isFalse();
				}
				assertThat(unexpected).isEmpty();
				assertThat(closedFailures).hasValue(threads);
				assertThat(sets).as("reads during shutdown are not failed reads")
					.allSatisfy((set) -> assertThat(set.failedReads()).isZero());
			});
			this.fake.assertClean();
		}
	}

	private static void readUntilClosed(Counters counters, CounterSet set, CountDownLatch reading,
			AtomicLong closedFailures, Queue<Throwable> unexpected) {
		long[] values = new long[counters.size()];
		boolean first = true;
		try {
			while (true) {
				counters.read(values, ReadMode.FRESH);
				set.read();
				if (first) {
					reading.countDown();
					first = false;
				}
			}
		}
		catch (RdmaClosedException ex) {
			closedFailures.incrementAndGet();
		}
		catch (Throwable ex) {
			unexpected.add(ex);
		}
		finally {
			if (first) {
				reading.countDown();
			}
		}
	}

	@Test
	void deviceTheSetsNameIsOpenedAmongSeveralAndTheOtherIsNot() {
		this.fake.device("mlx5_0").add().device("mlx5_1").add();
		this.contextRunner
			.withPropertyValues("rdma.counter-sets.vxlan.device=mlx5_1", "rdma.counter-sets.all.device=mlx5_1")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(RdmaRegistry.class).devices()).extracting(ManagedDevice::name)
					.containsExactly("mlx5_1");
				assertThat(this.fake.calls("ibv_open_device")).as("only mlx5_1 is opened").isOne();
				assertThat(context.getBean(RdmaRegistry.class).counterSets()).extracting(CounterSet::deviceName)
					.containsOnly("mlx5_1");
				context.close();
				this.fake.assertClean();
			});
	}

	@Test
	void severalDevicesAndASetNamingNoneFailStartupListingThemEvenWhenAllowedToStartWithout() {
		this.fake.device("mlx5_0").add().device("mlx5_1").add();
		this.contextRunner.withPropertyValues("rdma.fail-on-unavailable=false").run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(NoUniqueRdmaDeviceFailureAnalyzer.class)
				.descriptionContains("rdma.counter-sets.vxlan names no device",
						"finds 2 RDMA devices with flow counters: mlx5_0, mlx5_1")
				.actionContains("Set rdma.counter-sets.vxlan.device", "rdma.counter-sets.vxlan.device=mlx5_0",
						"rdma.counter-sets.vxlan.netdev");
		});
		this.fake.assertClean();
	}

	@Test
	void noDeviceAtAllFailsStartupSayingHowToLoadADriver() {
		this.contextRunner.run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(NoUniqueRdmaDeviceFailureAnalyzer.class)
				.descriptionContains("rdma.counter-sets.vxlan names no device", "finds no RDMA device")
				.actionContains("mlx5_ib", "rdma_rxe", "rdma.backend=simulated", "rdma.fail-on-unavailable=false");
		});
		this.fake.assertClean();
	}

	@Test
	void noDeviceAtAllStartsTheSetsUnavailableWhenAllowed() {
		this.contextRunner.withPropertyValues("rdma.fail-on-unavailable=false").run((context) -> {
			assertThat(context.getBean(RdmaRegistry.class).devices()).hasSize(1);
			ManagedDevice device = context.getBean(RdmaRegistry.class).devices().get(0);
			assertThat(device.name()).as("no device was chosen").isEqualTo(ManagedDeviceFactory.ANY_DEVICE);
			assertThat(device.counterSets()).extracting(CounterSet::name).containsExactly("vxlan", "all");
			assertThat(device.isAvailable()).isFalse();
			assertThat(device.unavailabilityCause()).isInstanceOf(NoUniqueRdmaDeviceException.class);
			assertThat(context.getBean("vxlan", Counters.class).isClosed()).as("unavailable, not closed").isFalse();
		});
		this.fake.assertClean();
	}

	@Test
	void unknownDeviceFailsStartupNamingTheSetsAndListingTheDevicesFound() {
		this.fake.device("mlx5_0").add().device("mlx5_1").add();
		this.contextRunner
			.withPropertyValues("rdma.counter-sets.vxlan.device=mlx5_9", "rdma.counter-sets.all.device=mlx5_9")
			.run((context) -> {
				FailureAnalysisAssert.of(context.getStartupFailure())
					.analyzedBy(DeviceNotFoundFailureAnalyzer.class)
					.descriptionContains("'mlx5_9' that rdma.counter-sets.vxlan, rdma.counter-sets.all counts on",
							"Devices found: mlx5_0, mlx5_1")
					.actionContains("(mlx5_0, mlx5_1)", "rdma.devices.mlx5_9.fail-on-unavailable=false");
			});
		this.fake.assertClean();
	}

	@Test
	void unloadableLibraryFailsStartupSayingWhatToInstall() {
		this.contextRunner.withPropertyValues("rdma.native.library=/nonexistent/libibverbs.so.1").run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(RdmaUnavailableFailureAnalyzer.class)
				.descriptionContains("libibverbs could not be loaded", "/nonexistent/libibverbs.so.1")
				.actionContains("libibverbs1", "rdma-core", "rdma.native.library", "rdma.backend=simulated");
		});
	}

	@Test
	void unloadableLibraryStartsTheSetsUnavailableWhenAllowed() {
		this.contextRunner
			.withPropertyValues("rdma.native.library=/nonexistent/libibverbs.so.1", "rdma.fail-on-unavailable=false")
			.run((context) -> {
				assertThat(context.getBean(RdmaRegistry.class).devices()).hasSize(1);
				ManagedDevice device = context.getBean(RdmaRegistry.class).devices().get(0);
				assertThat(device.counterSets()).extracting(CounterSet::name).containsExactly("vxlan", "all");
				assertThat(device.isAvailable()).isFalse();
				assertThat(device.unavailabilityCause()).isInstanceOf(RdmaUnavailableException.class);
			});
	}

	@Test
	void missingKernelStackFailsStartupSayingWhichModulesToLoad() {
		this.fake.device("mlx5_0").add();
		this.fake.noKernelStack(true);
		this.contextRunner
			.withPropertyValues("rdma.counter-sets.vxlan.device=mlx5_0", "rdma.counter-sets.all.device=mlx5_0")
			.run((context) -> {
				FailureAnalysisAssert.of(context.getStartupFailure())
					.analyzedBy(RdmaUnavailableFailureAnalyzer.class)
					.descriptionContains("no RDMA stack", "ENOSYS")
					.actionContains("mlx5_ib", "rdma_rxe", "rdma.backend=simulated");
			});
		this.fake.assertClean();
	}

	@Test
	void missingKernelStackAllowedAtStartupKeepsTheConfiguredSetsUnavailableAndLeavesNothingOpen() {
		this.fake.device("mlx5_0").add();
		this.fake.noKernelStack(true);
		this.contextRunner
			.withPropertyValues("rdma.counter-sets.vxlan.device=mlx5_0", "rdma.counter-sets.all.device=mlx5_0",
					"rdma.fail-on-unavailable=false")
			.run((context) -> {
				ManagedDevice device = context.getBean(RdmaRegistry.class).device("mlx5_0");
				assertThat(device).isNotNull();
				assertThat(device.isAvailable()).isFalse();
				assertThat(device.unavailabilityCause()).isInstanceOf(RdmaUnavailableException.class);
				assertThat(device.counterSets()).extracting(CounterSet::name).containsExactly("vxlan", "all");
				CounterSet vxlan = context.getBean(RdmaRegistry.class).counterSet("vxlan");
				assertThat(vxlan).isNotNull();
				assertThat(context.getBean("vxlan")).as("the bean is the set's counters").isSameAs(vxlan.counters());
				CounterSetReading reading = vxlan.read();
				assertThat(reading.isSuccess()).isFalse();
				assertThat(reading.failure())
					.hasMessageContaining("Counter set 'vxlan' is unavailable: the application started without mlx5_0")
					.hasMessageContaining("ENOSYS");
				assertThat(reading.failedReads()).isEqualTo(1);
				context.close();
				device.close();
				assertThat(this.fake.liveObjects()).isZero();
				assertThat(this.fake.misuseCount()).isZero();
			});
		this.fake.assertClean();
	}

	@Test
	void providerWithoutCountersFailsStartupNamingTheSetAndLeavesNothingOpen() {
		this.fake.device("rxe0").countersSupported(false).add();
		this.contextRunner.run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(RdmaOperationFailureAnalyzer.class)
				.descriptionContains("Creating counter set 'vxlan' (rdma.counter-sets.vxlan) on rxe0 port 1",
						"ibv_create_counters", "EOPNOTSUPP (95)", "only the mlx5")
				.actionContains("Set rdma.counter-sets.vxlan.device to an mlx5 device", "or remove the set",
						"rdma.fail-on-unavailable=false");
		});
		this.fake.assertClean();
	}

	@Test
	void providerWithoutCountersServesItsPortCountersWithoutBeingOpenedWhenNoSetIsConfigured() {
		this.fake.device("irdma0").countersSupported(false).add();
		this.nativeRunner.withPropertyValues("rdma.port-counters.sysfs-root=" + SysfsFixtures.root("irdma-iwarp"))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(RdmaRegistry.class).devices()).isEmpty();
				HostPortCountersSource host = context.getBean(HostPortCountersSource.class);
				assertThat(host.snapshot().device("irdma0")).isNotNull();
				assertThat(host.device("irdma0").snapshot().port(1).state()).isEqualTo("ACTIVE");
				assertThat(this.fake.calls("ibv_get_device_list")).as("no verbs call").isZero();
				assertThat(this.fake.calls("ibv_open_device")).isZero();
			});
		this.fake.assertClean();
	}

	@Test
	void providerWithoutCountersKeepsDeviceAndPortCountersAndMakesOnlyTheSetsUnavailableWhenAllowed() {
		this.fake.device("irdma0").countersSupported(false).add();
		this.contextRunner
			.withPropertyValues("rdma.fail-on-unavailable=false",
					"rdma.port-counters.sysfs-root=" + SysfsFixtures.root("irdma-iwarp"))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ManagedDevice device = context.getBean(RdmaRegistry.class).device("irdma0");
				assertThat(device).isNotNull();
				assertThat(device.isAvailable()).isTrue();
				assertThat(device.unavailabilityCause()).isNull();
				assertThat(device.portCounters()).isNotNull();
				assertThat(device.portCounters().snapshot().port(1).state()).isEqualTo("ACTIVE");
				RdmaRegistry registry = context.getBean(RdmaRegistry.class);
				assertThat(registry.devices()).containsExactly(device);
				assertThat(registry.counterSets()).extracting(CounterSet::name).containsExactly("vxlan", "all");
				for (CounterSet set : registry.counterSets()) {
					CounterSetReading reading = set.read();
					assertThat(reading.isSuccess()).isFalse();
					assertThat(reading.failure())
						.hasMessageContaining("Counter set '" + set.name() + "' is unavailable")
						.hasMessageContaining("ibv_create_counters failed: EOPNOTSUPP (95)");
				}
				Counters vxlan = context.getBean("vxlan", Counters.class);
				assertThat(vxlan.isClosed()).isFalse();
				assertThatExceptionOfType(RdmaException.class).isThrownBy(() -> vxlan.read(ReadMode.FRESH))
					.withMessageContaining("EOPNOTSUPP");
				assertThat(device.device().queryPort(1).state()).isEqualTo(PortState.ACTIVE);
				context.close();
				assertThat(device.device().isClosed()).isTrue();
			});
		this.fake.assertClean();
	}

	@Test
	void unloadableLibraryStartsUnavailableKeepingThePortCountersFromSysfsWhenAllowed() {
		this.contextRunner.withPropertyValues("rdma.native.library=/nonexistent/libibverbs.so.1",
				"rdma.counter-sets.vxlan.device=irdma0", "rdma.counter-sets.all.device=irdma0",
				"rdma.fail-on-unavailable=false", "rdma.port-counters.sysfs-root=" + SysfsFixtures.root("irdma-iwarp"))
			.run((context) -> {
				ManagedDevice device = context.getBean(RdmaRegistry.class).device("irdma0");
				assertThat(device).isNotNull();
				assertThat(device.isAvailable()).isFalse();
				assertThat(device.unavailabilityCause()).isInstanceOf(RdmaUnavailableException.class);
				assertThat(device.portCounters()).isNotNull();
				assertThat(device.portCounters().snapshot().port(1).state()).isEqualTo("ACTIVE");
			});
	}

	@Test
	void deviceWithoutFlowSteeringFailsStartupWithFlowSteeringAnalysis() {
		this.fake.device("mlx5_0").flowSteering(false).add();
		this.contextRunner.run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(RdmaOperationFailureAnalyzer.class)
				.descriptionContains("ibv_create_flow", "EOPNOTSUPP")
				.actionContains("MANAGED_FLOW_STEERING");
		});
		this.fake.assertClean();
	}

	@Test
	void flowNotPermittedFailsStartupAskingForCapNetRaw() {
		this.fake.device("mlx5_0").add();
		this.fake.failAlways("ibv_create_flow", Errno.EPERM);
		this.contextRunner.run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(RdmaOperationFailureAnalyzer.class)
				.descriptionContains("was not permitted", "ibv_create_flow failed: EPERM (1)", "CAP_NET_RAW")
				.actionContains("cap_net_raw+ep", "NET_RAW");
		});
		this.fake.assertClean();
	}

	@Test
	void portBeyondTheDevicesPortsFailsStartupAsAnInvalidProperty() {
		this.fake.device("mlx5_0").add();
		this.contextRunner.withPropertyValues("rdma.counter-sets.vxlan.port=2", "rdma.fail-on-unavailable=false")
			.run((context) -> {
				FailureAnalysisAssert.of(context.getStartupFailure())
					.analyzedBy(InvalidRdmaConfigurationFailureAnalyzer.class)
					.descriptionContains("Property: rdma.counter-sets.vxlan.port", "Value: \"2\"",
							"must be 1 to 1: mlx5_0 has 1 port");
			});
		this.fake.assertClean();
	}

	@Test
	void runWithoutActuatorAndMicrometerOnTheClasspathStillOpensTheDevice() {
		this.fake.device("mlx5_0").add();
		this.contextRunner.withUserConfiguration(WholeStarterConfiguration.class)
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate",
					"org.springframework.boot.health", "io.micrometer"))
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.doesNotHaveBean("rdmaEndpoint")
					.doesNotHaveBean("rdmaHealthContributor")
					.doesNotHaveBean("rdmaFlowMetrics");
				assertThat(context.getBean(RdmaRegistry.class).device("mlx5_0").isAvailable()).isTrue();
				assertThat(context.getBeansOfType(Counters.class)).containsOnlyKeys("vxlan", "all");
			});
		this.fake.assertClean();
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
