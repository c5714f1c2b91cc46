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

	/**
	 * Destroy the native object unless that happened already. Idempotent. Closed for Java
	 * at once; while a call of the device is stuck in native code the destroy is left to
	 * a thread that waits for it ({@link OrderedClose}).
	 */
	public void close() {
		this.closed.set(true);
		if (this.device.tryWriteLock()) {
			try {
				closeLocked();
			}
			finally {
				this.device.writeLock().unlock();
			}
			return;
		}
		this.device.closeLater(kind() + " of " + this.device.name(), () -> {
			this.device.writeLock().lock();
			try {
				closeLocked();
			}
			finally {
				this.device.writeLock().unlock();
			}
		});
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

	/** What the object is, e.g. {@code counters}; without a lock. */
	abstract String kind();

	abstract void destroy();

	abstract void destroyed();

	abstract void released();

}
