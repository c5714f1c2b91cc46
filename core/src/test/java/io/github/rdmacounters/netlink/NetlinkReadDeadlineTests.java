package io.github.rdmacounters.netlink;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.netlink.QueuePairCounters.Binding;
import io.github.rdmacounters.netlink.QueuePairCounters.Group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The read deadline of the RDMA netlink reads (optional counters, this process's queue
 * pairs and their counters) against the fake RDMA netlink kernel holding a request, as
 * the kernel does while the device does not answer: callers return at the deadline with
 * the values unavailable and the request named, one read is in flight whatever the number
 * of callers, the next read after the stall is normal, and closing does not wait for the
 * held request.
 *
 * @author rdma-counters
 */
class NetlinkReadDeadlineTests {

	private static final Duration DEADLINE = Duration.ofMillis(200);

	/**
	 * Far below the fake client's reply timeout (10 s), after which a held read fails.
	 */
	private static final long WITHIN_MILLIS = DEADLINE.toMillis() + 1500;

	private static final long PID = ProcessHandle.current().pid();

	private final FakeNldev fake = FakeNldev.get();

	private final List<String> warnings = new CopyOnWriteArrayList<>();

	private int mlx;

	private final List<AutoCloseable> closeables = new CopyOnWriteArrayList<>();

	@BeforeEach
	void setUp() {
		this.fake.reset();
		this.fake.capNetAdmin(true);
		this.mlx = this.fake.addDevice("mlx5_0", 1, 1, "28.39.1002", "roce");
		this.fake.addCounter(this.mlx, 1, "out_of_sequence", 3);
		this.fake.addOptionalCounter(this.mlx, 1, "cc_rx_ce_pkts", true, 17);
		this.fake.addQueuePairs(this.mlx, 1, 2, 700, 2, 3, PID);
	}

	@AfterEach
	void tearDown() throws Exception {
		this.fake.release();
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
		this.fake.capNetAdmin(null);
	}

	private OptionalCounters optionalCounters() {
		OptionalCounters counters = new OptionalCounters(this.fake::client,
				OptionalCounters.Settings.none("rdma.optional-counters"), Duration.ZERO, Clock.systemUTC(),
				this.warnings::add, DEADLINE);
		this.closeables.add(counters);
		return counters;
	}

	private ProcessQueuePairs queuePairs() {
		ProcessQueuePairs queuePairs = new ProcessQueuePairs(this.fake::client, PID, NetlinkBudget.DEFAULT,
				Duration.ZERO, Clock.systemUTC(), DEADLINE);
		this.closeables.add(queuePairs);
		return queuePairs;
	}

	private QueuePairCounters queuePairCounters(ProcessQueuePairs queuePairs) {
		return new QueuePairCounters(this.fake::client, queuePairs,
				new QueuePairCounters.Settings(Binding.MANUAL, false, "rdma.queue-pairs.counters"),
				NetlinkBudget.DEFAULT, Duration.ZERO, Clock.systemUTC(), this.warnings::add, DEADLINE);
	}

	@Test
	void optionalCountersAreUnavailableNamingTheRequestWhileTheKernelHoldsItAndReadAgainAfter() {
		OptionalCounters counters = optionalCounters();
		// a first read in a cold JVM on a loaded machine may itself miss the deadline
		awaitTrue(() -> counters.snapshot().unavailable() == null);
		assertThat(counters.snapshot().port("mlx5_0", 1).value("cc_rx_ce_pkts")).isEqualTo(17L);
		long stalls = counters.reads().stalls();
		this.fake.hold("stat_get");
		long start = System.nanoTime();
		OptionalCountersSnapshot stalled = counters.snapshot();
		assertThat(millisSince(start)).isLessThan(WITHIN_MILLIS);
		assertThat(stalled.ports()).isEmpty();
		assertThat(stalled.unavailable()).startsWith("stalled: RDMA_NLDEV_CMD_STAT_GET")
			.contains("mlx5_0 port 1")
			.contains("no answer after");
		int threads = readerThreads();
		for (int i = 0; i < 1000; i++) {
			assertThat(counters.snapshot().unavailable()).startsWith("stalled: ");
		}
		assertThat(readerThreads()).isLessThanOrEqualTo(threads);
		assertThat(this.fake.held()).isOne();
		assertThat(counters.reads().stalls()).as("one stall, however many callers").isEqualTo(stalls + 1);
		this.fake.setCounter(this.mlx, 1, "cc_rx_ce_pkts", 18);
		this.fake.release();
		awaitTrue(() -> counters.snapshot().unavailable() == null);
		assertThat(counters.snapshot().port("mlx5_0", 1).value("cc_rx_ce_pkts")).isEqualTo(18L);
	}

