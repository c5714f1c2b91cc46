package io.github.rdmacounters.netlink;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.metrics.QueuePairCounterMetrics;
import io.github.rdmacounters.netlink.QueuePairCounters.Binding;
import io.github.rdmacounters.netlink.QueuePairCounters.Group;
import io.github.rdmacounters.testsupport.FakeVerbs;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link QueuePairCounters} and {@link QueuePairCounterMetrics} on the fake
 * RDMA netlink kernel: this process's queue pairs, some created through the fake
 * libibverbs, are bound to counters and counted; other processes' are not.
 *
 * @author rdma-counters
 */
class QueuePairCountersTests {

	private static final int RC = 2;

	private static final int RTS = 3;

	private static final long PID = ProcessHandle.current().pid();

	private final FakeNldev kernel = FakeNldev.get();

	private final FakeVerbs verbs = FakeVerbs.get();

	private final List<String> warnings = new CopyOnWriteArrayList<>();

	private int mlx;

	private ProcessQueuePairs queuePairs;

	private @Nullable QueuePairCounters counters;

	@BeforeEach
	void setUp() {
		this.kernel.reset();
		this.verbs.reset();
		this.mlx = this.kernel.addDevice("mlx5_0", 1, 1, "28.39.1002", "roce");
		for (String name : List.of("out_of_sequence", "local_ack_timeout_err", "rnr_nak_retry_err",
				"roce_adp_retrans")) {
			this.kernel.addCounter(this.mlx, 1, name, 0);
		}
		this.kernel.addOptionalCounter(this.mlx, 1, "rdma_tx_bytes", true, 0);
		this.kernel.addKernelQueuePair(this.mlx, 1, 1, 1, "ib_core");
		// another process's queue pairs
		this.kernel.addQueuePairs(this.mlx, 1, 3, 500, RC, RTS, PID + 1);
		// and two of this process's, as UCX would create them
		this.kernel.addQueuePairs(this.mlx, 1, 2, 700, RC, RTS, PID);
		this.verbs.device("mlx5_0").add();
		this.verbs.connectResourceTracker(this.kernel.resourceTracker());
		this.queuePairs = new ProcessQueuePairs(this.kernel::client, PID, NetlinkBudget.DEFAULT, Duration.ZERO,
				Clock.systemUTC());
	}

	@AfterEach
	void tearDown() {
		if (this.counters != null) {
			this.counters.close();
		}
		this.verbs.connectResourceTracker(null);
		this.queuePairs.close();
		this.verbs.assertClean();
	}

	private QueuePairCounters counters(Binding binding, boolean perQueuePair) {
		return counters(binding, perQueuePair, NetlinkBudget.DEFAULT, this.kernel::client);
	}

	private QueuePairCounters counters(Binding binding, boolean perQueuePair, NetlinkBudget budget,
			java.util.function.Supplier<NldevClient> opener) {
		this.counters = new QueuePairCounters(opener, this.queuePairs,
				new QueuePairCounters.Settings(binding, perQueuePair, "rdma.queue-pairs.counters"), budget,
				Duration.ZERO, Clock.systemUTC(), this.warnings::add);
		return this.counters;
	}

	private static Group group(String type) {
		return new Group("mlx5_0", 1, type, null);
	}

