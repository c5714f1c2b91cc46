package io.github.rdmacounters.autoconfigure.netlink;

import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.rdmacounters.actuate.endpoint.PortDescriptor;
import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint;
import io.github.rdmacounters.actuate.health.RdmaQueuePairsHealthIndicator;
import io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration;
import io.github.rdmacounters.autoconfigure.RdmaEndpointAutoConfiguration;
import io.github.rdmacounters.metrics.QueuePairCounterMetrics;
import io.github.rdmacounters.metrics.QueuePairMetrics;
import io.github.rdmacounters.netlink.FakeNldev;
import io.github.rdmacounters.netlink.NldevClient;
import io.github.rdmacounters.netlink.ProcessQueuePairs;
import io.github.rdmacounters.netlink.QueuePairCounters;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RdmaQueuePairsAutoConfiguration}.
 *
 * @author rdma-counters
 */
@ExtendWith(OutputCaptureExtension.class)
class RdmaQueuePairsAutoConfigurationTests {

	private static final int RC = 2;

	private static final int RTS = 3;

	private static final int ERR = 6;

	private final ApplicationContextRunner defaultsRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class, RdmaQueuePairsAutoConfiguration.class,
				RdmaEndpointAutoConfiguration.class))
		.withBean(SimpleMeterRegistry.class)
		.withPropertyValues("rdma.backend=simulated", "management.endpoints.web.exposure.include=rdma");

	private final ApplicationContextRunner contextRunner = this.defaultsRunner
		.withPropertyValues("rdma.queue-pairs.enabled=true");

	@Test
	void theRawPacketQueuePairOfACounterSetIsThisProcesssOnTheSimulatedBackend() {
		this.contextRunner
			.withPropertyValues("rdma.counter-sets.roce.flow.protocol=udp",
					"rdma.counter-sets.roce.flow.destination-port=4791")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ProcessQueuePairs.class).snapshot().counts("sim_mlx5_0", 1))
					.containsExactly(Map.entry("RAW_PACKET/RTR", 1));
				assertThat(portOne(context).queuePairs()).containsExactly(Map.entry("RAW_PACKET/RTR", 1));
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				context.getBean(QueuePairMetrics.class).bindTo(meters);
				assertThat(meters.get(QueuePairMetrics.QUEUE_PAIRS)
					.tags("device", "sim_mlx5_0", "port", "1", "type", "RAW_PACKET", "state", "RTR")
					.gauge()
					.value()).isOne();
				Health health = context.getBean(RdmaQueuePairsHealthIndicator.class).health(true);
				assertThat(health.getStatus()).isEqualTo(Status.UP);
				assertThat(health.getDetails()).containsEntry("queuePairs", 1)
					.containsEntry("pid", ProcessHandle.current().pid())
					.doesNotContainKey("queuePairsInError");
			});
	}

	@Test
	void aQueuePairInTheErrorStateIsAHealthDetailAndOtherProcessesAreLeftOut() {
		FakeNldev fake = FakeNldev.get();
		fake.reset();
		int mlx = fake.addDevice("mlx5_0", 1, 1, "28.39.1002", "roce");
		fake.addQueuePairs(mlx, 1, 1, 300, RC, ERR, ProcessHandle.current().pid());
		fake.addQueuePairs(mlx, 1, 2, 301, RC, RTS, ProcessHandle.current().pid());
		fake.addQueuePairs(mlx, 1, 5, 900, RC, ERR, ProcessHandle.current().pid() + 1);
		this.contextRunner.withBean(NldevClient.class, fake::client).run((context) -> {
			Health health = context.getBean(RdmaQueuePairsHealthIndicator.class).health(true);
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("queuePairs", 3)
				.containsEntry("queuePairsInError", List.of("mlx5_0/300"));
		});
	}

	@Test
	void disabledThereIsNothing() {
		this.contextRunner.withPropertyValues("rdma.queue-pairs.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(ProcessQueuePairs.class)
				.doesNotHaveBean(QueuePairMetrics.class)
				.doesNotHaveBean(QueuePairCounters.class)
				.doesNotHaveBean(RdmaQueuePairsHealthIndicator.class));
	}

	@Test
	void offUnlessEnabled() {
		this.defaultsRunner
			.withPropertyValues("rdma.counter-sets.roce.flow.protocol=udp",
					"rdma.counter-sets.roce.flow.destination-port=4791")
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.hasSingleBean(RdmaEndpoint.class)
					.doesNotHaveBean(ProcessQueuePairs.class)
					.doesNotHaveBean(QueuePairCounters.class)
					.doesNotHaveBean(RdmaQueuePairsHealthIndicator.class);
				assertThat(portOne(context).queuePairs()).isNull();
			});
	}

	@Test
	void enabledByWhatTheBinderReadsAsTrue() {
		for (String yes : List.of("true", "yes", "on")) {
			this.defaultsRunner.withPropertyValues("rdma.queue-pairs.enabled=" + yes)
				.run((context) -> assertThat(context).as(yes).hasNotFailed().hasSingleBean(ProcessQueuePairs.class));
		}
		this.defaultsRunner.withPropertyValues("rdma.queue-pairs.enabled=yes please")
			.run((context) -> assertThat(context.getStartupFailure())
				.hasStackTraceContaining("rdma.queue-pairs.enabled")
				.hasStackTraceContaining("yes please")
				.hasStackTraceContaining("must be true or false"));
	}

	@Test
	void theSimulatedRawPacketQueuePairIsBoundAndItsCountersAreShownPerPort() {
		this.contextRunner
			.withPropertyValues("rdma.counter-sets.roce.flow.protocol=udp",
					"rdma.counter-sets.roce.flow.destination-port=4791")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				QueuePairCounters counters = context.getBean(QueuePairCounters.class);
				assertThat(counters.settings().binding()).isEqualTo(QueuePairCounters.Binding.MANUAL);
				Map<String, Map<String, Number>> shown = context.getBean(RdmaEndpoint.class)
					.rdma()
					.devices()
					.get("sim_mlx5_0")
					.ports()
					.get(1)
					.queuePairCounters();
				assertThat(shown).containsOnlyKeys("RAW_PACKET");
				assertThat(shown.get("RAW_PACKET")).containsEntry("out_of_sequence", 0L)
					.containsEntry("rnr_nak_retry_err", 0L);
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				context.getBean(QueuePairCounterMetrics.class).bindTo(meters);
				assertThat(meters.get("rdma.process.qp.out.of.sequence.packets.received")
					.tags("device", "sim_mlx5_0", "port", "1", "type", "RAW_PACKET")
					.functionCounter()
					.count()).isZero();
				assertThat(meters.get(QueuePairCounterMetrics.COUNTERS).gauge().value()).isOne();
			});
	}

	@Test
	void anUnknownBindingIsRefusedNamingThePropertyAndTheValue() {
		this.contextRunner.withPropertyValues("rdma.queue-pairs.counters.binding=sometimes").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining("rdma.queue-pairs.counters.binding")
				.hasStackTraceContaining("sometimes");
		});
	}

	@Test
	void perQueuePairWithAutoBindingIsWarnedAboutOnce(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("rdma.queue-pairs.counters.binding=auto",
					"rdma.queue-pairs.counters.per-queue-pair=true")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(QueuePairCounters.class).settings().binding())
					.isEqualTo(QueuePairCounters.Binding.AUTO);
				assertThat(output).containsOnlyOnce(
						"rdma.queue-pairs.counters.per-queue-pair=true has no effect with rdma.queue-pairs.counters.binding=auto");
			});
	}

	private static PortDescriptor portOne(AssertableApplicationContext context) {
		return context.getBean(RdmaEndpoint.class).rdma().devices().get("sim_mlx5_0").ports().get(1);
	}

}
