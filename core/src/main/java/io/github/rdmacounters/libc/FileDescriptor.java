package io.github.rdmacounters.libc;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;

import io.github.rdmacounters.core.RdmaClosedException;

/**
 * The one owner of a raw file descriptor. Every call on it runs between
 * {@link #acquire()} and {@link #release()}, which count the calls in flight; a
 * {@link #close()} is decided once, by compare-and-set, and the number is given back to
 * the kernel when the last call in flight leaves, never under a running call. After
 * {@link #close()}, {@link #acquire()} throws {@link RdmaClosedException}, so no call
 * reaches the kernel with a number that another file may have by then.
 * <p>
 * {@link #close()} never waits: a call that blocks keeps the descriptor open until it
 * returns, and the owner's interrupt action (e.g. signalling a {@link Wakeup} the call
 * polls) is run once so that it returns now. Thread-safe.
 *
 * @author rdma-counters
 */
public final class FileDescriptor implements AutoCloseable {

	/** The low bit of {@link #state}: close was requested. */
	private static final int CLOSED = 1;

	/** What one call in flight adds to {@link #state}. */
	private static final int CALL = 2;

	private final int fd;

	private final String what;

	private final IntUnaryOperator nativeClose;

	private final Runnable interrupt;

	private final Runnable released;

	/** Calls in flight times {@link #CALL}, plus {@link #CLOSED} once close was asked. */
	private final AtomicInteger state = new AtomicInteger();

	private volatile boolean nativelyClosed;

	FileDescriptor(int fd, String what, IntUnaryOperator nativeClose, Runnable interrupt, Runnable released) {
		if (fd < 0) {
			throw new IllegalArgumentException("Not a file descriptor: " + fd + " (" + what + ")");
		}
		this.fd = fd;
		this.what = what;
		this.nativeClose = nativeClose;
		this.interrupt = interrupt;
		this.released = released;
	}

	/**
	 * Own a descriptor that the caller has just opened and shares with no one.
	 * @param fd the descriptor
	 * @param what what it is, for messages, e.g. {@code The NETLINK_RDMA netlink socket}
	 * @return its owner
	 */
	public static FileDescriptor adopt(int fd, String what) {
		return adopt(fd, what, () -> {
		}, () -> {
		});
	}

	/**
	 * Own a descriptor that the caller has just opened and shares with no one.
	 * @param fd the descriptor
	 * @param what what it is, for messages
	 * @param interrupt run once when close is asked while calls are in flight, to make a
	 * blocking call return; it must not block
	 * @param released run once after the descriptor was closed, by the thread that closed
	 * it, e.g. to free the buffers its calls use
	 * @return its owner
	 */
	public static FileDescriptor adopt(int fd, String what, Runnable interrupt, Runnable released) {
		LibC libc = LibC.get();
		return new FileDescriptor(fd, what, libc::close, interrupt, released);
	}

	/**
	 * Start a call: return the number, valid until the matching {@link #release()}.
	 * @return the descriptor's number
	 * @throws RdmaClosedException if close was asked
	 */
	public int acquire() {
		while (true) {
			int current = this.state.get();
			if ((current & CLOSED) != 0) {
				throw new RdmaClosedException(this.what);
			}
			if (this.state.compareAndSet(current, current + CALL)) {
				return this.fd;
			}
		}
	}

	/**
	 * Start a call unless close was asked.
	 * @return the descriptor's number, or -1 if close was asked
	 */
	public int tryAcquire() {
		while (true) {
			int current = this.state.get();
			if ((current & CLOSED) != 0) {
				return -1;
			}
			if (this.state.compareAndSet(current, current + CALL)) {
				return this.fd;
			}
		}
	}

	/**
	 * End a call started by {@link #acquire()}; the last call to leave after close was
	 * asked closes the descriptor. Read {@code errno} before: closing overwrites it.
	 */
	public void release() {
		int after = this.state.addAndGet(-CALL);
		if (after < 0) {
			throw new IllegalStateException("release() without acquire() on " + this.what);
		}
		if (after == CLOSED) {
			closeNatively();
		}
	}

	/**
	 * Return whether close was asked: no call starts any more.
	 * @return {@code true} once {@link #close()} was called
	 */
	public boolean isClosed() {
		return (this.state.get() & CLOSED) != 0;
	}

	/**
	 * Return whether the descriptor was given back to the kernel.
	 * @return {@code true} once closed and no call is in flight
	 */
	public boolean isReleased() {
		return this.nativelyClosed;
	}

	/**
	 * Close the descriptor now, or when the last call in flight leaves; later calls do
	 * nothing. Never waits.
	 */
	@Override
	public void close() {
		while (true) {
			int current = this.state.get();
			if ((current & CLOSED) != 0) {
				return;
			}
			if (this.state.compareAndSet(current, current | CLOSED)) {
				if (current == 0) {
					closeNatively();
				}
				else {
					this.interrupt.run();
				}
				return;
			}
		}
	}

	// Exactly once: the state reaches CLOSED alone (closed, no call) once, and no call
	// starts after that
	private void closeNatively() {
		try {
			// the result is not checked: Linux releases the number even on EINTR or EIO
			this.nativeClose.applyAsInt(this.fd);
		}
		finally {
			this.nativelyClosed = true;
			this.released.run();
		}
	}

	@Override
	public String toString() {
		int current = this.state.get();
		String state = this.nativelyClosed ? "closed"
				: ((current & CLOSED) != 0) ? "closing, " + (current / CALL) + " call(s) in flight" : "open";
		return this.what + " (" + state + ")";
	}

}
