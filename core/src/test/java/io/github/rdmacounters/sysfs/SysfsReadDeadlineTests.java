package io.github.rdmacounters.sysfs;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.github.rdmacounters.core.HostPortCountersSnapshot;
import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.ReadStall;
import io.github.rdmacounters.testsupport.StalledFile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the read deadline of {@link SysfsHostPortCountersSource}: a counter file that
 * is a FIFO without a writer blocks its read in {@code open}, as a {@code counters/} read
 * does while the firmware does not answer. Without a deadline each test would hang in the
 * read, so each has a time limit.
 */
@Timeout(20)
class SysfsReadDeadlineTests {

	private static final Duration DEADLINE = Duration.ofMillis(200);

	private static final String STUCK = "mlx5_0/ports/1/counters/port_rcv_data";

	/**
	 * What a caller may wait beyond the deadline: a thread hand-off, not another read.
	 */
	private static final Duration MARGIN = Duration.ofMillis(300);

	@TempDir
	Path temp;

	private HostSysfs host;

	private StalledFile stalled;

	@BeforeEach
	void buildHost() {
		this.host = HostSysfs.fourKinds(this.temp);
	}

	@AfterEach
	void release() {
		if (this.stalled != null) {
			this.stalled.close();
		}
	}

	private SysfsHostPortCountersSource source() {
		return new SysfsHostPortCountersSource(new FileSystemSysfsTree(this.host.root()), NameFilter.all(),
				NameFilter.all(), Duration.ZERO, Clock.systemUTC(), DEADLINE);
	}

	private void stall() {
		this.stalled = StalledFile.replace(this.host.file("mlx5_0", "ports/1/counters/port_rcv_data"));
	}

	@Test
	void aFirstReadThatStallsAnswersAtTheDeadlineWithNoDevicesAndNamesTheFile() {
		stall();
		SysfsHostPortCountersSource source = source();
		assertThat(timed(source::snapshot, DEADLINE.plus(MARGIN)).stall()).isNotNull();
		HostPortCountersSnapshot snapshot = stalledIn(source);
		assertThat(snapshot.devices()).isEmpty();
		assertThat(snapshot.stall()).extracting(ReadStall::what).isEqualTo(STUCK);
		assertThat(source.reads().stalls()).isOne();
	}

	@Test
	void aReadThatStallsAfterAGoodOneHasEveryDeviceWithoutValuesNeverTheLastOnes() {
		SysfsHostPortCountersSource source = source();
		PortCountersSnapshot before = source.snapshot().device("mlx5_0");
		assertThat(before.port(1).counterValue("port_rcv_data")).isNotNaN();
		stall();
		assertThat(timed(source::snapshot, DEADLINE.plus(MARGIN)).stall()).isNotNull();
		HostPortCountersSnapshot snapshot = stalledIn(source);
		assertThat(snapshot.devices()).extracting(PortCountersSnapshot::deviceName)
			.containsExactly("bnxt_re0", "irdma0", "mlx5_0", "mlx5_1", "mlx5_2");
		PortCountersSnapshot device = snapshot.device("mlx5_0");
		assertThat(device.stall().what()).isEqualTo(STUCK);
		assertThat(device.port(1).counterValue("port_rcv_data")).isNaN();
		assertThat(device.port(1).counterValue("port_xmit_data")).isNaN();
		assertThat(snapshot.device("mlx5_1").port(1).counters()).isEmpty();
	}

	@Test
	void callersDuringAStallDoNotWaitAgainNorStartAnotherRead() {
		stall();
		SysfsHostPortCountersSource source = source();
		source.snapshot();
		int threads = Thread.activeCount();
		long started = System.nanoTime();
		for (int i = 0; i < 1000; i++) {
			assertThat(source.snapshot().stall()).isNotNull();
		}
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(DEADLINE.plus(MARGIN));
		assertThat(Thread.activeCount()).isLessThanOrEqualTo(threads);
		assertThat(source.snapshotsRead()).isOne();
		assertThat(source.reads().stalls()).isOne();
	}

	@Test
	void whenTheStalledReadReturnsTheNextReadIsNormal() throws InterruptedException {
		stall();
		SysfsHostPortCountersSource source = source();
		assertThat(source.snapshot().stall()).isNotNull();
		this.stalled.answer("17\n");
		HostPortCountersSnapshot snapshot = await().atMost(Duration.ofSeconds(10))
			.until(source::snapshot, (read) -> read.stall() == null);
		assertThat(snapshot.device("mlx5_0").port(1).counterValue("port_rcv_data")).isEqualTo(68.0);
		assertThat(source.snapshot().stall()).isNull();
		assertThat(source.reads().lastReadSucceeded()).isTrue();
	}

	/**
	 * Return the snapshot once the reader thread is in the FIFO: on a loaded machine the
	 * deadline may pass before the thread started.
	 */
	private static HostPortCountersSnapshot stalledIn(SysfsHostPortCountersSource source) {
		long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		HostPortCountersSnapshot snapshot = source.snapshot();
		while (!STUCK.equals(snapshot.stall().what()) && System.nanoTime() < end) {
			Thread.onSpinWait();
			snapshot = source.snapshot();
		}
		return snapshot;
	}

	private static <T> T timed(Supplier<T> call, Duration limit) {
		long started = System.nanoTime();
		T value = call.get();
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(limit);
		return value;
	}

}
