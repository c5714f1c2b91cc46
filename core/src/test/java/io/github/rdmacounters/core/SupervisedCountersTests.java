package io.github.rdmacounters.core;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Tests for {@link SupervisedCounters} on a {@link SupervisedDevice} whose contexts are
 * fakes: a test chooses when the device is present again, and runs a hook inside a
 * counters read or a flow creation, where the other thread of a race would come in.
 *
 * @author rdma-counters
 */
class SupervisedCountersTests {

	private static final String DEVICE = "mlx5_0";

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final Map<CounterType, Integer> PACKETS = Map.of(CounterType.PACKETS, 0);

	private final FakeBackend backend = new FakeBackend();

	private SupervisedDevice device;

	@AfterEach
	void closeDevice() {
		if (this.device != null) {
			this.device.close();
		}
	}

	@Test
	void readThatTheDeviceFailsUnderIsCarriedForwardByTheReopen() {
		FakeContext first = this.backend.present();
		Counters counters = open().createSupervisedCounters(1, FlowSpec.any(), PACKETS);
		FakeCounters handle = first.counters.get(0);
		handle.value = 10;
		assertThat(packets(counters)).isEqualTo(10);
		handle.value = 25;
		// the device fails while the read is in the native call: unbind() runs before
		// the read records what it returns
		handle.onRead = () -> this.device.fail("a failure in another thread", null);
		assertThat(packets(counters)).isEqualTo(25);
		FakeContext second = this.backend.present();
		awaitReopen();
		assertThat(second.counters).hasSize(1);
		assertThat(packets(counters)).as("read after the reopen").isEqualTo(25);
		second.counters.get(0).value = 3;
		assertThat(packets(counters)).isEqualTo(28);
	}

	@Test
	void setClosedWhileTheReopenRecreatesItsFlowClosesTheNewCounters() {
		this.backend.present();
		Counters counters = open().createSupervisedCounters(1, FlowSpec.any(), PACKETS);
		this.device.fail("a failure", null);
		FakeContext second = new FakeContext();
		// the application closes the set while install() recreates its flow
		second.onCreateFlow = counters::close;
		this.backend.present(second);
		awaitReopen();
		assertThat(counters.isClosed()).isTrue();
		assertThat(counters.isBound()).isFalse();
		assertThat(second.counters).hasSize(1);
		FakeCounters handle = second.counters.get(0);
		assertThat(handle.flows).hasSize(1).allSatisfy((flow) -> assertThat(flow.isClosed()).isTrue());
		assertThat(handle.isClosed()).as("counters of the closed set on the new context").isTrue();
	}

	private SupervisedDevice open() {
		this.device = SupervisedDevice.open(this.backend, DEVICE, Duration.ofMillis(1), Duration.ofMillis(10),
				Duration.ZERO);
		return this.device;
	}

	private void awaitReopen() {
		long deadline = System.nanoTime() + TIMEOUT.toNanos();
		while (this.device.tracker().reopens() == 0) {
			if (System.nanoTime() > deadline) {
				fail("Timed out waiting for the reopen of " + DEVICE);
			}
			try {
				Thread.sleep(2);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				fail("Interrupted waiting for the reopen of " + DEVICE);
			}
		}
	}

	private static long packets(Counters counters) {
		return counters.read(ReadMode.FRESH).values()[0];
	}

	/**
	 * A backend whose device is present while a test has offered a context for the next
	 * open.
	 */
	private static final class FakeBackend implements RdmaBackend {

		private final Queue<FakeContext> contexts = new ConcurrentLinkedQueue<>();

		FakeContext present() {
			return present(new FakeContext());
		}

		FakeContext present(FakeContext context) {
			this.contexts.add(context);
			return context;
		}

		@Override
		public String name() {
			return "fake";
		}

		@Override
		public List<DeviceId> devices() {
			return this.contexts.isEmpty() ? List.of() : List.of(new DeviceId(DEVICE, 1));
		}

