package io.github.rdmacounters.sysfs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.rdmacounters.core.DeviceIdentity;
import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.PhysicalPortState;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.PortLink;
import io.github.rdmacounters.core.PortRate;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.core.Presence;
import io.github.rdmacounters.testsupport.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link SysfsPortCountersSource} on fixture trees modelled on real devices.
 */
class SysfsPortCountersSourceTests {

	private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T15:00:00Z"));

	private SysfsPortCountersSource source(String fixture, String device) {
		return new SysfsPortCountersSource(device, new FileSystemSysfsTree(SysfsFixtures.root(fixture)), Duration.ZERO,
				this.clock);
	}

	@Test
	void mlx5InfiniBandReportsDeviceInformationStateAndCountersInBytes() {
		PortCountersSnapshot snapshot = source("mlx5-infiniband", "mlx5_0").snapshot();
		assertThat(snapshot.deviceName()).isEqualTo("mlx5_0");
		assertThat(snapshot.firmwareVersion()).isEqualTo("20.31.1014");
		assertThat(snapshot.boardId()).isEqualTo("MT_0000000222");
		assertThat(snapshot.hcaType()).isEqualTo("MT4123");
		assertThat(snapshot.nodeGuid()).isEqualTo("b859:9f03:00d4:3f2a");
		assertThat(snapshot.readAt()).isEqualTo(Instant.parse("2026-11-29T15:00:00Z"));
		assertThat(snapshot.ports()).hasSize(1);
		PortStatus port = snapshot.port(1);
		assertThat(port.state()).isEqualTo("ACTIVE");
		assertThat(port.isActive()).isTrue();
		assertThat(port.physicalState()).isEqualTo("LinkUp");
		assertThat(port.rate()).isEqualTo("200 Gb/sec (4X HDR)");
		assertThat(port.linkLayer()).isEqualTo("InfiniBand");
		assertThat(port.link()).isEqualTo(new PortLink(PortState.ACTIVE, PhysicalPortState.LINK_UP,
				new PortRate(200e9, "200 Gb/sec (4X HDR)"), LinkLayer.INFINIBAND));
		assertThat(snapshot.identity()).isEqualTo(DeviceIdentity.UNKNOWN);
		assertThat(port.counters()).hasSize(21 + 18)
			.containsEntry("port_rcv_data", 10_000_000_000L)
			.containsEntry("port_xmit_data", 5_000_000_000L)
			.containsEntry("port_rcv_packets", 4_000_000L)
			.containsEntry("link_downed", 2L)
			.containsEntry("symbol_error", 7L)
			.containsEntry("out_of_buffer", 17L)
			.containsEntry("rx_write_requests", 987_654L);
		assertThat(port.groups()).containsEntry("port_rcv_data", "counters")
			.containsEntry("out_of_buffer", "hw_counters");
		assertThat(port.unreadable()).isEmpty();
	}

	@Test
	void mlx5HwCountersLifespanIsASettingAndIsNotReportedAsACounter() throws IOException {
		Path root = SysfsFixtures.root("mlx5-infiniband");
		assertThat(new FileSystemSysfsTree(root).list("mlx5_0/ports/1/hw_counters")).contains("lifespan");
		PortStatus port = source("mlx5-infiniband", "mlx5_0").snapshot().port(1);
		assertThat(port.counters()).doesNotContainKeys("lifespan", "hw_counters/lifespan")
			.containsEntry("out_of_buffer", 17L);
		assertThat(port.groups()).doesNotContainKeys("lifespan", "hw_counters/lifespan");
		assertThat(port.unreadable()).isEmpty();
	}

	@Test
	void mlx5RoceReportsHwCountersAndAPortThatIsDown() {
		PortCountersSnapshot snapshot = source("mlx5-roce", "mlx5_1").snapshot();
		assertThat(snapshot.ports()).extracting(PortStatus::port).containsExactly(1, 2);
		PortStatus up = snapshot.port(1);
		assertThat(up.linkLayer()).isEqualTo("Ethernet");
		assertThat(up.counters()).containsEntry("np_cnp_sent", 42L)
			.containsEntry("rp_cnp_handled", 40L)
			.containsEntry("rnr_nak_retry_err", 0L)
			.containsEntry("port_rcv_data", 3_000_000_000L);
		PortStatus down = snapshot.port(2);
		assertThat(down.state()).isEqualTo("DOWN");
		assertThat(down.physicalState()).isEqualTo("Disabled");
		assertThat(down.isActive()).isFalse();
		assertThat(down.counters()).containsEntry("link_downed", 1L).containsEntry("port_rcv_data", 0L);
	}

