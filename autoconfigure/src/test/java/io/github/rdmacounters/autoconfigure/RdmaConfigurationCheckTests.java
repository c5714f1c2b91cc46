package io.github.rdmacounters.autoconfigure;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.mock.env.MockEnvironment;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterSetReading;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;
import io.github.rdmacounters.simulated.SyntheticTraffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Tests for the checks of the {@code rdma} configuration that are not failures (unknown
 * keys outside counter sets, a missing default sysfs root), for {@code rdma.enabled} and
 * for the synthetic traffic of the simulated backend.
 *
 * @author rdma-counters
 */
@ExtendWith(OutputCaptureExtension.class)
class RdmaConfigurationCheckTests {

	private final ApplicationContextRunner simulatedRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(RdmaAutoConfiguration.class, RdmaSimulatedTrafficAutoConfiguration.class))
		.withPropertyValues("rdma.backend=simulated", "rdma.counter-sets.nvme-tcp.flow.protocol=tcp",
				"rdma.counter-sets.nvme-tcp.flow.destination-port=4420");

	@Test
	void unknownKeysOutsideCounterSetsAreWarnedWithTheClosestProperty(CapturedOutput output) {
		this.simulatedRunner.withPropertyValues("rdma.devcie=mlx5_0", "rdma.read-cache-tll=2s").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).contains("Unknown property rdma.devcie is ignored; did you mean rdma.device?",
					"Unknown property rdma.read-cache-tll is ignored; did you mean rdma.read-cache-ttl?");
		});
	}

	@Test
	void knownKeysAreNotWarned(CapturedOutput output) {
		this.simulatedRunner.withPropertyValues("rdma.read-cache-ttl=2s", "rdma.port-counters.include=port_*")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).doesNotContain("Unknown property");
			});
	}

	@Test
	void keysOfTheStartersOtherPropertyGroupsAreNotWarnedWhenTheirAutoConfigurationIsOff(CapturedOutput output) {
		this.simulatedRunner
			.withPropertyValues("rdma.ui.enabled=false", "rdma.events.port-down-readiness=refuse-traffic",
					"rdma.ui.path=/rdma-live", "rdma.simulated.devices.sim_mlx5_1.ports=2")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).doesNotContain("Unknown property");
			});
	}

	@Test
	void thePlanMadeWhenThePropertiesWereCheckedIsTheOneTheDevicesAreOpenedFrom() {
		RdmaPropertiesChecks checks = new RdmaPropertiesChecks(new MockEnvironment());
		RdmaProperties bound = new RdmaProperties();
		bound.getDevices().put("mlx5_0", new RdmaProperties.Device());
		checks.postProcessAfterInitialization(bound, "rdma-properties");
		RdmaPropertiesValidator.Plan plan = checks.plan(bound);
		assertThat(plan.devices()).extracting((device) -> device.definition().device()).containsExactly("mlx5_0");
		assertThat(checks.plan(bound)).isSameAs(plan);
		RdmaProperties other = new RdmaProperties();
		other.getDevices().put("mlx5_1", new RdmaProperties.Device());
		assertThat(checks.plan(other).devices()).extracting((device) -> device.definition().device())
			.containsExactly("mlx5_1");
	}

	@Test
	void missingDefaultSysfsRootOnTheNativeBackendIsWarnedNamingTheProperty(CapturedOutput output) {
		assertThat(RdmaPropertiesChecks.knownProperties()).contains("rdma.port-counters.sysfs-root");
		RdmaProperties properties = new RdmaProperties();
		properties.getPortCounters().setSysfsRoot("/nonexistent/sys/class/infiniband");
		RdmaPropertiesValidator.warn(properties);
		assertThat(output).contains("rdma.port-counters.sysfs-root /nonexistent/sys/class/infiniband does not exist",
				"set rdma.port-counters.enabled=false");
	}

	@Test
	void enabledFalseCreatesNoBeansAndEnabledMaybeFailsNamingTheProperty() {
		this.simulatedRunner.withPropertyValues("rdma.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ManagedDevice.class));
		this.simulatedRunner.withPropertyValues("rdma.enabled=maybe").run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy("InvalidConfigurationPropertyValueFailureAnalyzer")
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
				CounterSet nvmeTcp = context.getBean(RdmaRegistry.class).counterSet("nvme-tcp");
				long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
				while (nvmeTcp.read().value(CounterType.PACKETS) == 0 && System.nanoTime() < deadline) {
					Thread.sleep(50);
				}
				assertThat(nvmeTcp.read().value(CounterType.PACKETS)).isPositive();
				assertThat(context.getBean(RdmaRegistry.class).counterSet("quiet").read().value(CounterType.PACKETS))
					.isZero();
				context.close();
				assertThat(traffic.isClosed()).isTrue();
			});
	}

	@Test
	void syntheticTrafficMovesTheSetsOfEveryDeviceOnTheirOwnPorts() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(RdmaAutoConfiguration.class, RdmaSimulatedTrafficAutoConfiguration.class))
			.withPropertyValues("rdma.backend=simulated", "rdma.read-cache-ttl=100ms",
					"rdma.simulated.devices.sim_mlx5_0.ports=1", "rdma.simulated.devices.sim_mlx5_1.ports=2",
					"rdma.simulated.devices.sim_mlx5_2.ports=1", "rdma.simulated.traffic.enabled=true",
					"rdma.simulated.traffic.interval=10ms", "rdma.simulated.traffic.sets.storage.packet-size=200",
					"rdma.devices.sim_mlx5_0.counter-sets.storage.flow.protocol=tcp",
					"rdma.devices.sim_mlx5_0.counter-sets.storage.flow.destination-port=4420",
					"rdma.devices.sim_mlx5_1.port=2", "rdma.devices.sim_mlx5_1.counter-sets.storage.flow.protocol=tcp",
					"rdma.devices.sim_mlx5_1.counter-sets.storage.flow.destination-port=4420",
					"rdma.devices.sim_mlx5_1.counter-sets.https.flow.protocol=tcp",
					"rdma.devices.sim_mlx5_1.counter-sets.https.flow.destination-port=443",
					"rdma.devices.sim_mlx5_2.port=1")
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(ManagedDevice.class);
				SyntheticTraffic traffic = context.getBean(SyntheticTraffic.class);
				assertThat(traffic.streams())
					.extracting(SyntheticTraffic.Stream::device, SyntheticTraffic.Stream::name,
							SyntheticTraffic.Stream::port, SyntheticTraffic.Stream::packetSize)
					.containsExactly(tuple("sim_mlx5_0", "storage", 1, 200), tuple("sim_mlx5_1", "storage", 2, 200),
							tuple("sim_mlx5_1", "https", 2, 1024), tuple("sim_mlx5_2", "port", 1, 1024));
				RdmaRegistry registry = context.getBean(RdmaRegistry.class);
				List<CounterSet> sets = registry.counterSets();
				assertThat(sets).hasSize(3);
				long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
				while (sets.stream().anyMatch((set) -> set.read().value(CounterType.BYTES) == 0)
						&& System.nanoTime() < deadline) {
					Thread.sleep(50);
				}
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