	@Test
	void ownQueuePairsAreBoundAndCountedAndOtherProcessesAreNot() {
		QueuePairCounters counters = counters(Binding.MANUAL, false);
		try (RdmaDevice device = this.verbs.backend().open("mlx5_0")) {
			Counters set = device.createCounters();
			set.attach(CounterType.PACKETS, 0);
			// the raw packet queue pair the flow is attached to, created through
			// libibverbs
			device.createFlow(1, FlowSpec.builder().protocol(L4Protocol.TCP).destinationPort(4420).build(), set);
			long raw = this.queuePairs.snapshot()
				.devices()
				.get("mlx5_0")
				.stream()
				.filter((queuePair) -> queuePair.typeName().equals("RAW_PACKET"))
				.findFirst()
				.orElseThrow()
				.lqpn();
			assertThat(counters.snapshot().counters()).isEqualTo(2);
			// the RC queue pairs share a counter, the raw packet one has its own
			long rc = this.kernel.queuePairCounter(this.mlx, 700);
			assertThat(rc).isPositive();
			assertThat(this.kernel.queuePairCounter(this.mlx, 701)).isEqualTo(rc);
			assertThat(this.kernel.queuePairCounter(this.mlx, raw)).isPositive().isNotEqualTo(rc);
			assertThat(this.kernel.queuePairCounter(this.mlx, 500)).isZero();
			this.kernel.queuePairTraffic(this.mlx, 700, "out_of_sequence", 3);
			this.kernel.queuePairTraffic(this.mlx, 701, "out_of_sequence", 4);
			this.kernel.queuePairTraffic(this.mlx, 701, "local_ack_timeout_err", 1);
			this.kernel.queuePairTraffic(this.mlx, 500, "out_of_sequence", 100);
			// another tool binds the other process's queue pair: not ours to show
			try (RdmaNetlink tool = this.kernel.client()) {
				tool.bindQueuePair(tool.device("mlx5_0"), 1, 500, null);
			}
			this.kernel.queuePairTraffic(this.mlx, 500, "out_of_sequence", 100);
			QueuePairCounters.Snapshot snapshot = counters.snapshot();
			assertThat(snapshot.counters()).isEqualTo(2);
			assertThat(snapshot.values()).containsOnlyKeys(group("RC"), group("RAW_PACKET"));
			assertThat(snapshot.values().get(group("RC"))).containsEntry("out_of_sequence", 7L)
				.containsEntry("local_ack_timeout_err", 1L)
				.containsEntry("rnr_nak_retry_err", 0L)
				.doesNotContainKey("rdma_tx_bytes");
			assertThat(snapshot.values().get(group("RAW_PACKET"))).containsEntry("out_of_sequence", 0L);
			assertThat(snapshot.port("mlx5_0", 1)).containsOnlyKeys("RAW_PACKET", "RC");
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			try (QueuePairCounterMetrics metrics = new QueuePairCounterMetrics(counters, Tags.empty())) {
				metrics.bindTo(registry);
				assertThat(registry.get("rdma.process.qp.out.of.sequence.packets.received")
					.tags("device", "mlx5_0", "port", "1", "type", "RC")
					.functionCounter()
					.count()).isEqualTo(7);
				assertThat(registry.get("rdma.process.qp.local.ack.timeout.errors")
					.tags("type", "RC")
					.functionCounter()
					.count()).isOne();
				assertThat(registry.find("rdma.process.qp.out.of.sequence.packets.received").functionCounters())
					.hasSize(2);
				assertThat(registry.get(QueuePairCounterMetrics.COUNTERS).gauge().value()).isEqualTo(2);
			}
			assertThat(registry.getMeters()).isEmpty();
		}
		assertThat(this.warnings).isEmpty();
	}

	@Test
	void aFreshSnapshotReadsWithinTheTimeToLiveAndListsTheCountersWithTheirQueuePairs() {
		this.counters = new QueuePairCounters(this.kernel::client, this.queuePairs,
				new QueuePairCounters.Settings(Binding.MANUAL, false, "rdma.queue-pairs.counters"),
				NetlinkBudget.DEFAULT, Duration.ofHours(1), Clock.systemUTC(), this.warnings::add);
		QueuePairCounters counters = this.counters;
		QueuePairCounters.Snapshot first = counters.snapshot();
		long id = this.kernel.queuePairCounter(this.mlx, 700);
		assertThat(first.bindings())
			.containsExactly(new QueuePairCounters.CounterBinding("mlx5_0", 1, id, List.of(700L, 701L)));
		this.kernel.queuePairTraffic(this.mlx, 701, "out_of_sequence", 9);
		assertThat(counters.snapshot().values().get(group("RC"))).containsEntry("out_of_sequence", 0L);
		assertThat(counters.freshSnapshot().values().get(group("RC"))).containsEntry("out_of_sequence", 9L);
		// and what it read is what plain reads reuse
		assertThat(counters.snapshot().values().get(group("RC"))).containsEntry("out_of_sequence", 9L);
	}

