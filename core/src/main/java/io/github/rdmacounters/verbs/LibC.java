package io.github.rdmacounters.verbs;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.Errno;

/**
 * The C library functions the event reader needs, with their C names: {@code fcntl} makes
 * the async event descriptor non-blocking, {@code poll} waits on it and an
 * {@code eventfd} wakes the reader at close. Functions return -1 and set {@code errno}.
 */
interface LibC extends Library {

	int F_GETFL = 3;

	int F_SETFL = 4;

	/** Linux, x86_64 and aarch64. */
	int O_NONBLOCK = 2048;

	int EFD_CLOEXEC = 524288;

	short POLLIN = 1;

	/** {@code sizeof(struct pollfd)} and its field offsets. */
	int POLLFD_SIZE = 8;

	int POLLFD_EVENTS = 4;

	int POLLFD_REVENTS = 6;

	int EAGAIN = Errno.EAGAIN;

	int EINTR = 4;

	int fcntl(int fd, int cmd, Object... args);

	int poll(Pointer fds, long nfds, int timeout);

	int eventfd(int initval, int flags);

	long write(int fd, Pointer buf, long count);

	int close(int fd);

	/** The C library, loaded on first use. */
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
