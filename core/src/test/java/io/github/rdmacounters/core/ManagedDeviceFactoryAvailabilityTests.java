package io.github.rdmacounters.core;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedBackendControl;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;
import io.github.rdmacounters.testsupport.LogCapture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for what {@link ManagedDeviceFactory} makes of a device or a set it cannot
 * create: with {@code fail-on-unavailable} the failure, having closed everything created
 * so far; without it an unavailable device or set whose reads fail with the reason, the
 * rest in service. Also which port a set without one counts on, and the reopen backoff
 * the devices get.
 *
 * @author rdma-counters
 */
class ManagedDeviceFactoryAvailabilityTests {

	private static final FlowSpec TCP = FlowSpec.builder().protocol(L4Protocol.TCP).build();

	private static final FlowSpec UDP = FlowSpec.builder().protocol(L4Protocol.UDP).build();

	private final List<AutoCloseable> toClose = new ArrayList<>();

	private final LogCapture log = LogCapture.of(ManagedDeviceFactory.class);

	@AfterEach
	void closeEverything() throws Exception {
		this.log.close();
		for (int i = this.toClose.size() - 1; i >= 0; i--) {
			this.toClose.get(i).close();
		}
	}

	private static SimulatedDeviceSpec.Builder mlx5(String name) {
		return SimulatedDeviceSpec.builder().name(name);
	}

	private static SimulatedBackend backend(SimulatedDeviceSpec.Builder... devices) {
		return new SimulatedBackend(List.of(devices).stream().map(SimulatedDeviceSpec.Builder::build).toList());
	}

	private ManagedDeviceFactory factory(RdmaBackend backend, List<String> portCountersAskedFor) {
		return new ManagedDeviceFactory(backend, Duration.ZERO, Clock.systemUTC(), (name) -> {
			portCountersAskedFor.add(name);
			return new NamedPortCounters(name);
		});
	}

	private ManagedDevice create(ManagedDeviceFactory factory, DeviceDefinition plan, boolean failOnUnavailable) {
		ManagedDevice device = factory.create(plan, failOnUnavailable);
		this.toClose.add(device);
		return device;
	}

	@Test
	void aMissingDeviceFailsWhenItMust() {
		ManagedDeviceFactory factory = factory(backend(mlx5("mlx5_0")), new ArrayList<>());
		assertThatExceptionOfType(DeviceNotFoundException.class)
			.isThrownBy(() -> factory.create(DeviceDefinition.of("mlx5_9", CounterSetDefinition.of("web", TCP)), true));
	}

	@Test
	void aMissingDeviceIsUnavailableWithItsSetsAndPortCountersWhenItMayBe() {
		List<String> asked = new ArrayList<>();
		ManagedDeviceFactory factory = factory(backend(mlx5("mlx5_0")), asked);
		ManagedDevice device = create(factory, DeviceDefinition.of("mlx5_9", CounterSetDefinition.of("web", TCP),
				CounterSetDefinition.of("db", 2, UDP)), false);
		assertThat(device.isAvailable()).isFalse();
		assertThat(device.name()).isEqualTo("mlx5_9");
		assertThat(device.backend()).isEqualTo("simulated");
		assertThat(device.unavailabilityCause()).isInstanceOf(DeviceNotFoundException.class);
		assertThat(device.portCounters()).isEqualTo(new NamedPortCounters("mlx5_9"));
		assertThat(asked).containsExactly("mlx5_9");
		assertThat(device.counterSets()).extracting(CounterSet::name).containsExactly("web", "db");
		assertThat(device.counterSets()).extracting(CounterSet::port)
			.as("the configured port, else 1")
			.containsExactly(1, 2);
		assertThat(device.counterSets()).allSatisfy((set) -> {
			assertThat(set.deviceName()).isEqualTo("mlx5_9");
			CounterSetReading reading = set.read();
			assertThat(reading.isSuccess()).isFalse();
			assertThat(reading.failure()).hasMessageStartingWith(
					"Counter set '" + set.name() + "' is unavailable: the application started without mlx5_9 (");
		});
		assertThat(this.log.messages(Level.WARNING)).singleElement()
			.asString()
			.startsWith("Starting without the RDMA device mlx5_9 (fail-on-unavailable=false): ");
	}

	@Test
	void portCountersThatCannotBeReadLeaveAnUnavailableDeviceWithout() {
		ManagedDeviceFactory factory = new ManagedDeviceFactory(backend(mlx5("mlx5_0")), Duration.ZERO,
				Clock.systemUTC(), (name) -> {
					throw new IllegalStateException("no sysfs for " + name);
				});
		ManagedDevice device = create(factory, DeviceDefinition.of("mlx5_9"), false);
		assertThat(device.isAvailable()).isFalse();
		assertThat(device.portCounters()).isNull();
	}