	@Test
	void withoutCapNetAdminOneWarningNamesTheCapabilityAndTheCommandAndNothingFails() {
		this.kernel.capNetAdmin(false);
		QueuePairCounters counters = counters(Binding.MANUAL, false);
		assertThat(counters.snapshot().values()).isEmpty();
		this.kernel.addQueuePairs(this.mlx, 1, 1, 702, RC, RTS, PID);
		assertThat(counters.snapshot().values()).isEmpty();
		assertThat(this.warnings).singleElement()
			.asString()
			.contains("CAP_NET_ADMIN")
			.contains("rdma.queue-pairs.counters.binding=manual")
			.contains("rdma statistic qp bind link mlx5_0/1 lqpn 700")
			.contains("rdma statistic qp set link mlx5_0/1 auto type,pid on");
		assertThat(this.kernel.count("eperm")).isOne();
		// the type and state gauges go on
		assertThat(this.queuePairs.snapshot().counts("mlx5_0", 1)).containsEntry("RC/RTS", 3);
	}

	@Test
	void aQueuePairDestroyedBetweenDumpAndBindIsSkippedWithoutAWarning() {
		RdmaNetlink real = this.kernel.client();
		NldevClient racing = new DelegatingClient(real) {

			@Override
			public long bindQueuePair(NldevDevice device, int port, long lqpn, @Nullable Long counterId) {
				if (lqpn == 700) {
					// the application destroys it after the dump listed it
					QueuePairCountersTests.this.kernel.restrack("mlx5_0", 700, RC, RTS, 1, false);
				}
				return super.bindQueuePair(device, port, lqpn, counterId);
			}

		};
		QueuePairCounters counters = counters(Binding.MANUAL, false, NetlinkBudget.DEFAULT, () -> racing);
		QueuePairCounters.Snapshot snapshot = counters.snapshot();
		assertThat(this.warnings).isEmpty();
		assertThat(snapshot.counters()).isOne();
		assertThat(this.kernel.queuePairCounter(this.mlx, 701)).isPositive();
		assertThat(snapshot.failures()).isEmpty();
	}

	@Test
	void closeUnbindsWhatWasBoundAndAQueuePairAlreadyGoneNeedsNothing() {
		QueuePairCounters counters = counters(Binding.MANUAL, true);
		counters.snapshot();
		assertThat(this.kernel.queuePairCounters(this.mlx)).isEqualTo(2);
		assertThat(this.kernel.counterMode(this.mlx, 1)).isEqualTo(2);
		// destroyed by the application first: the kernel unbound it
		this.kernel.restrack("mlx5_0", 700, RC, RTS, 1, false);
		counters.close();
		assertThat(this.kernel.queuePairCounters(this.mlx)).isZero();
		assertThat(this.kernel.queuePairCounter(this.mlx, 701)).isZero();
		// the last counter freed, the port's mode is none again (rdma_counter_free)
		assertThat(this.kernel.counterMode(this.mlx, 1)).isZero();
		assertThat(this.kernel.count("stat_del")).isOne();
		assertThat(counters.snapshot().unavailable()).contains("closed");
		assertThat(this.warnings).isEmpty();
	}