		@Override
		public RdmaDevice open(String deviceName) {
			FakeContext context = this.contexts.poll();
			if (context == null) {
				throw new DeviceNotFoundException(deviceName, List.of());
			}
			return context;
		}

		@Override
		public PortCountersSource portCounters(String deviceName, Path sysfsRoot, Duration readCacheTtl) {
			throw new UnsupportedOperationException();
		}

		@Override
		public HostPortCountersSource hostPortCounters(Path sysfsRoot, Predicate<String> deviceFilter,
				Predicate<String> counterFilter, Duration readCacheTtl) {
			throw new UnsupportedOperationException();
		}

	}

	/**
	 * A device context; closing it closes the counters created on it.
	 */
	private static final class FakeContext implements RdmaDevice {

		private final List<FakeCounters> counters = new CopyOnWriteArrayList<>();

		private volatile Runnable onCreateFlow = () -> {
		};

		private volatile boolean closed;

		@Override
		public String name() {
			return DEVICE;
		}

		@Override
		public String backend() {
			return "fake";
		}

		@Override
		public DeviceAttributes queryDevice() {
			return new DeviceAttributes("22.36.1010", 1, 0x02c9, 4125, 1, DeviceAttributes.MANAGED_FLOW_STEERING);
		}

		@Override
		public PortAttributes queryPort(int port) {
			throw new UnsupportedOperationException();
		}

		@Override
		public Counters createCounters() {
			FakeCounters created = new FakeCounters();
			this.counters.add(created);
			return created;
		}

		@Override
		public Flow createFlow(int port, FlowSpec spec, Counters counters) {
			this.onCreateFlow.run();
			FakeFlow flow = new FakeFlow(port, spec);
			((FakeCounters) counters).flows.add(flow);
			return flow;
		}

		@Override
		public boolean isClosed() {
			return this.closed;
		}

		@Override
		public void close() {
			this.closed = true;
			this.counters.forEach(FakeCounters::close);
		}

	}

	/**
	 * Counters whose packets a test sets; closing them destroys their flows first, as
	 * {@code ibv_destroy_counters} needs.
	 */
	private static final class FakeCounters implements Counters {

		private final List<CounterPoint> points = new CopyOnWriteArrayList<>();

		private final List<FakeFlow> flows = new CopyOnWriteArrayList<>();

		private volatile long value;

		private volatile Runnable onRead = () -> {
		};

		private volatile boolean closed;

		@Override
		public void attach(CounterType type, int index) {
			this.points.add(new CounterPoint(type, index));
		}

		@Override
		public List<CounterPoint> points() {
			return List.copyOf(this.points);
		}

		@Override
		public int size() {
			return this.points.stream().mapToInt((point) -> point.index() + 1).max().orElse(0);
		}

		@Override
		public boolean isBound() {
			return !this.closed && !this.flows.isEmpty();
		}

		@Override
		public void read(long[] values, ReadMode mode) {
			if (this.closed) {
				throw new RdmaClosedException("FakeCounters");
			}
			this.onRead.run();
			for (CounterPoint point : this.points) {
				values[point.index()] = this.value;
			}
		}

		@Override
		public boolean isClosed() {
			return this.closed;
		}

		@Override
		public void close() {
			this.flows.forEach(FakeFlow::close);
			this.closed = true;
		}

	}

	private static final class FakeFlow implements Flow {

		private final int port;

		private final FlowSpec spec;

		private volatile boolean closed;

		FakeFlow(int port, FlowSpec spec) {
			this.port = port;
			this.spec = spec;
		}

		@Override
		public int port() {
			return this.port;
		}

		@Override
		public FlowSpec spec() {
			return this.spec;
		}

		@Override
		public boolean isClosed() {
			return this.closed;
		}

		@Override
		public void close() {
			this.closed = true;
		}

	}

}
