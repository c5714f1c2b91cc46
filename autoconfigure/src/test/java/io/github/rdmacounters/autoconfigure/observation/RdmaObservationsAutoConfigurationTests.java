package io.github.rdmacounters.autoconfigure.observation;

import java.net.InetAddress;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.rdmacounters.autoconfigure.FailureAnalysisAssert;
import io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration;
import io.github.rdmacounters.autoconfigure.netlink.RdmaQueuePairsAutoConfiguration;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.netlink.FakeNldev;
import io.github.rdmacounters.netlink.NldevClient;
import io.github.rdmacounters.observation.CounterDeltaObservationHandler;
import io.github.rdmacounters.observation.PortCounterDeltaObservationHandler;
import io.github.rdmacounters.observation.QueuePairCounterDeltaObservationHandler;
import io.github.rdmacounters.simulated.RoceOperation;
import io.github.rdmacounters.simulated.SimulatedBackend;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RdmaObservationsAutoConfiguration}.
 *
 * @author rdma-counters
 */
@ExtendWith(OutputCaptureExtension.class)
class RdmaObservationsAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
						SimpleMetricsExportAutoConfiguration.class, ObservationAutoConfiguration.class,
						RdmaAutoConfiguration.class, RdmaObservationsAutoConfiguration.class))
		.withPropertyValues("rdma.backend=simulated", "rdma.counter-sets.nvme.flow.protocol=tcp",
				"rdma.counter-sets.nvme.flow.destination-port=4420", "rdma.counter-sets.vxlan.flow.protocol=udp",
				"rdma.counter-sets.vxlan.flow.destination-port=4789");

	@Test
	void runByDefaultShouldCreateNoHandler() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(CounterDeltaObservationHandler.class);
		});
	}

	@Test
	void runWhenEnabledShouldRegisterTheHandlerWithBootsObservationRegistryAndRecordTheDeltas() {
		this.contextRunner
			.withPropertyValues("rdma.observations.enabled=true", "rdma.observations.names=checkpoint",
					"rdma.observations.sets=nvme")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				CounterDeltaObservationHandler handler = context.getBean(CounterDeltaObservationHandler.class);
				assertThat(handler.observationNames()).containsExactly("checkpoint");
				assertThat(handler.sets()).extracting("name").containsExactly("nvme");
				SimulatedBackend backend = context.getBean(SimulatedBackend.class);
				InetAddress client = InetAddress.getByName("192.0.2.10");
				InetAddress server = InetAddress.getByName("192.0.2.20");
				ObservationRegistry observations = context.getBean(ObservationRegistry.class);
				Observation.createNotStarted("checkpoint", observations).observe(() -> {
					for (int i = 0; i < 4; i++) {
						backend.deliver("sim_mlx5_0", 1, Packet.tcp(client, 40000, server, 4420, 1000));
					}
				});
				Observation.createNotStarted("other", observations)
					.observe(() -> backend.deliver("sim_mlx5_0", 1, Packet.tcp(client, 40000, server, 4420, 1000)));
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				DistributionSummary packets = meters.get(CounterDeltaObservationHandler.PACKETS)
					.tags("observation", "checkpoint", "set", "nvme", "overlapped", "false")
					.summary();
				assertThat(packets.count()).isOne();
				assertThat(packets.totalAmount()).isEqualTo(4);
				assertThat(meters.get(CounterDeltaObservationHandler.BYTES)
					.tags("observation", "checkpoint", "set", "nvme", "overlapped", "false")
					.summary()
					.totalAmount()).isEqualTo(4000);
				assertThat(meters.find(CounterDeltaObservationHandler.PACKETS).tag("observation", "other").meters())
					.isEmpty();
			});
	}

	@Test
	void runWhenEnabledWithoutAMeterRegistryShouldFailSayingWhatIsMissing() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(RdmaAutoConfiguration.class, RdmaObservationsAutoConfiguration.class))
			.withPropertyValues("rdma.backend=simulated", "rdma.counter-sets.nvme.flow.protocol=tcp",
					"rdma.counter-sets.nvme.flow.destination-port=4420", "rdma.observations.enabled=true",
					"rdma.observations.names=checkpoint", "rdma.observations.sets=nvme")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.descriptionContains("rdma.observations.enabled", "needs a Micrometer MeterRegistry"));
	}

	@Test
	void runWhenEnabledWithoutAnObservationRegistryShouldWarnOnceThatItHasNoEffect(CapturedOutput output) {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
					RdmaAutoConfiguration.class, RdmaObservationsAutoConfiguration.class))
			.withPropertyValues("rdma.backend=simulated", "rdma.counter-sets.nvme.flow.protocol=tcp",
					"rdma.counter-sets.nvme.flow.destination-port=4420", "rdma.observations.enabled=true",
					"rdma.observations.names=checkpoint", "rdma.observations.sets=nvme")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output.getAll()).containsOnlyOnce(
						"rdma.observations.enabled=true has no effect: the application has no ObservationRegistry bean");
			});
	}

	@Test
	void runWithBootsObservationRegistryShouldNotWarnAboutIt(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("rdma.observations.enabled=true", "rdma.observations.names=checkpoint",
					"rdma.observations.sets=nvme")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output.getAll()).doesNotContain("ObservationRegistry bean");
			});
	}

	@Test
	void runWhenEnabledWithoutNamesShouldFailNamingTheProperty() {
		this.contextRunner.withPropertyValues("rdma.observations.enabled=true", "rdma.observations.sets=nvme")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.descriptionContains("rdma.observations.names", "must name the observations"));
	}

	@Test
	void runWithABlankNameShouldFailNamingThePropertyAndIndex() {
		this.contextRunner
			.withPropertyValues("rdma.observations.enabled=true", "rdma.observations.names[0]=checkpoint",
					"rdma.observations.names[1]= ", "rdma.observations.sets=nvme")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.descriptionContains("rdma.observations.names[1]", "not blank"));
	}

	@Test
	void runWhenEnabledWithoutSetsShouldFailNamingThePropertyAndTheSets() {
		this.contextRunner.withPropertyValues("rdma.observations.enabled=true", "rdma.observations.names=checkpoint")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.descriptionContains("rdma.observations.sets", "nvme, vxlan"));
	}

	@Test
	void runWithAnUnknownSetShouldFailNamingTheValueAsWrittenAndTheSets() {
		this.contextRunner
			.withPropertyValues("rdma.observations.enabled=true", "rdma.observations.names=checkpoint",
					"rdma.observations.sets=nvme,nvmee")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.descriptionContains("rdma.observations.sets[1]", "nvmee", "nvme, vxlan"));
	}

	@Test
	void runWithAnObservationOfEveryRequestShouldWarnOnce(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("rdma.observations.enabled=true",
					"rdma.observations.names=checkpoint,http.server.requests", "rdma.observations.sets=nvme")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output.getAll()).containsOnlyOnce(
						"rdma.observations.names[1]=http.server.requests looks like an observation of every request");
			});
	}

	@Test
	void runWhenDisabledWithNamesAndSetsShouldWarnOnceThatTheyHaveNoEffect(CapturedOutput output) {
		this.contextRunner.withPropertyValues("rdma.observations.names=checkpoint", "rdma.observations.sets=nvme")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(CounterDeltaObservationHandler.class);
				assertThat(output.getAll())
					.containsOnlyOnce("rdma.observations.names=checkpoint, rdma.observations.sets=nvme have no effect: "
							+ "rdma.observations.enabled=false switches counter deltas on observations off");
			});
	}

	@Test
	void runWhenDisabledWithNothingElseSetShouldNotWarn(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output.getAll()).doesNotContain("rdma.observations");
		});
	}

	@Test
	void runWithPortCountersShouldRecordTheRoceOperationsOfTheSetsPortThatNoFlowCounterSees() {
		this.contextRunner
			.withPropertyValues("rdma.observations.enabled=true", "rdma.observations.names=checkpoint",
					"rdma.observations.sets=nvme,vxlan",
					"rdma.observations.port-counters=rx_write_requests,out_of_sequence")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				PortCounterDeltaObservationHandler handler = context.getBean(PortCounterDeltaObservationHandler.class);
				assertThat(handler.ports())
					.containsExactly(new PortCounterDeltaObservationHandler.Port("sim_mlx5_0", 1));
				assertThat(handler.counters()).containsExactly("rx_write_requests", "out_of_sequence");
				SimulatedBackend backend = context.getBean(SimulatedBackend.class);
				Packet roce = Packet.udp(InetAddress.getByName("192.0.2.10"), 50000,
						InetAddress.getByName("192.0.2.20"), Packet.ROCE_V2_PORT, 4096);
				ObservationRegistry observations = context.getBean(ObservationRegistry.class);
				Observation.createNotStarted("checkpoint", observations).observe(() -> {
					for (int i = 0; i < 6; i++) {
						backend.deliverRoce("sim_mlx5_0", 1, roce, RoceOperation.WRITE);
					}
				});
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				DistributionSummary writes = meters.get(PortCounterDeltaObservationHandler.COUNTER)
					.tags("observation", "checkpoint", "device", "sim_mlx5_0", "port", "1", "counter",
							"rx_write_requests", "overlapped", "false")
					.summary();
				assertThat(writes.count()).isOne();
				assertThat(writes.totalAmount()).isEqualTo(6);
				assertThat(meters.get(CounterDeltaObservationHandler.PACKETS)
					.tags("observation", "checkpoint", "set", "nvme", "overlapped", "false")
					.summary()
					.totalAmount()).isZero();
			});
	}

	@Test
	void runWithoutPortCountersShouldCreateNoPortHandler() {
		this.contextRunner
			.withPropertyValues("rdma.observations.enabled=true", "rdma.observations.names=checkpoint",
					"rdma.observations.sets=nvme")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(PortCounterDeltaObservationHandler.class);
			});
	}

	@Test
	void runWithAnUnknownPortCounterShouldFailNamingTheValueAsWrittenAndTheClosestCounters() {
		this.contextRunner
			.withPropertyValues("rdma.observations.enabled=true", "rdma.observations.names=checkpoint",
					"rdma.observations.sets=nvme", "rdma.observations.port-counters=np_cnp_sent,out_of_sequnce")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.descriptionContains("rdma.observations.port-counters[1]", "out_of_sequnce",
						"closest: out_of_sequence"));
	}

	@Test
	void runWithABlankPortCounterShouldFailNamingThePropertyAndIndex() {
		this.contextRunner
			.withPropertyValues("rdma.observations.enabled=true", "rdma.observations.names=checkpoint",
					"rdma.observations.sets=nvme", "rdma.observations.port-counters[0]=np_cnp_sent",
					"rdma.observations.port-counters[1]= ")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.descriptionContains("rdma.observations.port-counters[1]", "not blank"));
	}

	@Test
	void runWhenDisabledWithPortCountersShouldWarnOnceThatTheyHaveNoEffect(CapturedOutput output) {
		this.contextRunner.withPropertyValues("rdma.observations.port-counters=out_of_sequence").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(PortCounterDeltaObservationHandler.class);
			assertThat(output.getAll())
				.containsOnlyOnce("rdma.observations.port-counters=out_of_sequence has no effect: "
						+ "rdma.observations.enabled=false switches counter deltas on observations off");
		});
	}

	@Test
	void runWithQueuePairCountersShouldRecordTheDeltasOfThisProcesssQueuePairCountersByPort() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(RdmaQueuePairsAutoConfiguration.class))
			.withPropertyValues("rdma.queue-pairs.enabled=true", "rdma.observations.enabled=true",
					"rdma.observations.names=checkpoint", "rdma.observations.sets=nvme",
					"rdma.observations.queue-pair-counters=out_of_sequence,local_ack_timeout_err")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				QueuePairCounterDeltaObservationHandler handler = context
					.getBean(QueuePairCounterDeltaObservationHandler.class);
				assertThat(handler.counters()).containsExactly("out_of_sequence", "local_ack_timeout_err");
				ObservationRegistry observations = context.getBean(ObservationRegistry.class);
				// the raw packet queue pair of the set is this process's, bound to a
				// counter the simulator keeps at zero
				Observation.createNotStarted("checkpoint", observations).observe(() -> {
				});
				DistributionSummary outOfSequence = context.getBean(MeterRegistry.class)
					.get(QueuePairCounterDeltaObservationHandler.COUNTER)
					.tags("observation", "checkpoint", "device", "sim_mlx5_0", "port", "1", "counter",
							"out_of_sequence", "overlapped", "false")
					.summary();
				assertThat(outOfSequence.count()).isOne();
				assertThat(outOfSequence.totalAmount()).isZero();
			});
	}

	@Test
	void runWithAnUnknownQueuePairCounterShouldFailNamingTheValueAsWrittenAndTheClosestCounters() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(RdmaQueuePairsAutoConfiguration.class))
			.withPropertyValues("rdma.queue-pairs.enabled=true", "rdma.observations.enabled=true",
					"rdma.observations.names=checkpoint", "rdma.observations.sets=nvme",
					"rdma.observations.queue-pair-counters=out_of_sequence,local_ack_timout_err")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.descriptionContains("rdma.observations.queue-pair-counters[1]", "local_ack_timout_err",
						"closest: local_ack_timeout_err"));
	}

	@Test
	void runWithQueuePairCountersWhileQueuePairsAreOffShouldWarnOnceAndCreateNoHandler(CapturedOutput output) {
		this.contextRunner.withConfiguration(AutoConfigurations.of(RdmaQueuePairsAutoConfiguration.class))
			.withPropertyValues("rdma.observations.enabled=true", "rdma.observations.names=checkpoint",
					"rdma.observations.sets=nvme", "rdma.observations.queue-pair-counters=out_of_sequence")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(QueuePairCounterDeltaObservationHandler.class);
				assertThat(output.getAll()).containsOnlyOnce(
						"rdma.observations.queue-pair-counters=out_of_sequence has no effect: rdma.queue-pairs.enabled=false");
			});
	}

	@Test
	void runWhenDisabledWithQueuePairCountersShouldWarnOnceThatTheyHaveNoEffect(CapturedOutput output) {
		this.contextRunner.withConfiguration(AutoConfigurations.of(RdmaQueuePairsAutoConfiguration.class))
			.withPropertyValues("rdma.queue-pairs.enabled=true",
					"rdma.observations.queue-pair-counters=out_of_sequence")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(QueuePairCounterDeltaObservationHandler.class);
				assertThat(output.getAll())
					.containsOnlyOnce("rdma.observations.queue-pair-counters=out_of_sequence has no effect: "
							+ "rdma.observations.enabled=false switches counter deltas on observations off");
			});
	}

	@Test
	void runWithQueuePairCountersWhileRdmaNetlinkCannotBeAskedShouldWarnOnceAndCountTheMisses(CapturedOutput output) {
		FakeNldev kernel = FakeNldev.get();
		kernel.reset();
		kernel.addDevice("mlx5_0", 1, 1, "28.39.1002", "roce");
		// the first answer carries a wrong sequence number: the startup read fails
		kernel.inject("seq");
		this.contextRunner.withConfiguration(AutoConfigurations.of(RdmaQueuePairsAutoConfiguration.class))
			.withBean(NldevClient.class, kernel::client)
			.withPropertyValues("rdma.queue-pairs.enabled=true", "rdma.observations.enabled=true",
					"rdma.observations.names=checkpoint", "rdma.observations.sets=nvme",
					"rdma.observations.queue-pair-counters=out_of_sequence")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output.getAll()).containsOnlyOnce(
						"rdma.observations.queue-pair-counters=out_of_sequence records no delta now: RDMA netlink "
								+ "cannot be asked");
				// the next reads are answered: this process has no queue pairs there
				Observation.createNotStarted("checkpoint", context.getBean(ObservationRegistry.class)).observe(() -> {
				});
				assertThat(context.getBean(MeterRegistry.class)
					.get(QueuePairCounterDeltaObservationHandler.MISSED)
					.tags("observation", "checkpoint", "reason", "none")
					.counter()
					.count()).isOne();
			});
	}

}
