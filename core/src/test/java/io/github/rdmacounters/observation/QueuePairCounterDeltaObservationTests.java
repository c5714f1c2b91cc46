package io.github.rdmacounters.observation;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.netlink.FakeNldev;
import io.github.rdmacounters.netlink.NetlinkBudget;
import io.github.rdmacounters.netlink.ProcessQueuePairs;
import io.github.rdmacounters.netlink.QueuePairCounters;
import io.github.rdmacounters.netlink.QueuePairCounters.Binding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link QueuePairCounterDeltaObservationHandler} on the fake RDMA netlink kernel: this
 * process's queue pairs are bound to a counter, and the traffic counted on it between an
 * observation's start and stop is its delta; another process's traffic is not, a held
 * counter dump records none within the read deadline, and so does a change of the queue
 * pairs bound.
 *
 * @author rdma-counters
 */
class QueuePairCounterDeltaObservationTests {

	private static final int RC = 2;

	private static final int RTS = 3;

	private static final long PID = ProcessHandle.current().pid();

	private static final Duration DEADLINE = Duration.ofMillis(200);

	/**
	 * Far below the fake client's reply timeout (10 s), after which a held read fails.
	 */
	private static final long WITHIN_MILLIS = DEADLINE.toMillis() + 1500;

	private final FakeNldev kernel = FakeNldev.get();

	private final MeterRegistry meterRegistry = new SimpleMeterRegistry();

	private final ObservationRegistry observationRegistry = ObservationRegistry.create();

	private QueuePairCounterDeltaObservationHandler handler;

	private int mlx;

	@BeforeEach
	void setUp() {
		this.kernel.reset();
		this.kernel.capNetAdmin(true);
		this.mlx = this.kernel.addDevice("mlx5_0", 1, 1, "28.39.1002", "roce");
		for (String name : List.of("out_of_sequence", "local_ack_timeout_err", "roce_adp_retrans")) {
			this.kernel.addCounter(this.mlx, 1, name, 0);
		}
		// another process's queue pairs, and two of this process's
		this.kernel.addQueuePairs(this.mlx, 1, 3, 500, RC, RTS, PID + 1);
		this.kernel.addQueuePairs(this.mlx, 1, 2, 700, RC, RTS, PID);
		// as the auto-configuration reads: fresh, the counters within the read deadline
		ProcessQueuePairs queuePairs = new ProcessQueuePairs(this.kernel::client, PID, NetlinkBudget.DEFAULT,
				Duration.ZERO, Clock.systemUTC());
		QueuePairCounters counters = new QueuePairCounters(this.kernel::client, queuePairs,
				new QueuePairCounters.Settings(Binding.MANUAL, false, "rdma.queue-pairs.counters"),
				NetlinkBudget.DEFAULT, Duration.ZERO, Clock.systemUTC(), (warning) -> {
				}, DEADLINE);
		this.handler = new QueuePairCounterDeltaObservationHandler(this.meterRegistry, Set.of("checkpoint"),
				List.of("out_of_sequence", "local_ack_timeout_err"), counters::freshSnapshot, () -> {
					counters.close();
					queuePairs.close();
				});
		this.observationRegistry.observationConfig().observationHandler(this.handler);
		// a first read in a cold JVM on a loaded machine may itself miss the deadline
		await().atMost(Duration.ofSeconds(8)).until(() -> counters.snapshot().unavailable() == null);
	}

	@AfterEach
	void tearDown() throws Exception {
		this.kernel.release();
		this.handler.close();
		this.kernel.capNetAdmin(null);
	}

	private DistributionSummary summary(String counter, boolean overlapped) {
		return this.meterRegistry.get(QueuePairCounterDeltaObservationHandler.COUNTER)
			.tags("observation", "checkpoint", "device", "mlx5_0", "port", "1", "counter", counter, "overlapped",
					Boolean.toString(overlapped))
			.summary();
	}