	@Test
	void queuePairCountersAreUnavailableWhileTheCounterDumpIsHeldAndCloseDoesNotWaitForIt() throws Exception {
		ProcessQueuePairs queuePairs = queuePairs();
		QueuePairCounters counters = queuePairCounters(queuePairs);
		awaitTrue(() -> counters.snapshot().unavailable() == null);
		assertThat(counters.snapshot().counters()).isOne();
		long counter = this.fake.queuePairCounter(this.mlx, 700);
		assertThat(counter).isPositive();
		this.fake.hold("stat_get");
		long start = System.nanoTime();
		QueuePairCounters.Snapshot stalled = counters.snapshot();
		assertThat(millisSince(start)).isLessThan(WITHIN_MILLIS);
		assertThat(stalled.values()).isEmpty();
		assertThat(stalled.unavailable()).startsWith("stalled: RDMA_NLDEV_CMD_STAT_GET");
		int threads = readerThreads();
		for (int i = 0; i < 1000; i++) {
			assertThat(counters.snapshot().values()).doesNotContainKey(new Group("mlx5_0", 1, "RC", null));
		}
		assertThat(readerThreads()).isLessThanOrEqualTo(threads);
		assertThat(this.fake.held()).isOne();
		start = System.nanoTime();
		counters.close();
		assertThat(millisSince(start)).isLessThan(WITHIN_MILLIS);
		// nothing is unbound beside the held read; after it returns, the closer unbinds
		assertThat(this.fake.count("stat_del")).isZero();
		this.fake.release();
		awaitTrue(
				() -> this.fake.queuePairCounter(this.mlx, 700) == 0 && this.fake.queuePairCounter(this.mlx, 701) == 0);
		assertThat(this.fake.count("stat_del")).isEqualTo(2);
	}

	@Test
	void processQueuePairsAreUnavailableWhileTheirDumpIsHeld() {
		ProcessQueuePairs queuePairs = queuePairs();
		awaitTrue(() -> queuePairs.snapshot().unavailable() == null);
		assertThat(queuePairs.snapshot().counts("mlx5_0", 1)).containsEntry("RC/RTS", 2);
		this.fake.hold("res_qp_get");
		long start = System.nanoTime();
		ProcessQueuePairs.Snapshot stalled = queuePairs.snapshot();
		assertThat(millisSince(start)).isLessThan(WITHIN_MILLIS);
		assertThat(stalled.devices()).isEmpty();
		assertThat(stalled.unavailable()).startsWith("stalled: RDMA_NLDEV_CMD_RES_QP_GET");
		this.fake.release();
		awaitTrue(() -> queuePairs.snapshot().unavailable() == null);
		assertThat(queuePairs.snapshot().counts("mlx5_0", 1)).isEqualTo(Map.of("RC/RTS", 2));
	}

	@Test
	void closingTheClientDoesNotWaitForAHeldRequestAndItsSocketIsClosedOnce() throws Exception {
		// the client's socket is named by its inode: the fake is shared with the threads
		// other tests left, which open and close connections meanwhile, so its count of
		// open connections could fall though this socket leaked, or never fall back
		List<Long> inodes = new CopyOnWriteArrayList<>();
		RdmaNetlink client = new RdmaNetlink(() -> this.fake.connect(Duration.ofSeconds(10), inodes::add));
		this.fake.hold("get");
		CompletableFuture<Object> request = CompletableFuture.supplyAsync(() -> {
			try {
				return client.devices();
			}
			catch (RuntimeException ex) {
				return ex;
			}
		});
		awaitTrue(() -> this.fake.held() == 1);
		assertThat(inodes).hasSize(1);
		long own = inodes.get(0);
		// named while open: the fake names 64 connections at most, and one it does not
		// name would read as closed
		assertThat(this.fake.serves(own)).isTrue();
		long start = System.nanoTime();
		client.close();
		assertThat(millisSince(start)).isLessThan(WITHIN_MILLIS);
		// the fake's client waits in poll, which the close wakes; a request in the
		// kernel's sendmsg would return when the device answers, and close the socket
		assertThat(request.get()).isInstanceOf(RdmaClosedException.class);
		this.fake.release();
		awaitTrue(() -> !this.fake.serves(own));
		// the socket opened now likely takes the descriptor number just freed, which a
		// second close of the same number would close
		List<Long> others = new ArrayList<>();
		try (NetlinkSocket other = this.fake.connect(Duration.ofSeconds(10), others::add)) {
			client.close();
			assertThat(other.isClosed()).isFalse();
			assertThat(this.fake.serves(others.get(0))).as("the connection opened between the two closes").isTrue();
		}
	}

	private static int readerThreads() {
		return (int) Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith("rdma-read-"))
			.count();
	}

	private static long millisSince(long start) {
		return (System.nanoTime() - start) / 1_000_000;
	}

	private static void awaitTrue(BooleanSupplier condition) {
		await().atMost(Duration.ofSeconds(8)).pollInterval(Duration.ofMillis(10)).until(condition::getAsBoolean);
	}

}
