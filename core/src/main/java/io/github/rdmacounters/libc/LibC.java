package io.github.rdmacounters.libc;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.Errno;

/**
 * The C library calls of the native code, with their C names, and the constants they
 * share. Each returns -1 and sets {@code errno} on failure; read it with
 * {@link Native#getLastError()} right after the call, on the same thread. The ABI tests
 * compare every constant with a probe compiled against the installed headers. Internal;
 * not part of the API (public because three packages call it).
 *
 * @author rdma-counters
 */
public interface LibC extends Library {

	/** {@code AF_INET}. */
	int AF_INET = 2;

	/** {@code SOCK_DGRAM}. */
	int SOCK_DGRAM = 2;

	/** {@code SOCK_CLOEXEC}. */
	int SOCK_CLOEXEC = 0x80000;

	/** {@code F_GETFL}. */
	int F_GETFL = 3;

	/** {@code F_SETFL}. */
	int F_SETFL = 4;

	/** {@code O_NONBLOCK} (Linux, x86_64 and aarch64). */
	int O_NONBLOCK = 0x800;

	/** {@code EFD_CLOEXEC}. */
	int EFD_CLOEXEC = 0x80000;

	/** {@code EFD_NONBLOCK}. */
	int EFD_NONBLOCK = 0x800;

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

	/** {@code EINTR}: a signal interrupted the call. */
	int EINTR = 4;

	/**
	 * {@code int socket(int domain, int type, int protocol)}.
	 * @param domain the address family
	 * @param type the socket type and flags
	 * @param protocol the protocol, 0 for the default
	 * @return the file descriptor, or -1
	 */
	int socket(int domain, int type, int protocol);

	/**
	 * {@code int bind(int fd, const struct sockaddr *addr, socklen_t len)}.
	 * @param fd the socket
	 * @param addr the address
	 * @param len its size
	 * @return 0, or -1
	 */
	int bind(int fd, Pointer addr, int len);

	/**
	 * {@code int getsockname(int fd, struct sockaddr *addr, socklen_t *len)}.
	 * @param fd the socket
	 * @param addr where to write the address
	 * @param len its size, in and out
	 * @return 0, or -1
	 */
	int getsockname(int fd, Pointer addr, IntByReference len);

	/**
	 * {@code ssize_t sendto(int fd, const void *buf, size_t len, int flags, const struct
	 * sockaddr *dest, socklen_t destlen)}.
	 * @param fd the socket
	 * @param buf the bytes
	 * @param len how many
	 * @param flags {@code MSG_*} flags
	 * @param dest the destination
	 * @param destlen its size
	 * @return the number sent, or -1
	 */
	long sendto(int fd, Pointer buf, long len, int flags, Pointer dest, int destlen);

	/**
	 * {@code ssize_t recv(int fd, void *buf, size_t len, int flags)}.
	 * @param fd the socket
	 * @param buf where to write
	 * @param len its size
	 * @param flags {@code MSG_*} flags
	 * @return the datagram's length (its real length with {@code MSG_TRUNC}), or -1
	 */
	long recv(int fd, Pointer buf, long len, int flags);

	/**
	 * {@code int setsockopt(int fd, int level, int name, const void *value, socklen_t
	 * len)}.
	 * @param fd the socket
	 * @param level the level
	 * @param name the option
	 * @param value its value
	 * @param len its size
	 * @return 0, or -1
	 */
	int setsockopt(int fd, int level, int name, Pointer value, int len);

	/**
	 * {@code int ioctl(int fd, unsigned long request, void *argp)}.
	 * @param fd the file descriptor
	 * @param request the request
	 * @param argp the argument
	 * @return 0 or a positive value, or -1
	 */
	int ioctl(int fd, NativeLong request, Pointer argp);

	/**
	 * {@code int fcntl(int fd, int cmd, ...)}.
	 * @param fd the file descriptor
	 * @param cmd the command
	 * @param args its argument, if any
	 * @return the command's result, or -1
	 */
	int fcntl(int fd, int cmd, Object... args);

	/**
	 * {@code int poll(struct pollfd *fds, nfds_t nfds, int timeout)}.
	 * @param fds the descriptors, {@value #POLLFD_SIZE} bytes each
	 * @param nfds how many
	 * @param timeout the longest wait, in milliseconds
	 * @return the number ready, 0 on timeout, or -1
	 */
	int poll(Pointer fds, long nfds, int timeout);

	/**
	 * {@code int eventfd(unsigned int initval, int flags)}.
	 * @param initval the initial counter
	 * @param flags {@code EFD_*} flags
	 * @return the file descriptor, or -1
	 */
	int eventfd(int initval, int flags);

	/**
	 * {@code ssize_t write(int fd, const void *buf, size_t count)}.
	 * @param fd the file descriptor
	 * @param buf the bytes
	 * @param count how many
	 * @return the number written, or -1
	 */
	long write(int fd, Pointer buf, long count);

	/**
	 * {@code int close(int fd)}. Only {@link FileDescriptor} calls it on a descriptor it
	 * owns. On Linux the descriptor is released even when it fails with {@code EINTR}
	 * ({@code filp_close} runs first, fs/open.c), so it is never retried.
	 * @param fd the file descriptor
	 * @return 0, or -1
	 */
	int close(int fd);

	/**
	 * Return the C library, loading it on first use.
	 * @return the library
	 * @throws UnsatisfiedLinkError if it cannot be loaded
	 */
	static LibC get() {
		return Holder.get();
	}

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
