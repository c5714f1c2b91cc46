package io.github.rdmacounters.testsupport;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.CounterPoint;
import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.CountersSnapshot;
import io.github.rdmacounters.core.DeviceAttributes;
import io.github.rdmacounters.core.Flow;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.ReadMode;

/**
 * A scriptable in-memory {@link RdmaDevice} for tests of the parts that only consume the
 * core model (endpoint, health, meters): counter values, port state and read failures are
 * set directly, and every counters read is counted, so a test can prove how many device
 * reads a scrape caused.
 */
public final class ScriptedDevice implements RdmaDevice {

	private final String name;

	private final String backend;

	private final AtomicBoolean closed = new AtomicBoolean();

	private final List<ScriptedCounters> counters = new CopyOnWriteArrayList<>();

	private volatile PortState portState = PortState.ACTIVE;

	private volatile @Nullable RuntimeException portFailure;

	private volatile Runnable beforeCreateFlow = () -> {
	};

	/**
	 * Create a device.
	 * @param name the device name
	 * @param backend the backend name to report
	 */
	public ScriptedDevice(String name, String backend) {
		this.name = name;
		this.backend = backend;
	}

	/**
	 * Create a counter set with a packets counter at index 0 and a bytes counter at index
	 * 1, fed by a flow on port 1.
	 * @param name the set name
	 * @param spec what the flow matches
	 * @param ttl the read cache time-to-live
	 * @return the set
	 */
	public CounterSet counterSet(String name, FlowSpec spec, Duration ttl) {
		Counters handle = createCounters();
		handle.attach(CounterType.PACKETS, 0);
		handle.attach(CounterType.BYTES, 1);
		createFlow(1, spec, handle);
		return new CounterSet(name, this.name, 1, spec, Map.of(CounterType.PACKETS, 0, CounterType.BYTES, 1),
				ReadMode.FRESH, handle, ttl, Clock.systemUTC());
	}

	/**
	 * Return the counters created on this device, in creation order.
	 * @return the counters
	 */
	public List<ScriptedCounters> counters() {
		return this.counters;
	}

	/**
	 * Set the logical state {@link #queryPort(int)} reports.
	 * @param state the state
	 */
	public void setPortState(PortState state) {
		this.portState = state;
	}

