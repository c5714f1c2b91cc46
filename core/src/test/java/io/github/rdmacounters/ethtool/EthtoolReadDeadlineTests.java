package io.github.rdmacounters.ethtool;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.ReadCache;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The read deadline of the ethtool statistics: a read that blocks as
 * {@code ioctl(SIOCETHTOOL, ETHTOOL_GSTATS)} does while mlx5's firmware does not answer a
 * PPCNT query leaves every netdev of the device failing with the stall, without values,
 * holds one reader thread whatever the number of callers, and the next read after it is
 * normal.
 *
 * @author rdma-counters
 */
class EthtoolReadDeadlineTests {

	private static final Duration DEADLINE = Duration.ofMillis(200);

	private final CountDownLatch answer = new CountDownLatch(1);

	private final AtomicLong value = new AtomicLong(7);

	private volatile boolean blocking;

	private final AtomicInteger reads = new AtomicInteger();

	@AfterEach
	void tearDown() {
		this.answer.countDown();
	}

	private NetdevStatistics read(String netdev) {
		this.reads.incrementAndGet();
		ReadCache.reading("ioctl(SIOCETHTOOL, ETHTOOL_GSTATS) on " + netdev);
		if (this.blocking) {
			try {
				this.answer.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		return new NetdevStatistics(netdev, StatisticNames.of(List.of("rx_pause_ctrl_phy")),
				new long[] { this.value.get() });
	}

	@Test
	void aBlockedStatisticsReadLeavesTheNetdevsFailingWithTheStallAndOneReaderThread() {
		NetdevStatisticsSource source = new NetdevStatisticsSource("mlx5_0", () -> List.of("eth2", "eth3"), this::read,
				Duration.ZERO, Clock.systemUTC(), DEADLINE);
		long until = System.nanoTime() + Duration.ofSeconds(8).toNanos();
		// a first read in a cold JVM on a loaded machine may itself miss the deadline
		while (source.snapshot().netdev("eth2") == null && System.nanoTime() < until) {
			Thread.onSpinWait();
		}
		assertThat(source.snapshot().netdev("eth2").value(0)).isEqualTo(7.0);
		long stallsBefore = source.reads().stalls();
		this.blocking = true;
		long start = System.nanoTime();
		NetdevStatisticsSnapshot stalled = source.snapshot();
		assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(DEADLINE.toMillis() + 1500);
		assertThat(stalled.netdevs()).isEmpty();
		assertThat(stalled.netdev("eth2")).isNull();
		assertThat(stalled.failures()).containsOnlyKeys("eth2", "eth3");
		assertThat(stalled.failures().get("eth2"))
			.startsWith("stalled: ioctl(SIOCETHTOOL, ETHTOOL_GSTATS) on eth2: no answer after");
		int threads = readerThreads();
		int readsBefore = this.reads.get();
		for (int i = 0; i < 1000; i++) {
			assertThat(source.snapshot().netdevs()).isEmpty();
		}
		assertThat(readerThreads()).isLessThanOrEqualTo(threads);
		assertThat(this.reads.get()).isEqualTo(readsBefore);
		assertThat(source.reads().stalls()).isEqualTo(stallsBefore + 1);
		this.value.set(8);
		this.blocking = false;
		this.answer.countDown();
		until = System.nanoTime() + Duration.ofSeconds(8).toNanos();
		while (source.snapshot().netdev("eth2") == null && System.nanoTime() < until) {
			Thread.onSpinWait();
		}
		assertThat(source.snapshot().netdev("eth2").value(0)).isEqualTo(8.0);
		assertThat(source.snapshot().failures()).isEmpty();
	}

	private static int readerThreads() {
		return (int) Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith("rdma-read-"))
			.count();
	}

}
