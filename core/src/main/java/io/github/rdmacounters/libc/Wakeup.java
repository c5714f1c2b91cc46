package io.github.rdmacounters.libc;

import com.sun.jna.Memory;
import com.sun.jna.Native;

import io.github.rdmacounters.core.RdmaOperationException;

/**
 * An {@code eventfd} that ends a {@code poll} on another descriptor from another thread,
 * so that a call blocked in it returns at close. Once {@link #signal() signalled} it
 * stays readable: every later {@link #await} returns {@link Ready#WOKEN} at once. The
 * eventfd has its own {@link FileDescriptor}; close it after the calls that poll it.
 *
 * @author rdma-counters
 */
public final class Wakeup implements AutoCloseable {

	private final LibC libc;

	private final FileDescriptor eventFd;

	/** Two {@code struct pollfd}, reused by each wait; freed by the garbage collector. */
	private final Memory pollFds = new Memory(2L * LibC.POLLFD_SIZE);

	private Wakeup(LibC libc, FileDescriptor eventFd) {
		this.libc = libc;
		this.eventFd = eventFd;
	}

	/**
	 * Open a wake-up.
	 * @param what what it wakes, for messages, e.g. {@code rdma-monitor}
	 * @return the wake-up
	 * @throws RdmaOperationException if {@code eventfd} fails
	 */
	public static Wakeup open(String what) {
		LibC libc = LibC.get();
		int fd = libc.eventfd(0, LibC.EFD_CLOEXEC | LibC.EFD_NONBLOCK);
		if (fd < 0) {
			throw new RdmaOperationException("eventfd(" + what + ")", Native.getLastError());
		}
		return new Wakeup(libc, FileDescriptor.adopt(fd, "The wake-up eventfd of " + what));
	}

	/**
	 * Wait until a descriptor is readable, this wake-up was signalled, or the time is up.
	 * Waits are serialised; {@link #signal()} does not wait for them.
	 * @param fd a descriptor the caller keeps open during the wait
	 * @param timeoutMillis the longest wait, in milliseconds
	 * @return what ended the wait
	 * @throws RdmaOperationException if {@code poll} fails other than with {@code EINTR}
	 */
	public synchronized Ready await(int fd, int timeoutMillis) {
		int wake = this.eventFd.tryAcquire();
		if (wake < 0) {
			return Ready.WOKEN;
		}
		try {
			Memory fds = this.pollFds;
			fds.clear();
			fds.setInt(0, fd);
			fds.setShort(LibC.POLLFD_EVENTS, LibC.POLLIN);
			fds.setInt(LibC.POLLFD_SIZE, wake);
			fds.setShort(LibC.POLLFD_SIZE + LibC.POLLFD_EVENTS, LibC.POLLIN);
			int ready = this.libc.poll(fds, 2, timeoutMillis);
			if (ready < 0) {
				int errno = Native.getLastError();
				if (errno == LibC.EINTR) {
					return Ready.INTERRUPTED;
				}
				throw new RdmaOperationException("poll", errno);
			}
			if (fds.getShort(LibC.POLLFD_SIZE + LibC.POLLFD_REVENTS) != 0) {
				return Ready.WOKEN;
			}
			// POLLIN, or POLLERR/POLLHUP, which the next read reports
			return (ready > 0) ? Ready.READABLE : Ready.TIMED_OUT;
		}
		finally {
			this.eventFd.release();
		}
	}

	/**
	 * Wake every wait, now and later; does nothing once closed. Never blocks (the eventfd
	 * is non-blocking; its counter cannot overflow with one write per close).
	 */
	public void signal() {
		int fd = this.eventFd.tryAcquire();
		if (fd < 0) {
			return;
		}
		try (Memory one = new Memory(8)) {
			one.setLong(0, 1);
			this.libc.write(fd, one, 8);
		}
		finally {
			this.eventFd.release();
		}
	}

	/**
	 * Close the eventfd, now or when the last wait on it returns.
	 */
	@Override
	public void close() {
		this.eventFd.close();
	}

	@Override
	public String toString() {
		return this.eventFd.toString();
	}

	/**
	 * What ended a wait.
	 */
	public enum Ready {

		/** The descriptor has data, an error or a hang-up to read. */
		READABLE,

		/** The wake-up was signalled or closed. */
		WOKEN,

		/** The time was up. */
		TIMED_OUT,

		/** A signal interrupted {@code poll} ({@code EINTR}): wait again. */
		INTERRUPTED

	}

}