	@Test
	void iwarpCountersReadingNoPmaAreSkippedAndListedWhileHwCountersAreRead() {
		SysfsPortCountersSource source = source("irdma-iwarp", "irdma0");
		PortStatus port = source.snapshot().port(1);
		assertThat(port.unreadable()).hasSize(21).contains("counters/port_rcv_data", "counters/symbol_error");
		assertThat(port.counters()).hasSize(30)
			.containsEntry("ip4InOctets", 8_123_456L)
			.containsEntry("tcpRetransSegs", 12L)
			.doesNotContainKey("port_rcv_data");
		assertThat(port.groups().values()).containsOnly("hw_counters");
		assertThat(port.state()).isEqualTo("ACTIVE");
		assertThat(source.unreadableReads()).isEqualTo(21);
		source.snapshot();
		assertThat(source.unreadableReads()).isEqualTo(42);
	}

	@Test
	void bnxtReWithoutCountersDirectoryReportsItsHwCounters() {
		PortStatus port = source("bnxt_re", "bnxt_re0").snapshot().port(1);
		assertThat(port.unreadable()).isEmpty();
		assertThat(port.counters()).hasSize(29).containsEntry("rx_bytes", 9_876_543L).containsEntry("rx_pkts", 23_456L);
		assertThat(port.counters()).doesNotContainKey("port_rcv_data");
	}

	@Test
	void countersExtDataCountersAreConvertedToBytes() {
		PortCountersSnapshot snapshot = source("mlx4-counters-ext", "mlx4_0").snapshot();
		PortStatus port = snapshot.port(1);
		assertThat(port.counters()).containsEntry("port_rcv_data_64", 123_456_789_012L * 4)
			.containsEntry("port_xmit_data_64", 98_765_432_109L * 4)
			.containsEntry("port_rcv_packets_64", 555_555_555L)
			.containsEntry("port_rcv_data", 4_294_967_295L * 4);
		assertThat(port.groups()).containsEntry("port_rcv_data_64", "counters_ext");
		assertThat(snapshot.port(2).state()).isEqualTo("INIT");
		assertThat(snapshot.port(2).isActive()).isFalse();
	}

	@Test
	void missingDeviceGivesAnEmptySnapshotGoneInsteadOfFailing() {
		SysfsPortCountersSource source = source("mlx5-roce", "mlx5_7");
		assertThat(source.exists()).isFalse();
		PortCountersSnapshot snapshot = source.snapshot();
		assertThat(snapshot.presence()).isEqualTo(Presence.GONE);
		assertThat(snapshot.firmwareVersion()).isNull();
		assertThat(snapshot.nodeGuid()).isNull();
		assertThat(snapshot.ports()).isEmpty();
		assertThat(source("mlx5-roce", "mlx5_1").exists()).isTrue();
	}

	@Test
	void aCounterFileThatDisappearsBetweenTwoSnapshotsIsMissingInTheSecond(@TempDir Path temp) throws IOException {
		Path root = SysfsFixtures.copy("mlx5-roce", temp);
		SysfsPortCountersSource source = new SysfsPortCountersSource("mlx5_1", new FileSystemSysfsTree(root),
				Duration.ZERO, this.clock);
		assertThat(source.snapshot().port(1).counters()).containsKey("symbol_error");
		Files.delete(root.resolve("mlx5_1/ports/1/counters/symbol_error"));
		Files.delete(root.resolve("mlx5_1/ports/1/rate"));
		PortStatus port = source.snapshot().port(1);
		assertThat(port.counters()).doesNotContainKey("symbol_error").containsKey("port_rcv_data");
		assertThat(port.missing()).containsExactly("counters/symbol_error");
		assertThat(port.rate()).isNull();
		assertThat(port.link().rate()).isNull();
		assertThat(port.unreadable()).containsExactly("rate");
		assertThat(source.snapshotsRead()).isEqualTo(2);
	}

