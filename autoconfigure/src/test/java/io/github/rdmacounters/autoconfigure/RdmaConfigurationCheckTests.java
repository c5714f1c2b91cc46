package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.mock.env.MockEnvironment;

import io.github.rdmacounters.autoconfigure.simulated.RdmaSimulatedTrafficAutoConfiguration;
import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterSetReading;
import io.github.rdmacounters.core.CounterSetTarget;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;
import io.github.rdmacounters.simulated.SyntheticTraffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the checks of the {@code rdma} configuration at startup (unknown keys outside
 * counter sets, a missing default sysfs root, the plan the devices are opened from), for
 * {@code rdma.enabled} and for the synthetic traffic of the simulated backend.
 *
 * @author rdma-counters
 */
@ExtendWith(OutputCaptureExtension.class)
class RdmaConfigurationCheckTests {

	private static final Duration TRAFFIC_TIMEOUT = Duration.ofSeconds(5);

	private final ApplicationContextRunner simulatedRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(RdmaAutoConfiguration.class, RdmaSimulatedTrafficAutoConfiguration.class))
		.withPropertyValues("rdma.backend=simulated", "rdma.counter-sets.nvme-tcp.flow.protocol=tcp",
				"rdma.counter-sets.nvme-tcp.flow.destination-port=4420");

	@Test
	void unknownKeysOutsideCounterSetsFailStartupThroughBootsAnalysisNamingEachKey() {
		this.simulatedRunner.withPropertyValues("rdma.devcie=mlx5_0", "rdma.read-cache-tll=2s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(UnboundConfigurationPropertiesException.class);
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(UnboundRdmaPropertyFailureAnalyzer.class)
				.descriptionContains("rdma.devcie", "rdma.read-cache-tll", "is not a key of rdma",
						"did you mean rdma.read-cache-ttl?");
		});
	}

	@Test
	void knownKeysOfEveryGroupStart() {
		this.simulatedRunner
			.withPropertyValues("rdma.read-cache-ttl=2s", "rdma.port-counters.include=port_*",
					"rdma.devices.sim_mlx5_0.fail-on-unavailable=true", "rdma.events.reopen-backoff.max=10s",
					"rdma.simulated.traffic.sets.nvme-tcp.packet-size=100")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void keysOfTheStartersOtherPropertyGroupsStartWhenTheirAutoConfigurationIsOff() {
		this.simulatedRunner
			.withPropertyValues("rdma.ui.enabled=false", "rdma.events.port-down-readiness=refuse-traffic",
					"rdma.ui.path=/rdma-live", "rdma.simulated.devices.sim_mlx5_0.ports=2")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void devicesAreOpenedFromThePlanMadeWhenThePropertiesWereChecked() {
		this.simulatedRunner
			.withPropertyValues("rdma.simulated.devices.sim_mlx5_0.ports=1",
					"rdma.simulated.devices.sim_mlx5_1.ports=2", "rdma.counter-sets.https.device=sim_mlx5_1",
					"rdma.counter-sets.https.port=2", "rdma.counter-sets.https.flow.protocol=tcp",
					"rdma.counter-sets.nvme-tcp.device=sim_mlx5_0")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				List<CounterSetTarget> plan = context.getBean(RdmaPropertiesChecks.CounterSetPlan.class).sets();
				assertThat(plan).extracting((set) -> set.definition().name(), CounterSetTarget::device)
					.containsExactly(tuple("nvme-tcp", "sim_mlx5_0"), tuple("https", "sim_mlx5_1"));
				assertThat(context.getBean(RdmaRegistry.class).counterSets())
					.extracting(CounterSet::name, CounterSet::deviceName, CounterSet::port)
					.containsExactlyInAnyOrder(tuple("nvme-tcp", "sim_mlx5_0", 1), tuple("https", "sim_mlx5_1", 2));
			});
	}

	@Test
	void propertiesAreCheckedAndWarnedAboutOnceAlsoWhenNoBeanNeedsTheSets(CapturedOutput output) {
		ApplicationContextRunner own = this.simulatedRunner
			.withBean(RdmaRegistry.class, () -> new RdmaRegistry(List.of()))
			.withBean(ManagedDevices.class, () -> new ManagedDevices(List.of()));
		own.withPropertyValues("rdma.read-deadline=1ms").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("rdma.read-deadline");
		});
		own.withPropertyValues("rdma.counter-sets.roce.flow.protocol=udp",
				"rdma.counter-sets.roce.flow.destination-port=4791")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output.getOut().split("with udp is RoCEv2", -1)).hasSize(2);
			});
		own.withPropertyValues("rdma.counter-sets.rocev1.flow.ether-type=35093").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output.getOut().split("rdma.counter-sets.rocev1.flow.ether-type=35093 is RoCEv1", -1))
				.hasSize(2);
		});
		own.withPropertyValues("rdma.counter-sets.arp.flow.ether-type=0x0806").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output.getOut()).doesNotContain("ether-type=0x0806");
		});
	}

	@Test
	void missingDefaultSysfsRootOnTheNativeBackendIsLoggedAndNotAFailure(CapturedOutput output) {
		// bound from one environment, checked in another where the root is not written
		RdmaProperties properties = Binder
			.get(new MockEnvironment().withProperty("rdma.port-counters.sysfs-root",
					"/nonexistent/sys/class/infiniband"))
			.bindOrCreate(RdmaProperties.PREFIX, RdmaProperties.class);
		assertThat(new RdmaPropertiesChecks(new MockEnvironment()).check(properties)).isEmpty();
		assertThat(output).contains("No RDMA devices on this host: /nonexistent/sys/class/infiniband does not exist")
			.contains("Next: load the RDMA modules");
	}

	@Test
	void emptyDefaultSysfsRootOnTheNativeBackendIsLoggedAsHoldingNoDevice(@TempDir Path temp, CapturedOutput output)
			throws IOException {
		// a host with ib_core and ib_uverbs loaded and no RDMA device: an empty
		// class/infiniband
		Path root = Files.createDirectories(temp.resolve("sys/class/infiniband"));
		Files.createDirectories(temp.resolve("sys/class/infiniband_verbs"));
		RdmaProperties properties = Binder
			.get(new MockEnvironment().withProperty("rdma.port-counters.sysfs-root", root.toString()))
			.bindOrCreate(RdmaProperties.PREFIX, RdmaProperties.class);
		assertThat(new RdmaPropertiesChecks(new MockEnvironment()).check(properties)).isEmpty();
		assertThat(output).contains("No RDMA devices on this host: " + root + " exists but holds no device")
			.contains("--device /dev/infiniband")
			.doesNotContain("does not exist");
	}

	@Test
	void enabledFalseCreatesNoBeansAndEnabledMaybeFailsNamingTheProperty() {
		this.simulatedRunner.withPropertyValues("rdma.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(RdmaRegistry.class)
				.doesNotHaveBean(ManagedDevices.class)
				.doesNotHaveBean(Counters.class));
		this.simulatedRunner.withPropertyValues("rdma.enabled=maybe").run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(InvalidRdmaPropertyValueFailureAnalyzer.class)
				.descriptionContains("Invalid value 'maybe' for configuration property 'rdma.enabled'",
						"must be true or false");
		});
	}

	@Test
	void syntheticTrafficIsOffByDefault() {
		this.simulatedRunner.run((context) -> assertThat(context).doesNotHaveBean(SyntheticTraffic.class));
	}

	@Test
	void syntheticTrafficRunsOnTheApplicationsOwnBackendAndRegistryWithTheStarterOff() {
		SimulatedBackend backend = new SimulatedBackend(List.of(SimulatedDeviceSpec.builder().name("mlx5_0").build()));
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(RdmaSimulatedTrafficAutoConfiguration.class))
			.withBean(SimulatedBackend.class, () -> backend)
			.withBean(RdmaRegistry.class, () -> new RdmaRegistry(List.of()))
			.withPropertyValues("rdma.enabled=false", "rdma.simulated.traffic.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(SyntheticTraffic.class));
	}

	@Test
	void syntheticTrafficMovesEachSetAtItsRateAndStopsWithTheContext() {
		this.simulatedRunner
			.withPropertyValues("rdma.simulated.traffic.enabled=true", "rdma.simulated.traffic.interval=10ms",
					"rdma.counter-sets.quiet.flow.protocol=udp",
					"rdma.simulated.traffic.sets.quiet.packets-per-second=0",
					"rdma.simulated.traffic.sets.nvme-tcp.packet-size=100", "rdma.read-cache-ttl=100ms")
			.run((context) -> {
				SyntheticTraffic traffic = context.getBean(SyntheticTraffic.class);
				assertThat(traffic.streams()).extracting(SyntheticTraffic.Stream::name)
					.containsExactly("nvme-tcp", "quiet");
				assertThat(traffic.streams().get(0).packetSize()).isEqualTo(100);
				assertThat(traffic.streams().get(1).packetsPerSecond()).isZero();
				RdmaRegistry registry = context.getBean(RdmaRegistry.class);
				CounterSet nvmeTcp = registry.counterSet("nvme-tcp");
				await().atMost(TRAFFIC_TIMEOUT)
					.untilAsserted(() -> assertThat(nvmeTcp.read().value(CounterType.PACKETS)).isPositive());
				assertThat(registry.counterSet("quiet").read().value(CounterType.PACKETS)).isZero();
				assertThat(traffic.isClosed()).isFalse();
				context.close();
				assertThat(traffic.isClosed()).isTrue();
			});
	}

	@Test
	void syntheticTrafficMovesTheSetsOfEveryDeviceOnTheirOwnPortsAndThePortCountersOfADeviceWithoutSets() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(RdmaAutoConfiguration.class, RdmaSimulatedTrafficAutoConfiguration.class))
			.withPropertyValues("rdma.backend=simulated", "rdma.read-cache-ttl=100ms",
					"rdma.simulated.devices.sim_mlx5_0.ports=1", "rdma.simulated.devices.sim_mlx5_1.ports=2",
					"rdma.simulated.devices.sim_mlx5_2.ports=1", "rdma.simulated.traffic.enabled=true",
					"rdma.simulated.traffic.interval=10ms", "rdma.simulated.traffic.sets.storage.packet-size=200",
					"rdma.counter-sets.storage.device=sim_mlx5_0", "rdma.counter-sets.storage.flow.protocol=tcp",
					"rdma.counter-sets.storage.flow.destination-port=4420",
					"rdma.counter-sets.replica.device=sim_mlx5_1", "rdma.counter-sets.replica.port=2",
					"rdma.counter-sets.replica.flow.protocol=tcp",
					"rdma.counter-sets.replica.flow.destination-port=4420", "rdma.counter-sets.https.device=sim_mlx5_1",
					"rdma.counter-sets.https.port=2", "rdma.counter-sets.https.flow.protocol=tcp",
					"rdma.counter-sets.https.flow.destination-port=443")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				SyntheticTraffic traffic = context.getBean(SyntheticTraffic.class);
				assertThat(traffic.streams())
					.extracting(SyntheticTraffic.Stream::device, SyntheticTraffic.Stream::name,
							SyntheticTraffic.Stream::port, SyntheticTraffic.Stream::packetSize)
					.containsExactly(tuple("sim_mlx5_0", "storage", 1, 200), tuple("sim_mlx5_1", "replica", 2, 1024),
							tuple("sim_mlx5_1", "https", 2, 1024), tuple("sim_mlx5_2", "port", 1, 1024));
				RdmaRegistry registry = context.getBean(RdmaRegistry.class);
				List<CounterSet> sets = registry.counterSets();
				assertThat(sets).hasSize(3);
				await().atMost(TRAFFIC_TIMEOUT)
					.until(() -> sets.stream().allMatch((set) -> set.read().value(CounterType.BYTES) > 0));
				for (CounterSet set : sets) {
					// one reading: the traffic goes on between two reads
					CounterSetReading reading = set.read();
					long packets = reading.value(CounterType.PACKETS);
					assertThat(packets).as("%s on %s port %d", set.name(), set.deviceName(), set.port()).isPositive();
					long size = set.name().equals("storage") ? 200 : 1024;
					assertThat(reading.value(CounterType.BYTES)).as("bytes of %s", set.name())
						.isEqualTo(packets * size);
				}
				context.close();
				assertThat(traffic.isClosed()).isTrue();
			});
	}

}
