package io.github.rdmacounters.verbs;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.Errno;

/**
 * The few C library functions the event reader needs, with their C names: the async event
 * file descriptor of a context is made non-blocking with {@code fcntl} and waited on with
 * {@code poll}; an {@code eventfd} wakes the reader when the device closes. Functions
 * return -1 and set {@code errno} on failure.
 *
 * @author rdma-counters
 */
interface LibC extends Library {

	/** {@code F_GETFL}. */
	int F_GETFL = 3;

	/** {@code F_SETFL}. */
	int F_SETFL = 4;

	/** {@code O_NONBLOCK} (Linux, x86_64 and aarch64). */
	int O_NONBLOCK = 2048;

	/** {@code EFD_CLOEXEC}. */
	int EFD_CLOEXEC = 524288;

	/** {@code POLLIN}. */
	short POLLIN = 1;

	/** {@code sizeof(struct pollfd)}. */
	int POLLFD_SIZE = 8;

	/** {@code offsetof(struct pollfd, events)}. */
	int POLLFD_EVENTS = 4;

	/** {@code offsetof(struct pollfd, revents)}. */
	int POLLFD_REVENTS = 6;

	/** {@code EAGAIN}. */
	int EAGAIN = Errno.EAGAIN;

	/** {@code EINTR}. */
	int EINTR = 4;

	/**
	 * {@code int fcntl(int fd, int cmd, ...)}.
	 * @param fd the file descriptor
	 * @param cmd the command
	 * @param args the argument, if the command takes one
	 * @return the result, or -1 with errno set
	 */
	int fcntl(int fd, int cmd, Object... args);

	/**
	 * {@code int poll(struct pollfd *fds, nfds_t nfds, int timeout)}.
	 * @param fds the array of {@code struct pollfd}
	 * @param nfds the number of entries
	 * @param timeout the timeout in milliseconds
	 * @return the number of ready entries, 0 on timeout, or -1 with errno set
	 */
	int poll(Pointer fds, long nfds, int timeout);

	/**
	 * {@code int eventfd(unsigned int initval, int flags)}.
	 * @param initval the initial value
	 * @param flags {@code EFD_*} flags
	 * @return the file descriptor, or -1 with errno set
	 */
	int eventfd(int initval, int flags);

	/**
	 * {@code ssize_t write(int fd, const void *buf, size_t count)}.
	 * @param fd the file descriptor
	 * @param buf the bytes
	 * @param count how many
	 * @return the number written, or -1 with errno set
	 */
	long write(int fd, Pointer buf, long count);

	/**
	 * {@code int close(int fd)}.
	 * @param fd the file descriptor
	 * @return 0, or -1 with errno set
	 */
	int close(int fd);

	/**
	 * The C library, loaded on first use.
	 */
	final class Holder {

		private static volatile @Nullable LibC instance;

		private Holder() {
		}

		static LibC get() {
			LibC current = instance;
			if (current == null) {
				current = Native.load("c", LibC.class);
				instance = current;
			}
			return current;
		}

	}

}