	@Test
	void aDeviceDirectoryDeletedWhileReadingIsGoneWithThePortsItHad(@TempDir Path temp) {
		Path root = SysfsFixtures.copy("mlx5-roce", temp);
		SysfsPortCountersSource source = new SysfsPortCountersSource("mlx5_1", new FileSystemSysfsTree(root),
				Duration.ZERO, this.clock);
		assertThat(source.snapshot().isPresent()).isTrue();
		HostSysfs.delete(root.resolve("mlx5_1"));
		PortCountersSnapshot gone = source.snapshot();
		assertThat(gone.presence()).isEqualTo(Presence.GONE);
		assertThat(gone.ports()).extracting(PortStatus::port).containsExactly(1, 2);
		assertThat(gone.ports()).allSatisfy((port) -> assertThat(port.counters()).isEmpty())
			.extracting(PortStatus::presence)
			.containsOnly(Presence.GONE);
		assertThat(source.exists()).isFalse();
	}

	@Test
	void aFileThatVanishesBetweenListingAndReadingIsListedAsUnreadable() {
		SysfsTree fixture = new FileSystemSysfsTree(SysfsFixtures.root("mlx5-roce"));
		SysfsTree vanishing = new FailingTree(fixture, Map.of("mlx5_1/ports/1/counters/port_xmit_wait",
				new NoSuchFileException("mlx5_1/ports/1/counters/port_xmit_wait")));
		PortStatus port = new SysfsPortCountersSource("mlx5_1", vanishing, Duration.ZERO, this.clock).snapshot()
			.port(1);
		assertThat(port.unreadable()).containsExactly("counters/port_xmit_wait");
		assertThat(port.counters()).doesNotContainKey("port_xmit_wait").containsKey("port_rcv_data");
	}

	@Test
	void readHandlersFailingWithEinvalOrEopnotsuppSinkOnlyTheirFile() {
		SysfsTree fixture = new FileSystemSysfsTree(SysfsFixtures.root("mlx5-roce"));
		SysfsTree failing = new FailingTree(fixture,
				Map.of("mlx5_1/ports/1/hw_counters/out_of_buffer", new IOException("Invalid argument"),
						"mlx5_1/ports/1/counters/port_xmit_discards", new IOException("Operation not supported"),
						"mlx5_1/fw_ver", new IOException("Input/output error")));
		SysfsPortCountersSource source = new SysfsPortCountersSource("mlx5_1", failing, Duration.ZERO, this.clock);
		PortCountersSnapshot snapshot = source.snapshot();
		assertThat(snapshot.firmwareVersion()).isNull();
		assertThat(snapshot.boardId()).isEqualTo("MT_0000000359");
		PortStatus port = snapshot.port(1);
		assertThat(port.unreadable()).containsExactly("counters/port_xmit_discards", "hw_counters/out_of_buffer");
		assertThat(port.counters()).hasSize(21 + 28 - 2);
		assertThat(source.unreadableReads()).isEqualTo(3);
	}

	@Test
	void aDirectoryWhereACounterFileIsExpectedIsSkipped(@TempDir Path temp) throws IOException {
		// Tests run as root, where chmod 200 does not stop reads: a directory in place of
		// the
		// file fails to read for every user, like a write-only attribute does for
		// non-root.
		Path root = SysfsFixtures.copy("mlx5-infiniband", temp);
		Path counter = root.resolve("mlx5_0/ports/1/counters/port_xmit_wait");
		Files.delete(counter);
		Files.createDirectory(counter);
		PortStatus port = new SysfsPortCountersSource("mlx5_0", new FileSystemSysfsTree(root), Duration.ZERO,
				this.clock)
			.snapshot()
			.port(1);
		assertThat(port.unreadable()).containsExactly("counters/port_xmit_wait");
		assertThat(port.counters()).hasSize(38).containsEntry("port_rcv_packets", 4_000_000L);
	}

	@Test
	void nonNumericAndEmptyCounterFilesAreUnreadable(@TempDir Path temp) throws IOException {
		Path root = SysfsFixtures.copy("mlx5-roce", temp);
		Path counters = root.resolve("mlx5_1/ports/1/counters");
		Files.writeString(counters.resolve("symbol_error"), "garbage\n");
		Files.writeString(counters.resolve("link_downed"), "");
		Files.writeString(counters.resolve("port_rcv_errors"), "-3\n");
		Files.writeString(counters.resolve("port_xmit_wait"), "18446744073709551615\n");
		PortStatus port = new SysfsPortCountersSource("mlx5_1", new FileSystemSysfsTree(root), Duration.ZERO,
				this.clock)
			.snapshot()
			.port(1);
		assertThat(port.unreadable()).containsExactly("counters/link_downed", "counters/port_rcv_errors",
				"counters/symbol_error");
		assertThat(port.counters()).containsEntry("port_xmit_wait", -1L);
		assertThat(port.counterValue("port_xmit_wait")).isEqualTo(0x1p64);
		assertThat(port.counterValue("symbol_error")).isNaN();
	}

