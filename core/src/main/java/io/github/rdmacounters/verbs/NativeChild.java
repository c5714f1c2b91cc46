package io.github.rdmacounters.verbs;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A native object owned by a {@link NativeDevice}: closed once for Java, destroyed in
 * native code at most once, and never after the device closed its context (which freed
 * it).
 * <p>
 * Every close runs under the device's write lock. If the native destroy fails, the object
 * stays closed for Java and the next close (or the device's close) tries again, unless
 * the device closed its context meanwhile: that freed the object, so nothing is called.
 *
 * @author rdma-counters
 */
abstract class NativeChild {

	final NativeDevice device;

	private final AtomicBoolean closed = new AtomicBoolean();

	private boolean destroyed;

	NativeChild(NativeDevice device) {
		this.device = device;
	}

	/**
	 * Return whether this object was closed for Java, or its device was.
	 * @return {@code true} after {@link #close()} or after the device closed
	 */
	public boolean isClosed() {
		return this.closed.get() || this.device.isClosed();
	}

	/**
	 * Return whether this object itself was closed for Java.
	 * @return {@code true} after {@link #close()}
	 */
	final boolean closedForJava() {
		return this.closed.get();
	}

	/**
	 * Close this object: destroy it in native code unless that happened already.
	 * Idempotent.
	 */
	public void close() {
		this.device.writeLock().lock();
		try {
			closeLocked();
		}
		finally {
			this.device.writeLock().unlock();
		}
	}

	/**
	 * Close this object; call with the device's write lock held.
	 */
	final void closeLocked() {
		this.closed.set(true);
		if (this.destroyed) {
			return;
		}
		if (this.device.contextClosed()) {
			freedWithContext();
			return;
		}
		destroy();
		this.destroyed = true;
		destroyed();
	}

	/**
	 * Record that {@code ibv_close_device} freed this object; call with the device's
	 * write lock held.
	 */
	final void freedWithContext() {
		this.closed.set(true);
		this.destroyed = true;
		released();
	}

	/**
	 * Destroy the native object (and what must go before it).
	 * @throws io.github.rdmacounters.core.RdmaOperationException if a destroy verb fails
	 */
	abstract void destroy();

	/**
	 * Update the bookkeeping after a successful {@link #destroy()}.
	 */
	abstract void destroyed();

	/**
	 * Update the bookkeeping after the device's context freed this object.
	 */
	abstract void released();

}