	@Test
	void noDeviceAtAllIsAnUnavailableAnyDeviceWithoutPortCountersWhenItMayBe() {
		List<String> asked = new ArrayList<>();
		ManagedDeviceFactory factory = factory(backend(), asked);
		ManagedDevice device = create(factory, DeviceDefinition.of(null, CounterSetDefinition.of("web", TCP)), false);
		assertThat(device.isAvailable()).isFalse();
		assertThat(device.name()).isEqualTo(ManagedDeviceFactory.ANY_DEVICE);
		assertThat(device.unavailabilityCause()).isInstanceOf(NoUniqueRdmaDeviceException.class);
		assertThat(device.portCounters()).isNull();
		assertThat(asked).isEmpty();
		assertThat(device.counterSets()).singleElement()
			.satisfies((set) -> assertThat(set.read().failure())
				.hasMessageContaining("the application started without (any)"));
		assertThat(this.log.messages(Level.WARNING)).singleElement()
			.asString()
			.startsWith("Starting without the RDMA device (fail-on-unavailable=false): ");
		assertThatExceptionOfType(NoUniqueRdmaDeviceException.class)
			.isThrownBy(() -> factory.create(DeviceDefinition.of(null, CounterSetDefinition.of("web", TCP)), true))
			.withMessage("device.counter-sets.web names no device and the simulated backend finds no RDMA device "
					+ "with flow counters");
	}

	@Test
	void aPlanWithoutSetsOrDeviceNamesThePrefixWhenNoDeviceIsFound() {
		ManagedDeviceFactory factory = factory(backend(mlx5("mlx5_0"), mlx5("mlx5_1")), new ArrayList<>());
		assertThatExceptionOfType(NoUniqueRdmaDeviceException.class)
			.isThrownBy(() -> factory.create(new DeviceDefinition(null, List.of(), "acme.rdma"), false))
			.withMessageStartingWith("acme.rdma names no device");
	}

	@Test
	void severalDevicesWithFlowCountersFailEvenWhenTheDeviceMayBeUnavailable() {
		ManagedDeviceFactory factory = factory(backend(mlx5("mlx5_0"), mlx5("mlx5_1")), new ArrayList<>());
		assertThatExceptionOfType(NoUniqueRdmaDeviceException.class)
			.isThrownBy(() -> factory.create(DeviceDefinition.of(null, CounterSetDefinition.of("web", TCP)), false))
			.satisfies((ex) -> assertThat(ex.devices()).containsExactly("mlx5_0", "mlx5_1"));
	}

	@Test
	void aDeviceWithoutManagedFlowSteeringDoesNotCountFlowsAndTheProbesLeaveNothingOpen() {
		SimulatedBackend backend = backend(mlx5("mlx5_0").managedFlowSteering(false), mlx5("mlx5_1"));
		ManagedDeviceFactory factory = factory(backend, new ArrayList<>());
		assertThat(factory.onlyFlowCapableDevice("rdma.counter-sets.web")).isEqualTo("mlx5_1");
		assertThat(SimulatedBackendControl.of(backend).liveObjectDescriptions()).isEmpty();
		assertThat(SimulatedBackendControl.of(backend).verbCalls()).as("mlx5_0 is not asked for counters")
			.containsOnlyOnce("ibv_create_counters");
	}

