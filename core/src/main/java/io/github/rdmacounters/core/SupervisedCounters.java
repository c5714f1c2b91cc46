package io.github.rdmacounters.core;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The {@link Counters} of a configured counter set on a {@link SupervisedDevice}: a
 * stable handle the application keeps across a reopen of the device. It reads the
 * counters handle of the current context, whose flow the supervisor recreates after a
 * reopen; values are carried forward, so what a read returns stays monotonic: the values
 * of the last successful read before the failure are added to those of the new handle,
 * which starts from 0. While the device is failed, reads fail with the reason (and are
 * counted as failed reads by the {@link CounterSet}); once the set or its device is
 * closed, also during the close, they fail with {@link RdmaClosedException}.
 *
 * @author rdma-counters
 */
final class SupervisedCounters implements Counters {

	private static final Logger logger = System.getLogger(SupervisedCounters.class.getName());

	private final SupervisedDevice owner;

	private final int port;

	private final FlowSpec spec;

	private final Map<CounterType, Integer> indexes;

	private final int size;

	private final Object lock = new Object();

	private volatile @Nullable Binding binding;

	private volatile boolean closed;

	/** The values of the last successful read, offsets included; guarded by lock. */
	private long[] last;

	SupervisedCounters(SupervisedDevice owner, int port, FlowSpec spec, Map<CounterType, Integer> indexes) {
		this.owner = owner;
		this.port = port;
		this.spec = spec;
		this.indexes = Map.copyOf(indexes);
		this.size = this.indexes.values().stream().mapToInt((i) -> i + 1).max().orElse(0);
		this.last = new long[this.size];
	}

	/**
	 * Create the counters handle with its points and the flow that feeds it on a device,
	 * and read from it from now on, carrying forward the values read so far. On failure
	 * nothing created is left behind, nor when the set was closed meanwhile: the new
	 * counters are closed again.
	 * @param device the open device
	 */
	void bind(RdmaDevice device) {
		Counters counters = device.createCounters();
		try {
			// in a fixed order: a reopen attaches the points at the same indexes
			this.indexes.entrySet()
				.stream()
				.sorted(Map.Entry.comparingByValue())
				.forEach((entry) -> counters.attach(entry.getKey(), entry.getValue()));
			device.createFlow(this.port, this.spec, counters);
		}
		catch (RuntimeException ex) {
			try {
				counters.close();
			}
			catch (RuntimeException closeFailure) {
				ex.addSuppressed(closeFailure);
			}
			throw ex;
		}
		boolean stored;
		synchronized (this.lock) {
			// a set closed meanwhile (install() binds a snapshot of the sets) does not
			// keep the handle: nobody would close it before the context
			stored = !this.closed;
			if (stored) {
				this.binding = new Binding(counters, this.last.clone());
			}
		}
		if (!stored) {
			closeQuietly(counters);
		}
	}

	/**
	 * Stop reading the current handle (its device failed); the next {@link #bind} carries
	 * the last values forward.
	 */
	void unbind() {
		synchronized (this.lock) {
			this.binding = null;
		}
	}

	@Override
	public void attach(CounterType type, int index) {
		current().attach(type, index);
	}

	@Override
	public List<CounterPoint> points() {
		Binding current = this.binding;
		return (current != null) ? current.counters().points() : List.of();
	}

	@Override
	public int size() {
		return this.size;
	}

	@Override
	public boolean isBound() {
		Binding current = this.binding;
		return current != null && current.counters().isBound();
	}

	@Override
	public void read(long[] values, ReadMode mode) {
		Binding current = currentBinding();
		try {
			current.counters().read(values, mode);
		}
		catch (RdmaClosedException ex) {
			if (isShutDown()) {
				throw ex;
			}
			// the supervisor closed the failed device under this read
			throw unavailable(ex);
		}
		catch (RdmaOperationException ex) {
			if (SupervisedDevice.isDeviceGone(ex)) {
				this.owner.fail("reading the counters failed: " + ex.getMessage(), ex);
			}
			throw ex;
		}
		long[] offset = current.offset();
		for (int i = 0; i < offset.length && i < values.length; i++) {
			values[i] += offset[i];
		}
		synchronized (this.lock) {
			// also when the device failed under this read (unbind() ran): the next bind()
			// carries forward what this read returned
			if (this.binding == current || this.binding == null) {
				int n = Math.min(this.last.length, values.length);
				for (int i = 0; i < n; i++) {
					this.last[i] = Math.max(this.last[i], values[i]);
				}
			}
		}
	}

	@Override
	public boolean isClosed() {
		return this.closed;
	}

	@Override
	public void close() {
		Binding current;
		synchronized (this.lock) {
			if (this.closed) {
				return;
			}
			// closed before the binding goes: currentBinding() reads them the other way
			this.closed = true;
			current = this.binding;
			this.binding = null;
		}
		this.owner.forget(this);
		if (current != null) {
			current.counters().close();
		}
	}

	private void closeQuietly(Counters counters) {
		try {
			// destroys the flow first (the kernel refuses to destroy counters in use)
			counters.close();
		}
		catch (RuntimeException ex) {
			// the context releases the handle when it is closed
			logger.log(Level.DEBUG,
					"Closing the counters of a closed set on " + this.owner.name() + " failed: " + ex.getMessage());
		}
	}

	private Counters current() {
		return currentBinding().counters();
	}

	private Binding currentBinding() {
		// the binding before the closed flags: a binding that close() dropped is seen
		// closed, not taken for one a failure dropped (unbind())
		Binding current = this.binding;
		if (isShutDown()) {
			throw new RdmaClosedException("Counters on " + this.owner.name());
		}
		if (current == null) {
			throw unavailable(null);
		}
		return current;
	}

	/**
	 * Return whether this set or its device was closed: the device's close frees the
	 * set's handle with its context, and it is never reopened.
	 */
	private boolean isShutDown() {
		return this.closed || this.owner.isClosed();
	}

	private RdmaException unavailable(@Nullable Throwable cause) {
		String failure = this.owner.failure();
		return new RdmaException("The counters of flow '" + this.spec.describe() + "' on " + this.owner.name()
				+ " are unavailable while the device is reopened" + ((failure != null) ? " (" + failure + ")" : ""),
				cause);
	}

	@Override
	public String toString() {
		return "Counters of flow '" + this.spec.describe() + "' on " + this.owner.name() + " port " + this.port
				+ (this.closed ? " (closed)" : "");
	}

	/**
	 * The handle of the current context and the values carried forward onto it.
	 */
	private record Binding(Counters counters, long[] offset) {
	}

}