	@Test
	void valuesOfACounterFreedWithItsLastQueuePairAreKept() {
		java.util.concurrent.atomic.AtomicBoolean failDump = new java.util.concurrent.atomic.AtomicBoolean();
		NldevClient failing = new DelegatingClient(this.kernel.client()) {

			@Override
			public List<NldevQpCounter> queuePairCounters(NldevDevice device, NetlinkBudget budget) {
				if (failDump.get()) {
					throw new NetlinkProtocolException("a broken dump");
				}
				return super.queuePairCounters(device, budget);
			}

		};
		QueuePairCounters counters = counters(Binding.MANUAL, false, NetlinkBudget.DEFAULT, () -> failing);
		counters.snapshot();
		this.kernel.queuePairTraffic(this.mlx, 700, "rnr_nak_retry_err", 5);
		this.kernel.queuePairTraffic(this.mlx, 701, "rnr_nak_retry_err", 1);
		assertThat(counters.snapshot().values().get(group("RC"))).containsEntry("rnr_nak_retry_err", 6L);
		this.kernel.restrack("mlx5_0", 700, RC, RTS, 1, false);
		this.kernel.restrack("mlx5_0", 701, RC, RTS, 1, false);
		assertThat(this.kernel.queuePairCounters(this.mlx)).isZero();
		assertThat(counters.snapshot().values().get(group("RC"))).containsEntry("rnr_nak_retry_err", 6L);
		// a new queue pair gets a new counter, and the sum goes on
		this.kernel.addQueuePairs(this.mlx, 1, 1, 800, RC, RTS, PID);
		counters.snapshot();
		this.kernel.queuePairTraffic(this.mlx, 800, "rnr_nak_retry_err", 2);
		assertThat(counters.snapshot().values().get(group("RC"))).containsEntry("rnr_nak_retry_err", 8L);
		// a dump that fails leaves the device without values, not with the freed ones
		// alone
		failDump.set(true);
		QueuePairCounters.Snapshot failed = counters.snapshot();
		assertThat(failed.failures()).containsEntry("mlx5_0", "a broken dump");
		assertThat(failed.values()).isEmpty();
		failDump.set(false);
		assertThat(counters.snapshot().values().get(group("RC"))).containsEntry("rnr_nak_retry_err", 8L);
	}

	@Test
	void perQueuePairCountersHaveTheirNumberAndGoWithTheQueuePair() {
		this.kernel.bindOptionalCounters(true);
		QueuePairCounters counters = counters(Binding.MANUAL, true);
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		try (QueuePairCounterMetrics metrics = new QueuePairCounterMetrics(counters, Tags.empty())) {
			metrics.bindTo(registry);
			this.kernel.queuePairTraffic(this.mlx, 701, "rdma_tx_bytes", 4096);
			assertThat(registry.get(QueuePairCounterMetrics.COUNTERS).gauge().value()).isEqualTo(2);
			// Linux 6.15: the port's enabled optional counters are bound per queue pair
			// too
			assertThat(registry.get("rdma.process.qp.roce.data.transmitted")
				.tags("type", "RC", "qpn", "701")
				.functionCounter()
				.count()).isEqualTo(4096);
			assertThat(registry.find("rdma.process.qp.roce.data.transmitted").functionCounters()).hasSize(2);
			this.kernel.restrack("mlx5_0", 700, RC, RTS, 1, false);
			registry.get(QueuePairCounterMetrics.COUNTERS).gauge().value();
			assertThat(registry.find("rdma.process.qp.roce.data.transmitted").functionCounters()).singleElement()
				.satisfies((meter) -> assertThat(meter.getId().getTag("qpn")).isEqualTo("701"));
		}
	}

