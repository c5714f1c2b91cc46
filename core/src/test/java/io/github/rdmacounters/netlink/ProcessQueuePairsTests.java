package io.github.rdmacounters.netlink;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.metrics.QueuePairMetrics;
import io.github.rdmacounters.testsupport.FakeVerbs;
import io.github.rdmacounters.verbs.NativeBackend;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ProcessQueuePairs} and {@link QueuePairMetrics} on the fake RDMA
 * netlink kernel, with queue pairs that the native binding creates through the fake
 * libibverbs, whose resource tracker reports them to the fake kernel.
 *
 * @author rdma-counters
 */
class ProcessQueuePairsTests {

	private static final int RC = 2;

	private static final int RTS = 3;

	private static final int ERR = 6;

	private static final long PID = ProcessHandle.current().pid();

	private final FakeNldev kernel = FakeNldev.get();

	private final FakeVerbs verbs = FakeVerbs.get();

	private int mlx;

	private ProcessQueuePairs queuePairs;

	@BeforeEach
	void setUp() {
		this.kernel.reset();
		this.verbs.reset();
		this.mlx = this.kernel.addDevice("mlx5_0", 1, 1, "28.39.1002", "roce");
		this.kernel.addKernelQueuePair(this.mlx, 1, 1, 1, "ib_core");
		// another process's queue pairs
		this.kernel.addQueuePairs(this.mlx, 1, 3, 500, RC, RTS, PID + 1);
		this.verbs.device("mlx5_0").add();
		this.verbs.connectResourceTracker(this.kernel.resourceTracker());
		this.queuePairs = new ProcessQueuePairs(this.kernel::client, PID, NetlinkBudget.DEFAULT, Duration.ZERO,
				Clock.systemUTC());
	}

	@AfterEach
	void tearDown() {
		this.verbs.connectResourceTracker(null);
		this.queuePairs.close();
		this.verbs.assertClean();
	}

	@Test
	void queuePairsCreatedThroughLibibverbsAppearAndOtherProcessesDoNot() {
		assertThat(this.queuePairs.snapshot().devices()).containsExactly(Map.entry("mlx5_0", List.of()));
		NativeBackend backend = this.verbs.backend();
		try (RdmaDevice device = backend.open("mlx5_0")) {
			Counters counters = device.createCounters();
			counters.attach(CounterType.PACKETS, 0);
			device.createFlow(1, FlowSpec.builder().protocol(L4Protocol.TCP).destinationPort(4420).build(), counters);
			ProcessQueuePairs.Snapshot snapshot = this.queuePairs.snapshot();
			// the raw packet queue pair the flow is attached to, moved to RTR on port 1
			assertThat(snapshot.devices().get("mlx5_0")).singleElement().satisfies((queuePair) -> {
				assertThat(queuePair.pid()).isEqualTo(PID);
				assertThat(queuePair.port()).isOne();
				assertThat(queuePair.typeName()).isEqualTo("RAW_PACKET");
				assertThat(queuePair.stateName()).isEqualTo("RTR");
			});
			assertThat(snapshot.counts("mlx5_0", 1)).containsExactly(Map.entry("RAW_PACKET/RTR", 1));
			assertThat(snapshot.inError()).isEmpty();
		}
		// closing the device destroyed it
		assertThat(this.queuePairs.snapshot().devices().get("mlx5_0")).isEmpty();
	}

	@Test
	void metersCountByTypeAndStateAndQueuePairsInErrorAreListed() {
		this.kernel.addQueuePairs(this.mlx, 1, 2, 700, RC, ERR, PID);
		this.kernel.addQueuePairs(this.mlx, 1, 1, 800, RC, RTS, PID);
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		try (QueuePairMetrics metrics = new QueuePairMetrics(this.queuePairs, Tags.empty())) {
			metrics.bindTo(registry);
			assertThat(registry.get(QueuePairMetrics.QUEUE_PAIRS)
				.tags("device", "mlx5_0", "port", "1", "type", "RC", "state", "ERR")
				.gauge()
				.value()).isEqualTo(2);
			assertThat(registry.get(QueuePairMetrics.QUEUE_PAIRS).tags("state", "RTS").gauge().value()).isOne();
			assertThat(registry.get(QueuePairMetrics.ERRORS).gauge().value()).isEqualTo(2);
			// other processes' queue pairs have no series: 3 of theirs are RC/RTS too
			assertThat(registry.find(QueuePairMetrics.QUEUE_PAIRS).gauges()).hasSize(2);
			assertThat(this.queuePairs.snapshot().inError()).containsExactly("mlx5_0/700", "mlx5_0/701");
		}
		assertThat(registry.find(QueuePairMetrics.QUEUE_PAIRS).gauges()).isEmpty();
	}

	@Test
	void aDumpOverItsBudgetIsADeviceFailureAndTheOtherDevicesAreRead() {
		int big = this.kernel.addDevice("mlx5_1", 1, 2, "28.39.1002", "roce");
		this.kernel.dumpSize(512);
		this.kernel.addQueuePairs(big, 1, 300, 1000, RC, RTS, PID);
		try (ProcessQueuePairs small = new ProcessQueuePairs(this.kernel::client, PID, new NetlinkBudget(20, 1 << 20),
				Duration.ZERO, Clock.systemUTC())) {
			ProcessQueuePairs.Snapshot snapshot = small.snapshot();
			assertThat(snapshot.failures()).containsOnlyKeys("mlx5_1");
			assertThat(snapshot.failures().get("mlx5_1")).contains("exceeded its budget of 20 messages");
			assertThat(snapshot.devices()).containsOnlyKeys("mlx5_0");
		}
	}

}