	@Test
	void eachFileIsReadOncePerSnapshot() {
		CountingTree counting = new CountingTree(new FileSystemSysfsTree(SysfsFixtures.root("mlx5-roce")));
		new SysfsPortCountersSource("mlx5_1", counting, Duration.ZERO, this.clock).snapshot();
		assertThat(counting.reads).isNotEmpty().allSatisfy((path, count) -> assertThat(count.get()).as(path).isOne());
		assertThat(counting.reads).hasSize(4 + 2 * (4 + 21 + 28));
	}

	@Test
	void snapshotIsReusedWithinTheTimeToLiveAndReadAgainAfterIt() {
		SysfsPortCountersSource source = new SysfsPortCountersSource("mlx5_1",
				new FileSystemSysfsTree(SysfsFixtures.root("mlx5-roce")), Duration.ofSeconds(5), this.clock);
		PortCountersSnapshot first = source.snapshot();
		this.clock.advance(Duration.ofSeconds(4));
		assertThat(source.snapshot()).isSameAs(first);
		this.clock.advance(Duration.ofSeconds(1));
		PortCountersSnapshot second = source.snapshot();
		assertThat(second).isNotSameAs(first);
		assertThat(second.readAt()).isEqualTo(Instant.parse("2026-11-29T15:00:05Z"));
		assertThat(source.snapshotsRead()).isEqualTo(2);
	}

	@Test
	void concurrentCallersShareOneRead() throws Exception {
		SysfsPortCountersSource source = new SysfsPortCountersSource("mlx5_1",
				new FileSystemSysfsTree(SysfsFixtures.root("mlx5-roce")), Duration.ofMinutes(1), this.clock);
		ExecutorService executor = Executors.newFixedThreadPool(4);
		try {
			CountDownLatch go = new CountDownLatch(1);
			List<Future<PortCountersSnapshot>> results = new ArrayList<>();
			for (int i = 0; i < 8; i++) {
				results.add(executor.submit(() -> {
					go.await();
					return source.snapshot();
				}));
			}
			go.countDown();
			PortCountersSnapshot first = results.get(0).get(10, TimeUnit.SECONDS);
			for (Future<PortCountersSnapshot> result : results) {
				assertThat(result.get(10, TimeUnit.SECONDS)).isSameAs(first);
			}
			assertThat(source.snapshotsRead()).isOne();
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void callersArrivingWhileAReadIsInFlightShareItEvenWithoutACache() throws Exception {
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		SysfsTree blocking = new BlockingFirstReadTree(new FileSystemSysfsTree(SysfsFixtures.root("mlx5-roce")),
				entered, release);
		SysfsPortCountersSource source = new SysfsPortCountersSource("mlx5_1", blocking, Duration.ZERO, this.clock);
		ExecutorService executor = Executors.newFixedThreadPool(4);
		try {
			List<Thread> followers = new CopyOnWriteArrayList<>();
			Future<PortCountersSnapshot> leader = executor.submit(source::snapshot);
			assertThat(entered.await(10, TimeUnit.SECONDS)).as("leader started reading").isTrue();
			List<Future<PortCountersSnapshot>> results = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				results.add(executor.submit(() -> {
					followers.add(Thread.currentThread());
					return source.snapshot();
				}));
			}
			awaitParked(followers, 3);
			release.countDown();
			PortCountersSnapshot first = leader.get(10, TimeUnit.SECONDS);
			for (Future<PortCountersSnapshot> result : results) {
				assertThat(result.get(10, TimeUnit.SECONDS)).isSameAs(first);
			}
			assertThat(source.snapshotsRead()).isOne();
			assertThat(source.snapshot()).isNotSameAs(first);
			assertThat(source.snapshotsRead()).isEqualTo(2);
		}
		finally {
			release.countDown();
			executor.shutdownNow();
		}
	}

	@Test
	void aFailedReadReachesEveryCallerWaitingForItAndTheNextCallReadsAgain() throws Exception {
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		SysfsTree blocking = new BlockingFirstReadTree(new FileSystemSysfsTree(SysfsFixtures.root("mlx5-roce")),
				entered, release) {

			private final AtomicInteger lists = new AtomicInteger();

			@Override
			public List<String> list(String path) throws IOException {
				if (path.endsWith("/ports/1/counters") && this.lists.getAndIncrement() == 0) {
					throw new IllegalStateException("tree broke");
				}
				return super.list(path);
			}

		};
		SysfsPortCountersSource source = new SysfsPortCountersSource("mlx5_1", blocking, Duration.ofMinutes(1),
				this.clock);
		ExecutorService executor = Executors.newFixedThreadPool(2);
		try {
			List<Thread> followers = new CopyOnWriteArrayList<>();
			Future<PortCountersSnapshot> leader = executor.submit(source::snapshot);
			assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
			Future<PortCountersSnapshot> follower = executor.submit(() -> {
				followers.add(Thread.currentThread());
				return source.snapshot();
			});
			awaitParked(followers, 1);
			release.countDown();
			for (Future<PortCountersSnapshot> result : List.of(leader, follower)) {
				assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> result.get(10, TimeUnit.SECONDS))
					.havingCause()
					.isInstanceOf(IllegalStateException.class)
					.withMessage("tree broke");
			}
			assertThat(source.snapshot().ports()).hasSize(2);
		}
		finally {
			release.countDown();
			executor.shutdownNow();
		}
	}

