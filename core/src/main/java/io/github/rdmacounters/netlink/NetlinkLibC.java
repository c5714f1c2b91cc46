package io.github.rdmacounters.netlink;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import org.jspecify.annotations.Nullable;

/**
 * The socket calls of the C library the netlink client makes, with their C names. Each
 * returns -1 and sets {@code errno} on failure.
 *
 * @author rdma-counters
 */
interface NetlinkLibC extends Library {

	/**
	 * {@code int socket(int domain, int type, int protocol)}.
	 * @param domain the address family
	 * @param type the socket type and flags
	 * @param protocol the protocol
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
	 * {@code int close(int fd)}.
	 * @param fd the file descriptor
	 * @return 0, or -1
	 */
	int close(int fd);

	/**
	 * {@code int poll(struct pollfd *fds, nfds_t nfds, int timeout)}.
	 * @param fds the descriptors, {@code struct pollfd} each (8 bytes)
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
	 * The C library, loaded on first use.
	 */
	final class Holder {

		private static volatile @Nullable NetlinkLibC instance;

		private Holder() {
		}

		static NetlinkLibC get() {
			NetlinkLibC current = instance;
			if (current == null) {
				current = Native.load("c", NetlinkLibC.class);
				instance = current;
			}
			return current;
		}

	}

}