	/**
	 * Make {@link #queryPort(int)} fail.
	 * @param failure the failure to throw, or {@code null} to succeed again
	 */
	public void failPortQuery(@Nullable RuntimeException failure) {
		this.portFailure = failure;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public String backend() {
		return this.backend;
	}

	@Override
	public DeviceAttributes queryDevice() {
		checkOpen();
		return new DeviceAttributes("22.36.1010", 0x0c42a1030065_0f2cL, 0x02c9, 4125, 1,
				DeviceAttributes.MANAGED_FLOW_STEERING);
	}

	@Override
	public PortAttributes queryPort(int port) {
		checkOpen();
		RuntimeException failure = this.portFailure;
		if (failure != null) {
			throw failure;
		}
		PortState state = this.portState;
		int physical = (state == PortState.ACTIVE) ? 5 : 3;
		return new PortAttributes(port, state, physical, LinkLayer.ETHERNET, 1024, 32, 2);
	}

	@Override
	public Counters createCounters() {
		checkOpen();
		ScriptedCounters created = new ScriptedCounters(this);
		this.counters.add(created);
		return created;
	}

	/**
	 * Run something at the start of each {@link #createFlow}, where another thread of a
	 * race would come in.
	 * @param action what to run
	 */
	public void beforeCreateFlow(Runnable action) {
		this.beforeCreateFlow = action;
	}

	@Override
	public Flow createFlow(int port, FlowSpec spec, Counters counters) {
		checkOpen();
		this.beforeCreateFlow.run();
		ScriptedCounters scripted = (ScriptedCounters) counters;
		scripted.bound.set(true);
		Flow flow = new Flow() {

			private final AtomicBoolean flowClosed = new AtomicBoolean();

			@Override
			public int port() {
				return port;
			}

			@Override
			public FlowSpec spec() {
				return spec;
			}

			@Override
			public boolean isClosed() {
				return this.flowClosed.get();
			}

			@Override
			public void close() {
				this.flowClosed.set(true);
			}

		};
		scripted.flows.add(flow);
		return flow;
	}

	@Override
	public boolean isClosed() {
		return this.closed.get();
	}

	@Override
	public void close() {
		if (this.closed.compareAndSet(false, true)) {
			this.counters.forEach(ScriptedCounters::close);
		}
	}

	private void checkOpen() {
		if (this.closed.get()) {
			throw new RdmaClosedException("ScriptedDevice " + this.name);
		}
	}

	/**
	 * Counters whose values a test sets.
	 */
	public static final class ScriptedCounters implements Counters {

		private final ScriptedDevice device;

		private final List<CounterPoint> points = new ArrayList<>();

		private final AtomicLong[] values = { new AtomicLong(), new AtomicLong() };

		private final AtomicInteger reads = new AtomicInteger();

		private final AtomicBoolean bound = new AtomicBoolean();

		private final AtomicBoolean closed = new AtomicBoolean();

		private final List<Flow> flows = new CopyOnWriteArrayList<>();

		private volatile @Nullable RuntimeException readFailure;

		private volatile Runnable beforeRead = () -> {
		};

		ScriptedCounters(ScriptedDevice device) {
			this.device = device;
		}

		/**
		 * Count traffic.
		 * @param packets the packets to add
		 * @param bytes the bytes to add
		 */
		public void add(long packets, long bytes) {
			this.values[0].addAndGet(packets);
			this.values[1].addAndGet(bytes);
		}

		/**
		 * Make reads fail.
		 * @param failure the failure to throw, or {@code null} to succeed again
		 */
		public void failReads(@Nullable RuntimeException failure) {
			this.readFailure = failure;
		}

		/**
		 * Run something in each read, after the checks and before the values are copied:
		 * where the native call is, and another thread of a race would come in.
		 * @param action what to run
		 */
		public void beforeRead(Runnable action) {
			this.beforeRead = action;
		}

		/**
		 * Return the flows created with these counters.
		 * @return the flows, closed ones included
		 */
		public List<Flow> flows() {
			return List.copyOf(this.flows);
		}

		/**
		 * Return how many reads reached this handle.
		 * @return the reads
		 */
		public int reads() {
			return this.reads.get();
		}

		@Override
		public synchronized void attach(CounterType type, int index) {
			this.points.add(new CounterPoint(type, index));
		}

		@Override
		public synchronized List<CounterPoint> points() {
			return List.copyOf(this.points);
		}

		@Override
		public synchronized int size() {
			return this.points.stream().mapToInt((point) -> point.index() + 1).max().orElse(0);
		}

		@Override
		public boolean isBound() {
			return this.bound.get();
		}

		@Override
		public void read(long[] values, ReadMode mode) {
			if (this.closed.get() || this.device.isClosed()) {
				throw new RdmaClosedException("Counters on " + this.device.name());
			}
			this.reads.incrementAndGet();
			RuntimeException failure = this.readFailure;
			if (failure != null) {
				throw failure;
			}
			this.beforeRead.run();
			for (CounterPoint point : points()) {
				values[point.index()] = this.values[point.type().nativeValue()].get();
			}
		}

		@Override
		public CountersSnapshot read(ReadMode mode) {
			long[] values = new long[size()];
			read(values, mode);
			return new CountersSnapshot(values, Instant.now());
		}

		@Override
		public boolean isClosed() {
			return this.closed.get();
		}

		@Override
		public void close() {
			// the flows first, as ibv_destroy_counters needs
			this.flows.forEach(Flow::close);
			this.closed.set(true);
			this.bound.set(false);
		}

	}

}