	@Test
	void autoModeIsSwitchedOnOnlyWhenConfiguredAndStaysOnAfterClose() {
		QueuePairCounters counters = counters(Binding.AUTO, false);
		counters.snapshot();
		// RDMA_COUNTER_MODE_AUTO with RDMA_COUNTER_MASK_QP_TYPE | RDMA_COUNTER_MASK_PID
		assertThat(this.kernel.counterMode(this.mlx, 1)).isEqualTo(1 | 3 << 8);
		try (RdmaDevice device = this.verbs.backend().open("mlx5_0")) {
			Counters set = device.createCounters();
			set.attach(CounterType.PACKETS, 0);
			// a queue pair that reaches the port from now on is bound by the kernel
			device.createFlow(1, FlowSpec.builder().protocol(L4Protocol.UDP).destinationPort(4791).build(), set);
			QueuePairCounters.Snapshot snapshot = counters.snapshot();
			assertThat(snapshot.values()).containsOnlyKeys(group("RAW_PACKET"));
			counters.close();
			assertThat(this.kernel.counterMode(this.mlx, 1)).isEqualTo(1 | 3 << 8);
		}
		assertThat(this.warnings).isEmpty();
	}

	@Test
	void aCounterDumpOverItsBudgetIsADeviceFailure() {
		this.kernel.dumpSize(512);
		this.kernel.addQueuePairs(this.mlx, 1, 60, 1000, RC, RTS, PID);
		QueuePairCounters counters = counters(Binding.MANUAL, true, new NetlinkBudget(8, 1 << 20), this.kernel::client);
		QueuePairCounters.Snapshot snapshot = counters.snapshot();
		assertThat(snapshot.failures()).containsOnlyKeys("mlx5_0");
		assertThat(snapshot.failures().get("mlx5_0")).contains("exceeded its budget of 8 messages");
		assertThat(snapshot.values()).isEmpty();
		// the whole default budget holds them
		QueuePairCounters roomy = new QueuePairCounters(this.kernel::client, this.queuePairs,
				new QueuePairCounters.Settings(Binding.MANUAL, true, "rdma.queue-pairs.counters"),
				NetlinkBudget.DEFAULT, Duration.ZERO, Clock.systemUTC(), this.warnings::add);
		try {
			assertThat(roomy.snapshot().counters()).isEqualTo(62);
		}
		finally {
			roomy.close();
		}
	}

	/** A client that forwards every request. */
	private static class DelegatingClient implements NldevClient {

		private final NldevClient delegate;

		DelegatingClient(NldevClient delegate) {
			this.delegate = delegate;
		}

		@Override
		public List<NldevDevice> devices() {
			return this.delegate.devices();
		}

		@Override
		public List<HwCounterStatus> counterStatus(NldevDevice device, int port) {
			return this.delegate.counterStatus(device, port);
		}

		@Override
		public Map<String, Long> portCounters(NldevDevice device, int port) {
			return this.delegate.portCounters(device, port);
		}

		@Override
		public List<String> enableOptionalCounters(NldevDevice device, int port, java.util.Collection<String> names) {
			return this.delegate.enableOptionalCounters(device, port, names);
		}

		@Override
		public List<NldevQueuePair> queuePairs(NldevDevice device, NetlinkBudget budget) {
			return this.delegate.queuePairs(device, budget);
		}

		@Override
		public NldevCounterMode queuePairCounterMode(NldevDevice device, int port) {
			return this.delegate.queuePairCounterMode(device, port);
		}

		@Override
		public void setQueuePairAutoMode(NldevDevice device, int port, int mask) {
			this.delegate.setQueuePairAutoMode(device, port, mask);
		}

		@Override
		public long bindQueuePair(NldevDevice device, int port, long lqpn, @Nullable Long counterId) {
			return this.delegate.bindQueuePair(device, port, lqpn, counterId);
		}

		@Override
		public void unbindQueuePair(NldevDevice device, int port, long lqpn, long counterId) {
			this.delegate.unbindQueuePair(device, port, lqpn, counterId);
		}

		@Override
		public List<NldevQpCounter> queuePairCounters(NldevDevice device, NetlinkBudget budget) {
			return this.delegate.queuePairCounters(device, budget);
		}

		@Override
		public void close() {
			this.delegate.close();
		}

	}

}
