package io.github.rdmacounters.verbs;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.core.RdmaOperationException;

/**
 * The lock and close order of one device. A device-wide read-write lock guards every
 * native handle: calls take the read lock and check that the device is open, creations
 * and closes take the write lock, so no call reaches a destroyed handle. Closing destroys
 * flows, counters, queue pair resources, then the context, as rdma-core requires.
 * <p>
 * A close never waits for a call that is stuck in native code (a counters read or a port
 * query is a firmware command on mlx5, which waits up to its 60 s command timeout): the
 * object is closed for Java at once, so no call starts on it, and when a call still holds
 * the read lock after {@link #BUSY_WAIT}, a daemon thread ({@code rdma-close-<device>})
 * destroys it once the call has returned, in the same order and under the write lock.
 */
final class OrderedClose {

	/**
	 * How long a close waits for the calls in native code before it leaves the destroy to
	 * a thread.
	 */
	static final long BUSY_WAIT_MILLIS = 100;

	private static final Logger logger = System.getLogger(OrderedClose.class.getName());

	private final String name;

	private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

	private final AtomicBoolean closed = new AtomicBoolean();

	private final List<NativeCounters> counters = new ArrayList<>();

	private final List<NativeFlow> flows = new ArrayList<>();

	private boolean contextClosed;

	OrderedClose(String name) {
		this.name = name;
	}

	Lock readLock() {
		return this.lock.readLock();
	}

	Lock writeLock() {
		return this.lock.writeLock();
	}

	// Call with a lock held
	void ensureOpen() {
		if (this.closed.get()) {
			throw new RdmaClosedException("Device " + this.name);
		}
	}

	boolean isClosed() {
		return this.closed.get();
	}

	/** No call starts from now on: each checks {@link #ensureOpen()} under a lock. */
	void markClosed() {
		this.closed.set(true);
	}

	/**
	 * Take the write lock unless a call holds the read lock past
	 * {@link #BUSY_WAIT_MILLIS}.
	 * @return whether the write lock is held now
	 */
	boolean tryWriteLock() {
		try {
			return this.lock.writeLock().tryLock(BUSY_WAIT_MILLIS, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * Run a close on a daemon thread, which waits for the call in native code to return;
	 * a failure is logged, as nobody waits for it.
	 * @param what what is closed, for the log
	 * @param close the close; it takes the locks it needs
	 */
	void closeLater(String what, Runnable close) {
		logger.log(Level.WARNING, "Closing " + what + " when its call in native code returns; not waiting for it");
		Thread closer = new Thread(() -> {
			try {
				close.run();
			}
			catch (RuntimeException ex) {
				logger.log(Level.WARNING, "Closing " + what + " failed: " + ex.getMessage());
			}
		}, "rdma-close-" + this.name);
		closer.setDaemon(true);
		closer.start();
	}

	// Once ibv_close_device succeeded, no handle of the context may reach native code.
	// Call with a device lock held.
	boolean contextClosed() {
		return this.contextClosed;
	}

	void added(NativeCounters child) {
		this.counters.add(child);
	}

	void added(NativeFlow child) {
		this.flows.add(child);
	}

	void removed(NativeCounters child) {
		this.counters.remove(child);
	}

	void removed(NativeFlow child) {
		this.flows.remove(child);
	}

	/**
	 * Close the flows, the counters, the queue pair resources, then the context. A failed
	 * step does not stop the rest (closing the context releases in the kernel what it
	 * left); the first failure is thrown, later ones suppressed into it. Until the
	 * context is closed, calling again retries the failed steps.
	 */
	void close(Runnable destroyResources, Runnable closeContext, Runnable forgetResources) {
		writeLock().lock();
		try {
			this.closed.set(true);
			if (this.contextClosed) {
				return;
			}
			RdmaOperationException failure = null;
			for (NativeFlow flow : List.copyOf(this.flows)) {
				failure = collect(failure, flow::closeLocked);
			}
			for (NativeCounters child : List.copyOf(this.counters)) {
				failure = collect(failure, child::closeLocked);
			}
			failure = collect(failure, destroyResources);
			failure = collect(failure, () -> {
				closeContext.run();
				this.contextClosed = true;
				abandonChildren();
				forgetResources.run();
			});
			if (failure != null) {
				throw failure;
			}
		}
		finally {
			writeLock().unlock();
		}
	}

	// The closed context freed them
	private void abandonChildren() {
		for (NativeFlow flow : List.copyOf(this.flows)) {
			flow.freedWithContext();
		}
		for (NativeCounters child : List.copyOf(this.counters)) {
			child.freedWithContext();
		}
		this.flows.clear();
		this.counters.clear();
	}

	private static @Nullable RdmaOperationException collect(@Nullable RdmaOperationException failure, Runnable action) {
		try {
			action.run();
			return failure;
		}
		catch (RdmaOperationException ex) {
			if (failure == null) {
				return ex;
			}
			failure.addSuppressed(ex);
			return failure;
		}
	}

}
