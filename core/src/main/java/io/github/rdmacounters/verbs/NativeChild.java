package io.github.rdmacounters.verbs;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A native object owned by a {@link NativeDevice}: closed once for Java, destroyed at
 * most once, and never after the device closed its context (which freed it). Closes run
 * under the device's write lock; a failed destroy is retried by the next close.
 */
abstract class NativeChild {

	final NativeDevice device;

	private final AtomicBoolean closed = new AtomicBoolean();

	private boolean destroyed;

	NativeChild(NativeDevice device) {
		this.device = device;
	}

	public boolean isClosed() {
		return this.closed.get() || this.device.isClosed();
	}

	final boolean closedForJava() {
		return this.closed.get();
	}

	/** Destroy the native object unless that happened already. Idempotent. */
	public void close() {
		this.device.writeLock().lock();
		try {
			closeLocked();
		}
		finally {
			this.device.writeLock().unlock();
		}
	}

	// Call with the device's write lock held
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

	// ibv_close_device freed this object; call with the device's write lock held
	final void freedWithContext() {
		this.closed.set(true);
		this.destroyed = true;
		released();
	}

	abstract void destroy();

	abstract void destroyed();

	abstract void released();

}