	private double missed(String reason) {
		var counter = this.meterRegistry.find(QueuePairCounterDeltaObservationHandler.MISSED)
			.tags("observation", "checkpoint", "reason", reason)
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	private Observation start() {
		return Observation.createNotStarted("checkpoint", this.observationRegistry).start();
	}

	@Test
	void anObservationAroundNIncrementsOfTheProcesssCounterRecordsN() {
		this.kernel.queuePairTraffic(this.mlx, 700, "out_of_sequence", 5);
		Observation observation = start();
		for (int i = 0; i < 7; i++) {
			this.kernel.queuePairTraffic(this.mlx, 700 + (i % 2), "out_of_sequence", 1);
		}
		// another process's queue pair: in the port's counter, not in this process's
		this.kernel.queuePairTraffic(this.mlx, 500, "out_of_sequence", 100);
		observation.stop();
		assertThat(summary("out_of_sequence", false).count()).isOne();
		assertThat(summary("out_of_sequence", false).totalAmount()).isEqualTo(7);
		assertThat(summary("local_ack_timeout_err", false).totalAmount()).isZero();
		assertThat(observation.getContext().getHighCardinalityKeyValue("rdma.qp.mlx5_0.1.out_of_sequence").getValue())
			.isEqualTo("7");
		assertThat(observation.getContext().getHighCardinalityKeyValue("rdma.qp.mlx5_0.1.overlapped").getValue())
			.isEqualTo("false");
		assertThat(this.meterRegistry.get(QueuePairCounterDeltaObservationHandler.COUNTER)
			.meters()
			.stream()
			.flatMap((meter) -> meter.getId().getTags().stream())
			.map((tag) -> tag.getKey())
			.distinct()).containsExactlyInAnyOrder("observation", "device", "port", "counter", "overlapped");
	}

	@Test
	void twoOverlappingObservationsAreBothMarkedOverlapped() {
		Observation first = start();
		this.kernel.queuePairTraffic(this.mlx, 700, "out_of_sequence", 2);
		Observation second = start();
		this.kernel.queuePairTraffic(this.mlx, 701, "out_of_sequence", 3);
		second.stop();
		first.stop();
		assertThat(summary("out_of_sequence", true).count()).isEqualTo(2);
		assertThat(summary("out_of_sequence", true).max()).isEqualTo(5);
		assertThat(this.meterRegistry.find(QueuePairCounterDeltaObservationHandler.COUNTER)
			.tag("overlapped", "false")
			.summary()).isNull();
		Observation alone = start();
		this.kernel.queuePairTraffic(this.mlx, 700, "out_of_sequence", 1);
		alone.stop();
		assertThat(summary("out_of_sequence", false).totalAmount()).isOne();
	}

	@Test
	void aHeldCounterDumpRecordsNoDeltaAndCountsTheMissWithinTheReadDeadline() {
		Observation observation = start();
		this.kernel.queuePairTraffic(this.mlx, 700, "out_of_sequence", 4);
		this.kernel.hold("stat_get");
		long start = System.nanoTime();
		observation.stop();
		assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(WITHIN_MILLIS);
		assertThat(this.kernel.held()).isOne();
		assertThat(missed("read")).isOne();
		assertThat(this.meterRegistry.find(QueuePairCounterDeltaObservationHandler.COUNTER).summary()).isNull();
		this.kernel.release();
	}

	@Test
	void aQueuePairCreatedDuringTheObservationRecordsNoDeltaAndCountsTheChange() {
		Observation observation = start();
		this.kernel.queuePairTraffic(this.mlx, 700, "out_of_sequence", 4);
		// bound to the counter of its type at the stop's read: it counted nothing before
		this.kernel.addQueuePairs(this.mlx, 1, 1, 702, RC, RTS, PID);
		observation.stop();
		assertThat(missed("changed")).isOne();
		assertThat(this.meterRegistry.find(QueuePairCounterDeltaObservationHandler.COUNTER).summary()).isNull();
		assertThat(observation.getContext().getHighCardinalityKeyValue("rdma.qp.mlx5_0.1.out_of_sequence")).isNull();
	}

	@Test
	void theCounterFreedWithTheLastQueuePairRecordsNoDeltaAndCountsTheChange() {
		Observation observation = start();
		this.kernel.queuePairTraffic(this.mlx, 700, "out_of_sequence", 4);
		// ib_destroy_qp_user: the counter is freed with its last queue pair
		this.kernel.restrack("mlx5_0", 700, RC, RTS, 1, false);
		this.kernel.restrack("mlx5_0", 701, RC, RTS, 1, false);
		assertThat(this.kernel.queuePairCounters(this.mlx)).isZero();
		observation.stop();
		assertThat(missed("changed")).isOne();
		assertThat(this.meterRegistry.find(QueuePairCounterDeltaObservationHandler.COUNTER).summary()).isNull();
		Observation none = start();
		none.stop();
		assertThat(missed("none")).isOne();
	}

}