	private static void awaitParked(List<Thread> threads, int count) {
		Awaitility.await("callers waiting")
			.atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(5))
			.until(() -> threads.size() == count && threads.stream()
				.allMatch((thread) -> thread.getState() == Thread.State.WAITING
						|| thread.getState() == Thread.State.BLOCKED));
	}

	@Test
	void negativeTimeToLiveIsRejected() {
		FileSystemSysfsTree tree = new FileSystemSysfsTree(SysfsFixtures.root("mlx5-roce"));
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> new SysfsPortCountersSource("mlx5_1", tree, Duration.ofSeconds(-1), this.clock))
			.withMessageContaining("must not be negative");
	}

	/**
	 * A tree whose first file read signals that it started and blocks until released.
	 */
	static class BlockingFirstReadTree implements SysfsTree {

		private final SysfsTree delegate;

		private final CountDownLatch entered;

		private final CountDownLatch release;

		private final AtomicInteger reads = new AtomicInteger();

		BlockingFirstReadTree(SysfsTree delegate, CountDownLatch entered, CountDownLatch release) {
			this.delegate = delegate;
			this.entered = entered;
			this.release = release;
		}

		@Override
		public List<String> list(String path) throws IOException {
			return this.delegate.list(path);
		}

		@Override
		public String read(String path) throws IOException {
			if (this.reads.getAndIncrement() == 0) {
				this.entered.countDown();
				try {
					if (!this.release.await(10, TimeUnit.SECONDS)) {
						throw new IOException("never released");
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IOException(ex);
				}
			}
			return this.delegate.read(path);
		}

		@Override
		public String describe() {
			return "blocking " + this.delegate.describe();
		}

	}

	/**
	 * A tree that fails to read some files with given exceptions.
	 */
	static final class FailingTree implements SysfsTree {

		private final SysfsTree delegate;

		private final Map<String, IOException> failures;

		FailingTree(SysfsTree delegate, Map<String, IOException> failures) {
			this.delegate = delegate;
			this.failures = failures;
		}

		@Override
		public List<String> list(String path) throws IOException {
			return this.delegate.list(path);
		}

		@Override
		public String read(String path) throws IOException {
			IOException failure = this.failures.get(path);
			if (failure != null) {
				throw failure;
			}
			return this.delegate.read(path);
		}

		@Override
		public String describe() {
			return "failing " + this.delegate.describe();
		}

	}

	/**
	 * A tree that counts the reads of each file.
	 */
	static final class CountingTree implements SysfsTree {

		final Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();

		private final SysfsTree delegate;

		CountingTree(SysfsTree delegate) {
			this.delegate = delegate;
		}

		@Override
		public List<String> list(String path) throws IOException {
			return this.delegate.list(path);
		}

		@Override
		public String read(String path) throws IOException {
			this.reads.computeIfAbsent(path, (key) -> new AtomicInteger()).incrementAndGet();
			return this.delegate.read(path);
		}

		@Override
		public String describe() {
			return "counting " + this.delegate.describe();
		}

	}

}
