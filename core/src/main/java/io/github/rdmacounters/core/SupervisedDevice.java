package io.github.rdmacounters.core;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;

/**
 * A device of a {@link ManagedDevice} that survives a device reset: it follows the
 * device's events with a {@link DeviceEventTracker} and, after
 * {@code IBV_EVENT_DEVICE_FATAL} or a call failing with {@code ENODEV} or {@code EIO},
 * marks the device failed, closes the failed context (flows, counters, queue pairs,
 * completion queue, protection domain, context, in that order; every handle is released
 * with the context, none is used again) and reopens it on a daemon thread
 * ({@code rdma-reopen-<device>}) with exponential backoff until it is present again, then
 * recreates the flows and counters of the configured sets. The {@link Counters} of the
 * sets ({@link SupervisedCounters}) are stable handles whose values carry forward across
 * the reopen. Listeners added with {@link #addEventListener} stay registered across
 * reopens.
 * <p>
 * It is the read cache of the device's queries. {@link #queryDevice()} asks the context
 * once: the kernel fills a device's attributes once, when the driver registers it
 * ({@code setup_device()} in {@code drivers/infiniband/core/device.c} calls the driver's
 * {@code query_device} into {@code ib_device.attrs}, since Linux 4.5, commit
 * 3e153a93a1c1), and {@code ibv_query_device} copies those
 * ({@code ib_uverbs_query_device()} in {@code uverbs_cmd.c}); new firmware or a driver
 * reload means a new registration, which this device sees as a failure and a reopen,
 * after which it asks again. {@link #queryPort(int)} is reused per port for the read
 * cache time-to-live, with single flight: {@code ibv_query_port} asks the driver each
 * time ({@code ib_uverbs_query_port()} calls {@code ib_query_port()}, mlx5 reads the
 * vport state from firmware), so a port is asked at most once per time-to-live however
 * many health checks, scrapes and endpoint requests ask. Every asynchronous event of a
 * port drops that port's query at once (the kernel raises {@code IB_EVENT_PORT_ERR} and
 * {@code IB_EVENT_PORT_ACTIVE} after the port state changed, from the driver's port
 * change handler, e.g. {@code mlx5_ib_handle_event()}), so the next query asks the
 * device; until a query ends after it, and for at most one time-to-live, the state that
 * PORT_ACTIVE or PORT_ERR set stands for the port's ({@link #portEventState(int)}), after
 * which a query tells the state and corrects one an event set. A reopen drops every
 * query. After {@link #close()} every query throws {@link RdmaClosedException}, cached or
 * not; one racing close reaches native code only under the device's lock, before the
 * context is destroyed.
 * <p>
 * Counters and flows the application creates itself with {@link #createCounters()} and
 * {@link #createFlow} belong to the context of the moment and are closed with it when it
 * fails.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public final class SupervisedDevice implements RdmaDevice {

	/** The prefix of the reopening threads' names, followed by the device name. */
	public static final String THREAD_PREFIX = "rdma-reopen-";

	private static final Logger logger = System.getLogger(SupervisedDevice.class.getName());

	private final RdmaBackend backend;

	private final String name;

	private final String backendName;

	private final Duration initialBackoff;

	private final Duration maxBackoff;

	private final Duration readCacheTtl;

	private final Clock clock;

	private final DeviceEventTracker tracker;

	/** The attributes of the current context, asked once per context. */
	private volatile @Nullable DeviceQuery deviceQuery;

	/** The port queries of the current context; replaced by a reopen. */
	private volatile Map<Integer, ReadCache<PortQuery>> portQueries = new ConcurrentHashMap<>();

	private final DeviceEventListener forwarder = this::onEvent;

	private final List<SupervisedCounters> sets = new CopyOnWriteArrayList<>();

	private final Object lock = new Object();

	private volatile RdmaDevice current;

	private volatile boolean closed;

	/**
	 * Set by {@link #reopenNow()}: the reopening thread's wait was cut short on purpose.
	 */
	private volatile boolean retryNow;

	private @Nullable Thread reopening;

	private final ReopenBackoff backoff;

	private volatile Duration readDeadline = ReadCache.NO_DEADLINE;

	private SupervisedDevice(RdmaBackend backend, RdmaDevice device, Duration initialBackoff, Duration maxBackoff,
			Duration readCacheTtl, Clock clock, ReopenBackoff.Sleeper sleeper) {
		this.backend = backend;
		this.name = device.name();
		this.backendName = device.backend();
		this.initialBackoff = initialBackoff;
		this.maxBackoff = maxBackoff;
		this.readCacheTtl = readCacheTtl;
		this.clock = clock;
		this.backoff = new ReopenBackoff(initialBackoff, maxBackoff, ReadCache.ticker(clock), sleeper);
		this.tracker = new DeviceEventTracker(this.name);
		this.current = device;
	}

	/**
	 * Open a device, follow its events and reuse its port queries for a time-to-live.
	 * @param backend the backend that opens it, and reopens it after a failure
	 * @param name the device name
	 * @param initialBackoff the wait before the first reopen attempt, doubled after each
	 * failed attempt
	 * @param maxBackoff the longest wait between attempts; a device that stayed up this
	 * long after a reopen starts again from the initial wait when it fails
	 * @param readCacheTtl how long a port query is reused; {@link Duration#ZERO} asks the
	 * device every time
	 * @param clock the clock that measures the age of a port query and how long a reopen
	 * held
	 * @return the supervised device
	 * @since 0.1.0
	 */
	public static SupervisedDevice open(RdmaBackend backend, String name, Duration initialBackoff, Duration maxBackoff,
			Duration readCacheTtl, Clock clock) {
		return open(backend, name, initialBackoff, maxBackoff, readCacheTtl, clock, Thread::sleep);
	}

	static SupervisedDevice open(RdmaBackend backend, String name, Duration initialBackoff, Duration maxBackoff,
			Duration readCacheTtl, Clock clock, ReopenBackoff.Sleeper sleeper) {
		if (readCacheTtl.isNegative()) {
			throw new IllegalArgumentException("Read cache time-to-live must not be negative, but was " + readCacheTtl);
		}
		RdmaDevice device = backend.open(name);
		SupervisedDevice supervised = new SupervisedDevice(backend, device, initialBackoff, maxBackoff, readCacheTtl,
				clock, sleeper);
		try {
			device.addEventListener(supervised.forwarder);
		}
		catch (RuntimeException ex) {
			try {
				device.close();
			}
			catch (RuntimeException closeFailure) {
				ex.addSuppressed(closeFailure);
			}
			throw ex;
		}
		return supervised;
	}

	/**
	 * Return whether a failure means that the device is gone: {@code ENODEV} or
	 * {@code EIO} (what the kernel returns for every command once a device is
	 * disassociated).
	 * @param ex the failure
	 * @return {@code true} if the device must be reopened
	 */
	static boolean isDeviceGone(RdmaOperationException ex) {
		return ex.errno() == Errno.ENODEV || ex.errno() == Errno.EIO;
	}

	/**
	 * Return the tracker of the device's events.
	 * @return the tracker
	 */
	public DeviceEventTracker tracker() {
		return this.tracker;
	}

	/**
	 * Return the wait before the first attempt to reopen the device after a failure.
	 * @return the initial backoff
	 */
	public Duration initialBackoff() {
		return this.initialBackoff;
	}

	/**
	 * Return the longest wait between attempts to reopen the device.
	 * @return the maximum backoff
	 */
	public Duration maxBackoff() {
		return this.maxBackoff;
	}

	/**
	 * Return the device of the current context.
	 * @return the device; closed while the device is failed
	 */
	public RdmaDevice current() {
		return this.current;
	}

	/**
	 * Return why the device failed, while it is being reopened.
	 * @return the reason, or {@code null} if it is in service
	 */
	public @Nullable String failure() {
		return this.tracker.failure();
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public String backend() {
		return this.backendName;
	}

	/**
	 * Return the attributes of the device, asked once per context
	 * ({@code ibv_query_device}): they are fixed while the device is registered.
	 * @return the attributes
	 * @throws RdmaClosedException after close
	 */
	@Override
	public DeviceAttributes queryDevice() {
		return call(() -> {
			RdmaDevice context = current();
			DeviceQuery known = this.deviceQuery;
			if (known != null && known.context() == context) {
				return known.attributes();
			}
			DeviceAttributes attributes = context.queryDevice();
			synchronized (this.lock) {
				if (this.current == context) {
					this.deviceQuery = new DeviceQuery(context, attributes);
				}
			}
			return attributes;
		});
	}

	/**
	 * Return the attributes of a port ({@code ibv_query_port}), reused for the read cache
	 * time-to-live unless an event of the port came since; a failed query is reused too.
	 * @param port the port number, from 1
	 * @return the attributes
	 * @throws RdmaClosedException after close
	 */
	@Override
	public PortAttributes queryPort(int port) {
		return call(() -> {
			// the memos before the context: a reopen installs the new context before
			// the new memos, so these never get a query of an older context
			Map<Integer, ReadCache<PortQuery>> memos = this.portQueries;
			RdmaDevice context = current();
			if (port < 1 || port > PortAttributes.MAX_PORT) {
				return context.queryPort(port);
			}
			return memos.computeIfAbsent(port, (key) -> newMemo()).get(() -> {
				ReadCache.reading("ibv_query_port of " + this.name + " port " + port);
				return PortQuery.of(context, port);
			}).result();
		});
	}

	/**
	 * Return the state the last {@code PORT_ACTIVE} or {@code PORT_ERR} of a port set,
	 * while it stands for the port's state: no port query ended since the event, and the
	 * event is younger than the read cache time-to-live. After that {@link #queryPort}
	 * tells the state, also when it differs from what the event set.
	 * @param port the port number
	 * @return the state, or {@code null} when a query tells it
	 */
	public @Nullable PortEventState portEventState(int port) {
		PortEventState state = this.tracker.portState(port);
		if (state == null) {
			return null;
		}
		ReadCache<PortQuery> memo = this.portQueries.get(port);
		return (memo != null && memo.invalidatedRecently()) ? state : null;
	}

	private ReadCache<PortQuery> newMemo() {
		return new ReadCache<>(this.readCacheTtl, this.clock, this.readDeadline);
	}

	/**
	 * Return a port query that is past its deadline.
	 * @return the stall, or {@code null} when no query is stuck
	 */
	public @Nullable ReadStall stalledRead() {
		for (ReadCache<PortQuery> memo : this.portQueries.values()) {
			ReadStall stall = memo.stall();
			if (stall != null) {
				return stall;
			}
		}
		return null;
	}

	/**
	 * Run the port queries from now on in a reader thread that no caller waits for longer
	 * than the deadline: a query past it throws {@link ReadStalledException} naming
	 * {@code ibv_query_port} ({@link ReadCache}).
	 * @param readDeadline how long a caller waits for a port query
	 * @return this device
	 */
	public SupervisedDevice readDeadline(Duration readDeadline) {
		this.readDeadline = readDeadline;
		this.portQueries = new ConcurrentHashMap<>();
		return this;
	}

	/** Forget every query of the context that was current. */
	private void forgetQueries() {
		this.deviceQuery = null;
		this.portQueries = new ConcurrentHashMap<>();
	}

	@Override
	public Counters createCounters() {
		return call(() -> current().createCounters());
	}

	@Override
	public Flow createFlow(int port, FlowSpec spec, Counters counters) {
		return call(() -> current().createFlow(port, spec, counters));
	}

	/**
	 * Create the counters of a configured set: a stable handle whose counters and flow
	 * are recreated after every reopen.
	 * @param port the port of the flow
	 * @param spec what the flow matches
	 * @param indexes the index of each counter type
	 * @return the counters, bound to their flow
	 */
	public Counters createSupervisedCounters(int port, FlowSpec spec, Map<CounterType, Integer> indexes) {
		SupervisedCounters counters = new SupervisedCounters(this, port, spec, indexes);
		synchronized (this.lock) {
			if (this.closed) {
				throw new RdmaClosedException("Device " + this.name);
			}
			call(() -> {
				counters.bind(current());
				return null;
			});
			this.sets.add(counters);
		}
		return counters;
	}

	@Override
	public void addEventListener(DeviceEventListener listener) {
		this.tracker.addListener(listener);
	}

	@Override
	public void removeEventListener(DeviceEventListener listener) {
		this.tracker.removeListener(listener);
	}

	private <T> T call(java.util.function.Supplier<T> action) {
		if (this.closed) {
			throw new RdmaClosedException("Device " + this.name);
		}
		String failure = failure();
		if (failure != null) {
			throw new RdmaException("Device " + this.name + " is unavailable while it is reopened (" + failure + ")");
		}
		try {
			return action.get();
		}
		catch (RdmaOperationException ex) {
			if (isDeviceGone(ex)) {
				fail(ex.getMessage(), ex);
			}
			throw ex;
		}
	}

	private void onEvent(DeviceEvent event) {
		if (event.type().isPortEvent()) {
			// before the tracker passes the event on: a listener that queries the port
			// asks the device
			this.portQueries.computeIfAbsent(event.port(), (key) -> newMemo()).invalidate();
		}
		this.tracker.onEvent(event);
		if (event.type() == DeviceEvent.Type.DEVICE_FATAL) {
			fail(event.type().verbsName(), null);
		}
	}

	/**
	 * Mark the device failed and start reopening it, unless that is under way.
	 * @param reason why
	 * @param cause the failure, if any
	 */
	void fail(String reason, @Nullable Throwable cause) {
		synchronized (this.lock) {
			if (this.closed || this.tracker.failure() != null) {
				return;
			}
			this.tracker.failed(reason);
			forgetQueries();
			if (cause != null) {
				logger.log(Level.DEBUG, "Failure of RDMA device " + this.name, cause);
			}
			for (SupervisedCounters set : this.sets) {
				set.unbind();
			}
			this.backoff.failed();
			Thread thread = new Thread(this::reopen, THREAD_PREFIX + this.name);
			thread.setDaemon(true);
			this.reopening = thread;
			thread.start();
		}
	}

	/**
	 * Try to reopen a failed device now instead of at the end of its backoff wait, e.g.
	 * because RDMA netlink's monitor reported it registered again. Does nothing while the
	 * device is in service.
	 */
	public void reopenNow() {
		synchronized (this.lock) {
			Thread thread = this.reopening;
			if (this.closed || this.tracker.failure() == null || thread == null || !thread.isAlive()) {
				return;
			}
			this.retryNow = true;
			thread.interrupt();
		}
	}

	void forget(SupervisedCounters counters) {
		this.sets.remove(counters);
	}

	/**
	 * Close the failed context, then open the device again with backoff until it is
	 * present, and recreate the sets' flows and counters.
	 */
	private void reopen() {
		RdmaDevice failed = this.current;
		failed.removeEventListener(this.forwarder);
		closeQuietly(failed, "the failed context");
		while (!this.closed) {
			try {
				this.backoff.sleep();
			}
			catch (InterruptedException ex) {
				if (this.closed || !this.retryNow) {
					return;
				}
			}
			this.retryNow = false;
			RdmaDevice fresh;
			try {
				fresh = this.backend.open(this.name);
			}
			catch (RuntimeException ex) {
				logger.log(Level.DEBUG, "RDMA device " + this.name + " is not back yet: " + ex.getMessage());
				continue;
			}
			if (install(fresh)) {
				return;
			}
		}
	}

	private boolean install(RdmaDevice fresh) {
		List<SupervisedCounters> bound = new java.util.ArrayList<>();
		try {
			fresh.addEventListener(this.forwarder);
			// the one device query of this context, before the sets' flows need its
			// capabilities
			DeviceAttributes attributes = fresh.queryDevice();
			synchronized (this.lock) {
				if (this.closed) {
					closeQuietly(fresh, "a context opened during close");
					return true;
				}
				for (SupervisedCounters set : this.sets) {
					set.bind(fresh);
					bound.add(set);
				}
				this.current = fresh;
				forgetQueries();
				this.deviceQuery = new DeviceQuery(fresh, attributes);
				this.backoff.reopened();
				this.tracker.reopened();
			}
			// outside the lock: a listener may talk to the kernel
			this.tracker.publishReopened();
			return true;
		}
		catch (RuntimeException ex) {
			logger.log(Level.DEBUG, "Reopening RDMA device " + this.name + " failed: " + ex.getMessage());
			bound.forEach(SupervisedCounters::unbind);
			fresh.removeEventListener(this.forwarder);
			closeQuietly(fresh, "a context whose counter sets could not be recreated");
			return false;
		}
	}

	private void closeQuietly(RdmaDevice device, String what) {
		try {
			device.close();
		}
		catch (RuntimeException ex) {
			// a device that went away may fail its destroys (EIO); closing the context
			// released everything
			logger.log(Level.DEBUG, "Closing " + what + " of RDMA device " + this.name + " failed: " + ex.getMessage());
		}
	}

	@Override
	public boolean isClosed() {
		return this.closed;
	}

	/**
	 * Stop reopening, then close the current context with everything created from it.
	 */
	@Override
	public void close() {
		Thread thread;
		synchronized (this.lock) {
			if (this.closed) {
				return;
			}
			this.closed = true;
			// the last reopening thread, which may still be ending after a reopen
			thread = this.reopening;
		}
		if (thread != null && thread != Thread.currentThread()) {
			thread.interrupt();
			boolean interrupted = false;
			while (thread.isAlive()) {
				try {
					thread.join();
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
			}
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
		this.current.close();
	}

	@Override
	public String toString() {
		return this.current + ((failure() != null) ? " (failed, reopening)" : "");
	}

	/**
	 * The attributes of a context.
	 *
	 * @param context the context they were asked of
	 * @param attributes the attributes
	 */
	private record DeviceQuery(RdmaDevice context, DeviceAttributes attributes) {
	}

	/**
	 * The outcome of a port query, its attributes or its failure: a failed query is
	 * reused like a successful one.
	 *
	 * @param attributes the attributes
	 * @param failure the failure
	 */
	private record PortQuery(@Nullable PortAttributes attributes, @Nullable RuntimeException failure) {

		static PortQuery of(RdmaDevice context, int port) {
			try {
				return new PortQuery(context.queryPort(port), null);
			}
			catch (RuntimeException ex) {
				return new PortQuery(null, ex);
			}
		}

		PortAttributes result() {
			if (this.failure != null) {
				throw this.failure;
			}
			return java.util.Objects.requireNonNull(this.attributes);
		}

	}

}
