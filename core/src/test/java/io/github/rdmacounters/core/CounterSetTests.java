package io.github.rdmacounters.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

import io.github.rdmacounters.testsupport.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

class CounterSetTests {

	private static final Map<CounterType, Integer> PACKETS_AND_BYTES = Map.of(CounterType.PACKETS, 0, CounterType.BYTES,
			1);

	private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T12:00:00Z"));

	private final ScriptedCounters counters = new ScriptedCounters();

	private CounterSet set(Duration ttl) {
		return new CounterSet("roce", "mlx5_0", 1, FlowSpec.any(), PACKETS_AND_BYTES, ReadMode.FRESH, this.counters,
				ttl, this.clock);
	}

	@Test
	void readReturnsValuesByCounterType() {
		this.counters.values = new long[] { 7, 700 };
		CounterSetReading reading = set(Duration.ZERO).read();
		assertThat(reading.isSuccess()).isTrue();
		assertThat(reading.value(CounterType.PACKETS)).isEqualTo(7);
		assertThat(reading.value(CounterType.BYTES)).isEqualTo(700);
		assertThat(reading.readAt()).isEqualTo(this.clock.instant());
		assertThat(reading.setName()).isEqualTo("roce");
	}

	@Test
	void ttlBeyondTheNanosecondRangeCachesForever() {
		CounterSet set = set(Duration.ofDays(365L * 1000));
		set.read();
		this.clock.advance(Duration.ofDays(365L * 100));
		set.read();
		assertThat(this.counters.reads.get()).isEqualTo(1);
	}

	@Test
	void readWithinTtlReusesTheLastReadAndReadsTheDeviceOnceItPassed() {
		CounterSet set = set(Duration.ofHours(1));
		this.counters.values = new long[] { 1, 100 };
		set.read();
		this.counters.values = new long[] { 2, 200 };
		this.clock.advance(Duration.ofMinutes(59));
		assertThat(set.read().value(CounterType.PACKETS)).isEqualTo(1);
		assertThat(this.counters.reads.get()).isEqualTo(1);
		this.clock.advance(Duration.ofMinutes(1));
		assertThat(set.read().value(CounterType.PACKETS)).isEqualTo(2);
		set.read();
		assertThat(this.counters.reads.get()).isEqualTo(2);
	}

	@Test
	void readWithZeroTtlReadsEveryTime() {
		CounterSet set = set(Duration.ZERO);
		set.read();
		set.read();
		assertThat(this.counters.reads.get()).isEqualTo(2);
	}

	@Test
	void readersArrivingWhileAReadIsInFlightWaitForItAndShareItsReading() throws Exception {
		CounterSet set = set(Duration.ofHours(1));
		this.counters.entered = new CountDownLatch(1);
		this.counters.delay = new CountDownLatch(1);
		int readers = 8;
		ExecutorService executor = Executors.newFixedThreadPool(readers);
		try {
			List<Future<CounterSetReading>> futures = new ArrayList<>();
			futures.add(executor.submit(set::read));
			assertThat(this.counters.entered.await(10, TimeUnit.SECONDS)).as("the first read is in flight").isTrue();
			List<Thread> waiting = new CopyOnWriteArrayList<>();
			for (int i = 1; i < readers; i++) {
				futures.add(executor.submit(() -> {
					waiting.add(Thread.currentThread());
					return set.read();
				}));
			}
			awaitWaitingForTheReadInFlight(waiting, readers - 1);
			assertThat(this.counters.reads.get()).as("native reads while the first is in flight").isOne();
			this.counters.delay.countDown();
			CounterSetReading first = futures.get(0).get(10, TimeUnit.SECONDS);
			for (Future<CounterSetReading> future : futures) {
				assertThat(future.get(10, TimeUnit.SECONDS)).isSameAs(first);
			}
		}
		finally {
			this.counters.delay.countDown();
			executor.shutdownNow();
		}
		assertThat(this.counters.reads.get()).isEqualTo(1);
	}

	/**
	 * Wait until every reader thread is parked in {@link CounterSet#read()} but not in
	 * the native read, the one in flight being blocked there.
	 */
	private static void awaitWaitingForTheReadInFlight(List<Thread> threads, int count) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (threads.size() < count || !threads.stream().allMatch(CounterSetTests::isWaitingInCounterSetRead)) {
			if (System.nanoTime() > deadline) {
				fail("Timed out waiting until " + count + " readers wait for the read in flight: "
						+ threads.stream().map((thread) -> thread.getName() + " " + thread.getState()).toList());
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
		}
	}

	private static boolean isWaitingInCounterSetRead(Thread thread) {
		Thread.State state = thread.getState();
		if (state != Thread.State.WAITING && state != Thread.State.BLOCKED) {
			return false;
		}
		List<String> classes = Arrays.stream(thread.getStackTrace()).map(StackTraceElement::getClassName).toList();
		return classes.contains(CounterSet.class.getName()) && !classes.contains(ScriptedCounters.class.getName());
	}

