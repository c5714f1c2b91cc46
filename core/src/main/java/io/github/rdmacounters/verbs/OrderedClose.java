package io.github.rdmacounters.verbs;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.core.RdmaOperationException;

/**
 * The lock and close order of one device. One device-wide read-write lock guards every
 * native handle: calls take the read lock and check that the device is open before
 * touching native code; creating and closing objects take the write lock. So a close
 * racing a read either waits for the read or makes it fail with
 * {@link RdmaClosedException}; no call ever reaches a destroyed handle. Closing destroys
 * the flows, the counters, the queue pair resources, then closes the context, in the
 * order rdma-core requires.
 *
 * @author rdma-counters
 */
final class OrderedClose {

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

	/**
	 * Throw if the device is closed; call with a lock held.
	 */
	void ensureOpen() {
		if (this.closed.get()) {
			throw new RdmaClosedException("Device " + this.name);
		}
	}

	boolean isClosed() {
		return this.closed.get();
	}

	/**
	 * Return whether {@code ibv_close_device} succeeded: every handle of the context is
	 * freed and must not reach native code again. Call with a device lock held.
	 * @return {@code true} once the context is closed
	 */
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
	 * Close the flows, the counters, the queue pair resources, then the context. A step
	 * that fails is reported (the first failure is thrown, later ones are suppressed into
	 * it) without stopping the rest: closing the context releases in the kernel whatever
	 * a failed destroy left. Once the context is closed, every handle left is freed with
	 * it: its owner is marked destroyed and makes no native call again. Until then,
	 * calling close again retries the steps that failed.
	 * @param destroyResources destroys the queue pairs, completion queue and protection
	 * domain
	 * @param closeContext closes the context, throwing if it fails
	 * @param forgetResources forgets the queue pair resources the closed context freed
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

	/**
	 * Forget the flows and counters whose destroy failed: the closed context freed them.
	 */
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