	@Test
	void aLibraryThatCannotBeLoadedIsAnUnavailableReasonNamingTheBackend() {
		RdmaBackend unloadable = new ScriptedBackend("mlx5_0") {

			@Override
			public List<DeviceId> devices() {
				throw new UnsatisfiedLinkError("libibverbs.so.1: cannot open shared object file");
			}

			@Override
			public RdmaDevice open(String deviceName) {
				throw new UnsatisfiedLinkError("libibverbs.so.1: cannot open shared object file");
			}

		};
		ManagedDeviceFactory factory = factory(unloadable, new ArrayList<>());
		assertThatExceptionOfType(RdmaUnavailableException.class)
			.isThrownBy(() -> factory.create(DeviceDefinition.of("mlx5_0"), true))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(RdmaUnavailableException.Reason.LIBRARY_NOT_LOADABLE))
			.withMessage("The scripted backend could not load its library: java.lang.UnsatisfiedLinkError: "
					+ "libibverbs.so.1: cannot open shared object file")
			.withCauseInstanceOf(UnsatisfiedLinkError.class);
		ManagedDevice device = create(factory, DeviceDefinition.of("mlx5_0"), false);
		assertThat(device.isAvailable()).isFalse();
		assertThat(device.name()).isEqualTo("mlx5_0");
		assertThat(device.unavailabilityCause()).isInstanceOf(RdmaUnavailableException.class);
		ManagedDevice any = create(factory, DeviceDefinition.of(null), false);
		assertThat(any.name()).isEqualTo(ManagedDeviceFactory.ANY_DEVICE);
	}

	@Test
	void aSetThatCannotBeCreatedFailsAndClosesWhatWasCreatedWhenItMust() {
		SimulatedBackend backend = backend(mlx5("mlx5_0"));
		SimulatedBackendControl control = SimulatedBackendControl.of(backend);
		ManagedDeviceFactory factory = factory(backend, new ArrayList<>());
		control.failAlways("ibv_create_flow", Errno.EPERM);
		assertThatExceptionOfType(CounterSetCreationException.class).isThrownBy(() -> factory.create(DeviceDefinition
			.of("mlx5_0", CounterSetDefinition.of("web", 1, TCP), CounterSetDefinition.of("db", 1, UDP)), true))
			.satisfies((ex) -> {
				assertThat(ex.setName()).isEqualTo("web");
				assertThat(ex.deviceName()).isEqualTo("mlx5_0");
				assertThat(ex.port()).isEqualTo(1);
			});
		assertThat(control.liveObjectDescriptions()).as("nothing left open").isEmpty();
	}

	@Test
	void aSetThatCannotBeCreatedIsUnavailableAndTheOthersCountWhenItMayBe() {
		SimulatedBackend backend = backend(mlx5("mlx5_0"));
		SimulatedBackendControl control = SimulatedBackendControl.of(backend);
		ManagedDeviceFactory factory = factory(backend, new ArrayList<>());
		control.failNext("ibv_create_flow", Errno.EPERM);
		ManagedDevice device = create(factory, DeviceDefinition.of("mlx5_0", CounterSetDefinition.of("web", 1, TCP),
				CounterSetDefinition.of("db", 1, UDP)), false);
		assertThat(device.isAvailable()).isTrue();
		assertThat(device.portCounters()).isEqualTo(new NamedPortCounters("mlx5_0"));
		CounterSet web = device.counterSets().get(0);
		CounterSet db = device.counterSets().get(1);
		assertThat(web.counters()).isInstanceOf(UnavailableCounters.class);
		assertThat(web.deviceName()).isEqualTo("mlx5_0");
		assertThat(web.port()).isEqualTo(1);
		assertThat(web.read().failure()).hasMessageStartingWith(
				"Counter set 'web' is unavailable: Counter set 'web' could not be created on mlx5_0 port 1: ");
		assertThat(db.read().isSuccess()).isTrue();
		assertThat(this.log.messages(Level.WARNING)).singleElement()
			.asString()
			.startsWith("Starting without RDMA counter set 'web' (fail-on-unavailable=false): ");
	}

	@Test
	void aSetFailingForAReasonOtherThanTheDeviceMakesTheDeviceUnavailableWhenItMayBe() {
		ScriptedBackend backend = new ScriptedBackend("mlx5_0");
		ScriptedBackend.EventfulDevice context = backend.present();
		context.scripted().beforeCreateFlow(() -> {
			throw new IllegalStateException("a bug");
		});
		ManagedDeviceFactory factory = factory(backend, new ArrayList<>());
		ManagedDevice device = create(factory, DeviceDefinition.of("mlx5_0", CounterSetDefinition.of("web", 1, TCP),
				CounterSetDefinition.of("db", 1, UDP)), false);
		assertThat(device.isAvailable()).isFalse();
		assertThat(device.unavailabilityCause()).isInstanceOf(CounterSetCreationException.class)
			.hasMessage("Counter set 'web' could not be created on mlx5_0 port 1: a bug")
			.hasCauseInstanceOf(IllegalStateException.class);
		assertThat(device.counterSets()).extracting(CounterSet::name).containsExactly("web", "db");
		assertThat(context.isClosed()).isTrue();
		assertThat(context.scripted().counters()).singleElement()
			.satisfies((counters) -> assertThat(counters.isClosed()).isTrue());
	}

	@Test
	void aFailureToCloseWhileCleaningUpIsAddedToTheFailure() {
		ScriptedBackend backend = new ScriptedBackend("mlx5_0");
		ScriptedBackend.EventfulDevice context = backend.present();
		RuntimeException closeFailure = new IllegalStateException("close failed");
		context.failClose(closeFailure);
		ManagedDeviceFactory factory = factory(backend, new ArrayList<>());
		assertThatExceptionOfType(InvalidRdmaConfigurationException.class)
			.isThrownBy(() -> factory.create(DeviceDefinition.of("mlx5_0", CounterSetDefinition.of("web", 1, TCP),
					CounterSetDefinition.of("db", 2, UDP)), false))
			.satisfies((ex) -> assertThat(ex.getSuppressed()).contains(closeFailure))
			.withMessageContaining("must be 1 to 1: mlx5_0 has 1 port");
		assertThat(context.scripted().counters()).singleElement()
			.satisfies((counters) -> assertThat(counters.isClosed()).isTrue());
	}

	@Test
	void setsWithoutAPortCountOnTheFirstActivePortAskedOnce() {
		SimulatedBackend backend = backend(mlx5("mlx5_0").portCount(3)
			.portState(1, PortState.DOWN)
			.portState(2, PortState.ACTIVE_DEFER)
			.portState(3, PortState.ACTIVE));
		SimulatedBackendControl control = SimulatedBackendControl.of(backend);
		ManagedDeviceFactory factory = factory(backend, new ArrayList<>());
		ManagedDevice device = create(factory, DeviceDefinition.of("mlx5_0", CounterSetDefinition.of("web", TCP),
				CounterSetDefinition.of("db", UDP), CounterSetDefinition.of("third", 3, TCP)), true);
		assertThat(device.counterSets()).extracting(CounterSet::port).containsExactly(2, 2, 3);
		assertThat(control.verbCalls().stream().filter("ibv_query_port"::equals)).as("ports 1 and 2, once").hasSize(2);
	}

	@Test
	void setsWithoutAPortCountOnTheLastPortWhenOnlyItIsActive() {
		SimulatedBackend backend = backend(
				mlx5("mlx5_0").portCount(2).portState(1, PortState.DOWN).portState(2, PortState.ACTIVE));
		ManagedDevice device = create(factory(backend, new ArrayList<>()),
				DeviceDefinition.of("mlx5_0", CounterSetDefinition.of("web", TCP)), true);
		assertThat(device.counterSets()).extracting(CounterSet::port).containsExactly(2);
	}

	@Test
	void setsWithoutAPortCountOnPort1WhenNoPortIsActive() {
		SimulatedBackend backend = backend(
				mlx5("mlx5_0").portCount(2).portState(1, PortState.DOWN).portState(2, PortState.INIT));
		ManagedDevice device = create(factory(backend, new ArrayList<>()),
				DeviceDefinition.of("mlx5_0", CounterSetDefinition.of("web", TCP)), true);
		assertThat(device.counterSets()).extracting(CounterSet::port).containsExactly(1);
	}

	@Test
	void theDevicesAreReopenedWithTheBackoffGivenOrTheDefault() {
		SimulatedBackend backend = backend(mlx5("mlx5_0"));
		ManagedDeviceFactory factory = factory(backend, new ArrayList<>());
		SupervisedDevice byDefault = (SupervisedDevice) create(factory, DeviceDefinition.of("mlx5_0"), true).device();
		assertThat(byDefault.initialBackoff()).isEqualTo(Duration.ofMillis(100))
			.isEqualTo(ManagedDeviceFactory.DEFAULT_REOPEN_INITIAL_BACKOFF);
		assertThat(byDefault.maxBackoff()).isEqualTo(Duration.ofSeconds(30))
			.isEqualTo(ManagedDeviceFactory.DEFAULT_REOPEN_MAX_BACKOFF);
		assertThat(factory.reopenBackoff(Duration.ofMillis(7), Duration.ofSeconds(9))).isSameAs(factory);
		SupervisedDevice configured = (SupervisedDevice) create(factory, DeviceDefinition.of("mlx5_0"), true).device();
		assertThat(configured.initialBackoff()).isEqualTo(Duration.ofMillis(7));
		assertThat(configured.maxBackoff()).isEqualTo(Duration.ofSeconds(9));
	}

	@Test
	void ofReadsPortCountersWhereTheBackendFindsThemUnderSysClassInfiniband() {
		List<String> asked = new ArrayList<>();
		ScriptedBackend backend = new ScriptedBackend("mlx5_0") {

			@Override
			public PortCountersSource portCounters(String deviceName, Path sysfsRoot, Duration readCacheTtl) {
				asked.add(deviceName + " " + sysfsRoot + " " + readCacheTtl);
				return new NamedPortCounters(deviceName);
			}

		};
		backend.present();
		ManagedDevice device = create(ManagedDeviceFactory.of(backend, Duration.ofSeconds(2)),
				DeviceDefinition.of("mlx5_0"), true);
		assertThat(device.portCounters()).isEqualTo(new NamedPortCounters("mlx5_0"));
		assertThat(asked).containsExactly("mlx5_0 /sys/class/infiniband PT2S");
		assertThat(ManagedDeviceFactory.DEFAULT_SYSFS_ROOT).isEqualTo("/sys/class/infiniband");
	}

	/** A port counters source that only tells which device it is for. */
	private record NamedPortCounters(String deviceName) implements PortCountersSource {

		@Override
		public PortCountersSnapshot snapshot() {
			throw new UnsupportedOperationException();
		}

	}

}