	@Test
	void failedReadKeepsTheLastGoodValuesAndCountsTheFailure() {
		CounterSet set = set(Duration.ZERO);
		this.counters.values = new long[] { 3, 300 };
		set.read();
		this.counters.failure = new RdmaOperationException("ibv_read_counters", Errno.EIO);
		CounterSetReading failed = set.read();
		assertThat(failed.isSuccess()).isFalse();
		assertThat(failed.failure()).hasMessageContaining("EIO (5) Input/output error");
		assertThat(failed.value(CounterType.PACKETS)).isEqualTo(3);
		assertThat(failed.failedReads()).isEqualTo(1);
		assertThat(set.failedReads()).isEqualTo(1);
		this.counters.failure = null;
		this.counters.values = new long[] { 4, 400 };
		assertThat(set.read().value(CounterType.BYTES)).isEqualTo(400);
	}

	@Test
	void failedFirstReadReportsZeroes() {
		this.counters.failure = new RdmaClosedException("Counters");
		CounterSetReading reading = set(Duration.ZERO).read();
		assertThat(reading.isSuccess()).isFalse();
		assertThat(reading.value(CounterType.BYTES)).isZero();
	}

	@Test
	void readsOfClosedCountersReturnTheLastReadingMarkedClosedWithoutCountingAFailure() {
		CounterSet set = set(Duration.ZERO);
		this.counters.values = new long[] { 5, 500 };
		CounterSetReading good = set.read();
		this.counters.failure = new RdmaClosedException("Counters");
		CounterSetReading closed = set.read();
		set.read();
		assertThat(closed.isClosed()).isTrue();
		assertThat(closed.isSuccess()).isTrue();
		assertThat(closed.value(CounterType.PACKETS)).isEqualTo(5);
		assertThat(closed.value(CounterType.BYTES)).isEqualTo(500);
		assertThat(closed.readAt()).isEqualTo(good.readAt());
		assertThat(closed.failedReads()).isZero();
		assertThat(set.failedReads()).isZero();
		assertThat(good.isClosed()).isFalse();
	}

	@Test
	void countersClosedBeforeTheFirstReadGiveZeroesMarkedClosedWithoutCountingAFailure() {
		CounterSet set = set(Duration.ZERO);
		this.counters.failure = new RdmaClosedException("Counters");
		CounterSetReading reading = set.read();
		assertThat(reading.isClosed()).isTrue();
		assertThat(reading.failure()).isInstanceOf(RdmaClosedException.class);
		assertThat(reading.value(CounterType.PACKETS)).isZero();
		assertThat(reading.failedReads()).isZero();
		assertThat(set.failedReads()).isZero();
	}

	@Test
	void realFailuresAreStillCountedAfterAClosedRead() {
		CounterSet set = set(Duration.ZERO);
		set.read();
		this.counters.failure = new RdmaClosedException("Counters");
		set.read();
		this.counters.failure = new RdmaOperationException("ibv_read_counters", Errno.EIO);
		CounterSetReading failed = set.read();
		assertThat(failed.isClosed()).isFalse();
		assertThat(failed.failedReads()).isEqualTo(1);
		assertThat(set.failedReads()).isEqualTo(1);
	}

	@Test
	void lastReadingIsTheReadingTheCacheServes() {
		CounterSet set = set(Duration.ofHours(1));
		assertThat(set.lastReading()).isNull();
		CounterSetReading first = set.read();
		assertThat(set.lastReading()).isSameAs(first);
		assertThat(set.read()).isSameAs(first);
		this.clock.advance(Duration.ofHours(1));
		assertThat(set.lastReading()).as("stale, not read again yet").isSameAs(first);
		CounterSetReading second = set.read();
		assertThat(second).isNotSameAs(first);
		assertThat(set.lastReading()).isSameAs(second);
		assertThat(this.counters.reads.get()).isEqualTo(2);
	}

	@Test
	void typeNotInTheSetReadsAsMinusOne() {
		CounterSet set = new CounterSet("p", "mlx5_0", 1, FlowSpec.any(), Map.of(CounterType.PACKETS, 2),
				ReadMode.PREFER_CACHED, this.counters, Duration.ZERO, this.clock);
		this.counters.values = new long[] { 0, 0, 9 };
		CounterSetReading reading = set.read();
		assertThat(reading.has(CounterType.BYTES)).isFalse();
		assertThat(reading.value(CounterType.BYTES)).isEqualTo(-1);
		assertThat(reading.value(CounterType.PACKETS)).isEqualTo(9);
		assertThat(this.counters.lastMode).isEqualTo(ReadMode.PREFER_CACHED);
		assertThat(this.counters.lastLength).isEqualTo(3);
	}

	@Test
	void closeClosesTheCountersOnce() {
		CounterSet set = set(Duration.ZERO);
		set.close();
		set.close();
		assertThat(this.counters.closes.get()).isEqualTo(1);
		assertThat(set.read().failure()).isInstanceOf(RdmaClosedException.class);
	}

	@Test
	void managedDeviceClosesSetsBeforeTheDevice() {
		List<String> order = new ArrayList<>();
		this.counters.onClose = () -> order.add("counters");
		RecordingDevice device = new RecordingDevice(() -> order.add("device"));
		ManagedDevice managed = new ManagedDevice(device, List.of(set(Duration.ZERO)), null);
		assertThat(managed.isAvailable()).isTrue();
		managed.close();
		assertThat(order).containsExactly("counters", "device");
		assertThat(managed.isAvailable()).isFalse();
	}

	@Test
	void registryFindsSetsAndDevicesByName() {
		ManagedDevice managed = new ManagedDevice(new RecordingDevice(() -> {
		}), List.of(set(Duration.ZERO)), null);
		RdmaRegistry registry = new RdmaRegistry(List.of(managed));
		assertThat(registry.counterSet("roce")).isNotNull();
		assertThat(registry.counterSet("other")).isNull();
		assertThat(registry.device("mlx5_0")).isSameAs(managed);
		assertThat(registry.counterSets()).extracting(CounterSet::name).containsExactly("roce");
	}

	@Test
	void unavailableDeviceHasNoSetsAndKeepsTheCause() {
		RdmaUnavailableException cause = new RdmaUnavailableException(RdmaUnavailableException.Reason.NO_KERNEL_STACK,
				"no stack", null);
		ManagedDevice managed = ManagedDevice.unavailable("mlx5_0", "native", cause);
		assertThat(managed.isAvailable()).isFalse();
		assertThat(managed.unavailabilityCause()).isSameAs(cause);
		assertThat(managed.counterSets()).isEmpty();
		managed.close();
	}

	static final class ScriptedCounters implements Counters {

		volatile long[] values = new long[2];

		volatile RuntimeException failure;

		volatile CountDownLatch entered;

		volatile CountDownLatch delay;

		volatile Runnable onClose = () -> {
		};

		volatile ReadMode lastMode;

		volatile int lastLength;

		final AtomicInteger reads = new AtomicInteger();

		final AtomicInteger closes = new AtomicInteger();

		private volatile boolean closed;

		@Override
		public void attach(CounterType type, int index) {
		}

		@Override
		public List<CounterPoint> points() {
			return List.of();
		}

		@Override
		public int size() {
			return this.values.length;
		}

		@Override
		public boolean isBound() {
			return true;
		}

		@Override
		public void read(long[] into, ReadMode mode) {
			if (this.closed) {
				throw new RdmaClosedException("Counters");
			}
			this.reads.incrementAndGet();
			this.lastMode = mode;
			this.lastLength = into.length;
			if (this.entered != null) {
				this.entered.countDown();
			}
			if (this.delay != null) {
				try {
					this.delay.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			if (this.failure != null) {
				throw this.failure;
			}
			System.arraycopy(this.values, 0, into, 0, Math.min(into.length, this.values.length));
		}

		@Override
		public CountersSnapshot read(ReadMode mode) {
			long[] into = new long[this.values.length];
			read(into, mode);
			return new CountersSnapshot(into, Instant.EPOCH);
		}

		@Override
		public boolean isClosed() {
			return this.closed;
		}

		@Override
		public void close() {
			if (!this.closed) {
				this.closed = true;
				this.closes.incrementAndGet();
				this.onClose.run();
			}
		}

	}

	static final class RecordingDevice implements RdmaDevice {

		private final Runnable onClose;

		private boolean closed;

		RecordingDevice(Runnable onClose) {
			this.onClose = onClose;
		}

		@Override
		public String name() {
			return "mlx5_0";
		}

		@Override
		public String backend() {
			return "test";
		}

		@Override
		public DeviceAttributes queryDevice() {
			return new DeviceAttributes("1.0", 1, 0x02c9, 4125, 1, DeviceAttributes.MANAGED_FLOW_STEERING);
		}

		@Override
		public PortAttributes queryPort(int port) {
			return new PortAttributes(port, PortState.ACTIVE, 5, LinkLayer.ETHERNET, 1024, 32, 2);
		}

		@Override
		public Counters createCounters() {
			throw new UnsupportedOperationException("RecordingDevice creates no counters");
		}

		@Override
		public Flow createFlow(int port, FlowSpec spec, Counters counters) {
			throw new UnsupportedOperationException("RecordingDevice creates no flows");
		}

		@Override
		public boolean isClosed() {
			return this.closed;
		}

		@Override
		public void close() {
			if (!this.closed) {
				this.closed = true;
				this.onClose.run();
			}
		}

	}

}
