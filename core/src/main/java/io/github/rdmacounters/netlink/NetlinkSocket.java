package io.github.rdmacounters.netlink;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.ptr.IntByReference;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.core.ReadCache;
import io.github.rdmacounters.libc.FileDescriptor;
import io.github.rdmacounters.libc.LibC;
import io.github.rdmacounters.libc.Wakeup;

/**
 * A netlink socket that sends one request at a time and reads its replies: an exchange (a
 * request with {@code NLM_F_ACK}: its reply messages, then the acknowledgement) or a dump
 * ({@code NLM_F_DUMP}: multipart messages up to {@code NLMSG_DONE}, within a
 * {@link NetlinkBudget}). Every reply must carry the request's sequence number and this
 * socket's port id. An error from the kernel ({@code NLMSG_ERROR}, or {@code NLMSG_DONE}
 * with a negative error) is an {@link RdmaOperationException} and leaves the socket
 * usable; anything else that goes wrong (a broken reply, a timeout, a budget exceeded)
 * closes it, as replies still queued could not be told apart from the next request's.
 * <p>
 * Datagrams are read with {@code MSG_PEEK | MSG_TRUNC} first, so the buffer always fits
 * the next one. Thread-safe: requests are serialised. The descriptor has one owner, a
 * {@link FileDescriptor}: each request holds it for its whole run, and {@link #close()}
 * from another thread wakes a request waiting for a reply (it polls the socket with a
 * {@link Wakeup}) and leaves the closing to it, so the number is never closed under a
 * {@code recv}.
 *
 * @author rdma-counters
 */
public final class NetlinkSocket implements AutoCloseable {

	/** The initial receive buffer: the kernel sizes dumps after the largest read. */
	private static final int INITIAL_BUFFER = 32 * 1024;

	/** {@code SOL_NETLINK} (include/linux/socket.h). */
	private static final int SOL_NETLINK = 270;

	/** {@code NETLINK_ADD_MEMBERSHIP} (include/uapi/linux/netlink.h). */
	private static final int NETLINK_ADD_MEMBERSHIP = 1;

	private final LibC libc;

	private final FileDescriptor fd;

	private final Wakeup wakeup;

	private final int portId;

	private final String name;

	private final int timeoutMillis;

	private final Memory kernelAddress;

	private Memory buffer = new Memory(INITIAL_BUFFER);

	private int sequence;

	/** Joins a multicast group for a socket that is not a kernel's, else {@code null}. */
	private @Nullable IntUnaryOperator joiner;

	private NetlinkSocket(LibC libc, int fd, Wakeup wakeup, int portId, String name, Duration timeout) {
		this.libc = libc;
		this.wakeup = wakeup;
		this.fd = FileDescriptor.adopt(fd, "The " + name + " netlink socket", wakeup::signal, this::released);
		this.portId = portId;
		this.name = name;
		this.timeoutMillis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
		this.kernelAddress = new Memory(Netlink.SOCKADDR_NL_SIZE);
		this.kernelAddress.clear();
		this.kernelAddress.setShort(0, (short) Netlink.AF_NETLINK);
	}

	/**
	 * Own an open socket: on failure it is closed.
	 */
	private static NetlinkSocket create(LibC libc, int fd, int portId, String name, Duration timeout) {
		Wakeup wakeup;
		try {
			wakeup = Wakeup.open("the " + name + " netlink socket");
		}
		catch (RuntimeException ex) {
			libc.close(fd);
			throw ex;
		}
		NetlinkSocket socket = new NetlinkSocket(libc, fd, wakeup, portId, name, timeout);
		try {
			socket.setReceiveTimeout(timeout);
		}
		catch (RuntimeException ex) {
			socket.close();
			throw ex;
		}
		return socket;
	}

	/**
	 * Open and bind a netlink socket, letting the kernel choose its port id.
	 * @param protocol the netlink protocol, e.g. {@link Netlink#NETLINK_RDMA}
	 * @param name the protocol's name, for messages, e.g. {@code NETLINK_RDMA}
	 * @param timeout how long to wait for each reply datagram
	 * @return the socket
	 * @throws RdmaOperationException if the socket cannot be opened or bound, e.g. with
	 * {@code EPROTONOSUPPORT} when the kernel has no such netlink protocol
	 */
	public static NetlinkSocket open(int protocol, String name, Duration timeout) {
		LibC libc = LibC.get();
		int fd = libc.socket(Netlink.AF_NETLINK, Netlink.SOCK_RAW | Netlink.SOCK_CLOEXEC, protocol);
		if (fd < 0) {
			int errno = Native.getLastError();
			throw new RdmaOperationException("socket(AF_NETLINK, SOCK_RAW, " + name + ")", errno,
					(errno == Errno.EPROTONOSUPPORT) ? "this kernel has no " + name + " netlink" : null);
		}
		int portId;
		try (Memory address = new Memory(Netlink.SOCKADDR_NL_SIZE)) {
			address.clear();
			address.setShort(0, (short) Netlink.AF_NETLINK);
			if (libc.bind(fd, address, Netlink.SOCKADDR_NL_SIZE) != 0) {
				throw new RdmaOperationException("bind(" + name + ")", Native.getLastError());
			}
			IntByReference length = new IntByReference(Netlink.SOCKADDR_NL_SIZE);
			if (libc.getsockname(fd, address, length) != 0) {
				throw new RdmaOperationException("getsockname(" + name + ")", Native.getLastError());
			}
			// netlink_autobind (net/netlink/af_netlink.c) chose the port id
			portId = address.getInt(Netlink.SOCKADDR_NL_PID);
		}
		catch (RuntimeException ex) {
			libc.close(fd);
			throw ex;
		}
		return create(libc, fd, portId, name, timeout);
	}

	/**
	 * Take an already-open socket that speaks netlink, e.g. one end of a
	 * {@code socketpair} whose other end is a test's fake kernel. The socket is owned
	 * from now on and closed by {@link #close()}.
	 * @param fd the socket
	 * @param portId the port id its replies are addressed to
	 * @param name the protocol's name, for messages
	 * @param timeout how long to wait for each reply datagram
	 * @return the socket
	 */
	static NetlinkSocket attach(int fd, int portId, String name, Duration timeout) {
		return create(LibC.get(), fd, portId, name, timeout);
	}

	/**
	 * Take an already-open socket that speaks netlink and whose multicast membership is
	 * another's to grant, e.g. a test's fake kernel standing in for
	 * {@code setsockopt(NETLINK_ADD_MEMBERSHIP)}.
	 * @param fd the socket
	 * @param portId the port id its replies are addressed to
	 * @param name the protocol's name, for messages
	 * @param timeout how long to wait for each reply datagram
	 * @param joiner joins a group: 0, or the errno of the refusal
	 * @return the socket
	 */
	static NetlinkSocket attach(int fd, int portId, String name, Duration timeout, IntUnaryOperator joiner) {
		NetlinkSocket socket = attach(fd, portId, name, timeout);
		socket.joiner = joiner;
		return socket;
	}

	/**
	 * Return the port id replies are addressed to.
	 * @return the port id
	 */
	public int portId() {
		return this.portId;
	}

	/**
	 * Return whether this socket was closed, by {@link #close()} or after a failure.
	 * @return {@code true} once closed
	 */
	public boolean isClosed() {
		return this.fd.isClosed();
	}

	/**
	 * Send a request with {@code NLM_F_ACK} and read its replies up to the
	 * acknowledgement.
	 * @param request the request
	 * @return the messages that came before the acknowledgement
	 * @throws RdmaOperationException if the kernel answered with an error
	 * @throws NetlinkProtocolException if a reply was malformed or not ours
	 * @throws RdmaClosedException if the socket is closed
	 */
	public synchronized List<NetlinkMessage> exchange(NetlinkRequest request) {
		int socket = this.fd.acquire();
		try {
			return run(socket, request, false, NetlinkBudget.DEFAULT).messages();
		}
		finally {
			this.fd.release();
		}
	}

	/**
	 * Send a request with {@code NLM_F_DUMP} and read the dump up to {@code NLMSG_DONE}.
	 * @param request the request
	 * @param budget the most the dump may send
	 * @return the dump
	 * @throws RdmaOperationException if the kernel answered with an error
	 * @throws NetlinkBudgetExceededException if the dump was larger than the budget
	 * @throws NetlinkProtocolException if a reply was malformed or not ours
	 * @throws RdmaClosedException if the socket is closed
	 */
	public synchronized NetlinkDump dump(NetlinkRequest request, NetlinkBudget budget) {
		int socket = this.fd.acquire();
		try {
			return run(socket, request, true, budget);
		}
		finally {
			this.fd.release();
		}
	}

	// Call with the descriptor acquired
	private NetlinkDump run(int socket, NetlinkRequest request, boolean dump, NetlinkBudget budget) {
		boolean completed = false;
		// a stall names the request: the kernel answers it only when the device does
		ReadCache.reading(request.description());
		try {
			int seq = ++this.sequence;
			int flags = Netlink.NLM_F_REQUEST | (dump ? Netlink.NLM_F_DUMP : Netlink.NLM_F_ACK);
			send(socket, request.encode(flags, seq, 0), request);
			NetlinkDump result = receive(socket, request, seq, dump, budget);
			completed = true;
			return result;
		}
		catch (RdmaOperationException ex) {
			completed = ex instanceof KernelError;
			throw ex;
		}
		finally {
			if (!completed) {
				close();
			}
		}
	}

	private void send(int socket, byte[] message, NetlinkRequest request) {
		Memory memory = new Memory(message.length);
		memory.write(0, message, 0, message.length);
		long sent = this.libc.sendto(socket, memory, message.length, 0, this.kernelAddress, Netlink.SOCKADDR_NL_SIZE);
		if (sent < 0) {
			throw new RdmaOperationException("sendto(" + this.name + ") of " + request, Native.getLastError());
		}
		if (sent != message.length) {
			throw new NetlinkProtocolException(
					"sendto(" + this.name + ") sent " + sent + " of the " + message.length + " bytes of " + request);
		}
	}

	private NetlinkDump receive(int socket, NetlinkRequest request, int seq, boolean dump, NetlinkBudget budget) {
		List<NetlinkMessage> messages = new ArrayList<>();
		long bytes = 0;
		int datagrams = 0;
		boolean interrupted = false;
		while (true) {
			ByteBuffer datagram = receiveDatagram(socket, request);
			bytes += datagram.limit();
			datagrams++;
			int position = 0;
			while (datagram.limit() - position >= Netlink.NLMSG_HDRLEN) {
				int length = datagram.getInt(position);
				if (length < Netlink.NLMSG_HDRLEN || length > datagram.limit() - position) {
					throw new NetlinkProtocolException("Malformed netlink message in the reply to " + request
							+ ": its length " + length + " does not fit the " + (datagram.limit() - position)
							+ " bytes left of the datagram");
				}
				NetlinkMessage message = new NetlinkMessage(datagram, position, length);
				check(message, request, seq);
				interrupted |= (message.flags() & Netlink.NLM_F_DUMP_INTR) != 0;
				switch (message.type()) {
					case Netlink.NLMSG_NOOP -> {
					}
					case Netlink.NLMSG_ERROR -> {
						int error = message.payloadInt(0);
						if (error != 0) {
							throw new KernelError(request.description(), -error);
						}
						if (!dump) {
							return new NetlinkDump(messages, bytes, datagrams, interrupted);
						}
					}
					case Netlink.NLMSG_DONE -> {
						// netlink_dump_done (net/netlink/af_netlink.c): the dump's own
						// error
						int error = (message.payloadLength() >= 4) ? message.payloadInt(0) : 0;
						if (error < 0) {
							throw new KernelError(request.description(), -error);
						}
						if (dump) {
							return new NetlinkDump(messages, bytes, datagrams, interrupted);
						}
					}
					case Netlink.NLMSG_OVERRUN -> throw new NetlinkProtocolException(
							"The kernel reported NLMSG_OVERRUN while answering " + request);
					default -> messages.add(message);
				}
				if (messages.size() > budget.maxMessages() || bytes > budget.maxBytes()) {
					throw new NetlinkBudgetExceededException(request.description(), budget, bytes, messages.size());
				}
				position += Netlink.nlmsgAlign(length);
			}
		}
	}

	private void check(NetlinkMessage message, NetlinkRequest request, int seq) {
		if (message.portId() != this.portId) {
			throw new NetlinkProtocolException("A netlink message for port id "
					+ Integer.toUnsignedString(message.portId()) + " reached the " + this.name + " socket of port id "
					+ Integer.toUnsignedString(this.portId) + " while it waited for the reply to " + request);
		}
		if (message.sequence() != seq) {
			throw new NetlinkProtocolException(
					"A netlink message with sequence number " + Integer.toUnsignedString(message.sequence())
							+ " arrived while the " + this.name + " socket waited for the reply to " + request
							+ " (sequence number " + Integer.toUnsignedString(seq) + ")");
		}
	}

	private ByteBuffer receiveDatagram(int socket, NetlinkRequest request) {
		int peek = Netlink.MSG_PEEK | Netlink.MSG_TRUNC | Netlink.MSG_DONTWAIT;
		long size = recv(socket, peek, request);
		while (size < 0) {
			// nothing queued yet
			awaitReply(socket, request);
			size = recv(socket, peek, request);
		}
		if (size > this.buffer.size()) {
			this.buffer.close();
			this.buffer = new Memory(Netlink.nlmsgAlign((int) size));
		}
		long length = recv(socket, 0, request);
		if (length == 0) {
			throw new NetlinkProtocolException(
					"The " + this.name + " peer closed the socket before it answered " + request);
		}
		// a copy: the messages outlive the buffer, which the next datagram overwrites
		return ByteBuffer.wrap(this.buffer.getByteArray(0, (int) length)).order(ByteOrder.nativeOrder());
	}

	/**
	 * Wait for the next datagram of a reply as {@code SO_RCVTIMEO} would, but on a
	 * {@code poll} that {@link #close()} ends.
	 */
	private void awaitReply(int socket, NetlinkRequest request) {
		while (true) {
			switch (this.wakeup.await(socket, this.timeoutMillis)) {
				case READABLE -> {
					return;
				}
				case WOKEN -> throw new RdmaClosedException(
						"The " + this.name + " netlink socket waiting for the reply to " + request);
				case TIMED_OUT -> throw new RdmaOperationException("recv(" + this.name + ")", Errno.EAGAIN,
						"no reply to " + request + " in time");
				case INTERRUPTED -> {
				}
			}
		}
	}

	private long recv(int socket, int flags, NetlinkRequest request) {
		while (true) {
			long length = this.libc.recv(socket, this.buffer, this.buffer.size(), flags);
			if (length >= 0) {
				return length;
			}
			int errno = Native.getLastError();
			if (errno == LibC.EINTR) {
				continue;
			}
			if (errno == LibC.EAGAIN && (flags & Netlink.MSG_DONTWAIT) != 0) {
				return -1;
			}
			throw new RdmaOperationException("recv(" + this.name + ")", errno,
					(errno == Errno.EAGAIN) ? "no reply to " + request + " in time"
							: (errno == Errno.ENOBUFS)
									? "the socket's receive buffer overflowed and replies to " + request + " were lost"
									: "while reading the reply to " + request);
		}
	}

	private void setReceiveTimeout(Duration timeout) {
		if (timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("The netlink reply timeout must be positive, not " + timeout);
		}
		int socket = this.fd.acquire();
		try (Memory timeval = new Memory(Netlink.TIMEVAL_SIZE)) {
			timeval.setLong(0, timeout.getSeconds());
			timeval.setLong(8, timeout.getNano() / 1000);
			if (this.libc.setsockopt(socket, Netlink.SOL_SOCKET, Netlink.SO_RCVTIMEO, timeval,
					Netlink.TIMEVAL_SIZE) != 0) {
				throw new RdmaOperationException("setsockopt(" + this.name + ", SO_RCVTIMEO)", Native.getLastError());
			}
		}
		finally {
			this.fd.release();
		}
	}

	/**
	 * Join a multicast group: {@code setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP)}.
	 * {@code netlink_setsockopt} (net/netlink/af_netlink.c) refuses with {@code EPERM} a
	 * protocol whose kernel socket lacks {@code NL_CFG_F_NONROOT_RECV} unless the caller
	 * has {@code CAP_NET_ADMIN}, and with {@code EINVAL} a group above the protocol's.
	 * @param group the group, from 1
	 * @throws RdmaOperationException if the kernel refuses
	 */
	synchronized void joinGroup(int group) {
		int socket = this.fd.acquire();
		IntUnaryOperator given = this.joiner;
		int errno;
		try {
			if (given != null) {
				errno = given.applyAsInt(group);
			}
			else {
				try (Memory value = new Memory(4)) {
					value.setInt(0, group);
					errno = (this.libc.setsockopt(socket, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, value, 4) != 0)
							? Native.getLastError() : 0;
				}
			}
		}
		finally {
			this.fd.release();
		}
		if (errno != 0) {
			throw new RdmaOperationException("setsockopt(" + this.name + ", NETLINK_ADD_MEMBERSHIP, " + group + ")",
					errno);
		}
	}

	/**
	 * Wait until a datagram can be read, the time is up or {@link #close()} is called.
	 * @param timeoutMillis the longest wait
	 * @return {@code true} if this socket has a datagram (or an error) to read
	 * @throws RdmaClosedException if the socket is closed
	 * @throws RdmaOperationException if {@code poll} fails
	 */
	boolean awaitDatagram(int timeoutMillis) {
		int socket = this.fd.acquire();
		try {
			return this.wakeup.await(socket, timeoutMillis) == Wakeup.Ready.READABLE;
		}
		finally {
			this.fd.release();
		}
	}

	/**
	 * Read one datagram of notifications: the messages a kernel multicasts, which carry
	 * port id 0 and no sequence number ({@code nlmsg_multicast}, include/net/netlink.h).
	 * Messages from another port id are left out. Call it from one thread only.
	 * @param what what is read, for messages, e.g. {@code RDMA monitor events}
	 * @return the messages of the datagram
	 * @throws RdmaOperationException if {@code recv} fails, e.g. with {@code ENOBUFS}
	 * when the receive buffer overflowed and notifications were lost
	 * @throws NetlinkProtocolException if the datagram is malformed
	 */
	synchronized List<NetlinkMessage> receiveNotifications(String what) {
		int socket = this.fd.acquire();
		try {
			return notifications(socket, what);
		}
		finally {
			this.fd.release();
		}
	}

	private List<NetlinkMessage> notifications(int socket, String what) {
		long size = recvNotification(socket, Netlink.MSG_PEEK | Netlink.MSG_TRUNC, what);
		if (size > this.buffer.size()) {
			this.buffer.close();
			this.buffer = new Memory(Netlink.nlmsgAlign((int) size));
		}
		long length = recvNotification(socket, 0, what);
		if (length == 0) {
			throw new NetlinkProtocolException("The " + this.name + " peer closed the socket of " + what);
		}
		ByteBuffer datagram = ByteBuffer.wrap(this.buffer.getByteArray(0, (int) length)).order(ByteOrder.nativeOrder());
		List<NetlinkMessage> messages = new ArrayList<>();
		int position = 0;
		while (datagram.limit() - position >= Netlink.NLMSG_HDRLEN) {
			int messageLength = datagram.getInt(position);
			if (messageLength < Netlink.NLMSG_HDRLEN || messageLength > datagram.limit() - position) {
				throw new NetlinkProtocolException(
						"Malformed netlink message in " + what + ": its length " + messageLength + " does not fit the "
								+ (datagram.limit() - position) + " bytes left of the datagram");
			}
			NetlinkMessage message = new NetlinkMessage(datagram, position, messageLength);
			if (message.portId() == 0) {
				messages.add(message);
			}
			position += Netlink.nlmsgAlign(messageLength);
		}
		return messages;
	}

	private long recvNotification(int socket, int flags, String what) {
		while (true) {
			long length = this.libc.recv(socket, this.buffer, this.buffer.size(), flags);
			if (length >= 0) {
				return length;
			}
			int errno = Native.getLastError();
			if (errno != LibC.EINTR) {
				throw new RdmaOperationException("recv(" + this.name + ")", errno,
						(errno == Errno.ENOBUFS) ? "the socket's receive buffer overflowed and " + what + " were lost"
								: "while reading " + what);
			}
		}
	}

	/**
	 * Close the socket; later calls do nothing. A request in flight on another thread is
	 * woken if it waits for a reply, fails with {@link RdmaClosedException}, and closes
	 * the descriptor as it leaves; this method never waits for it.
	 */
	@Override
	public void close() {
		this.fd.close();
	}

	// Once, after the descriptor was closed and no call runs any more
	private void released() {
		this.wakeup.close();
		this.buffer.close();
		this.kernelAddress.close();
	}

	@Override
	public String toString() {
		return "NetlinkSocket[" + this.name + ", port id " + Integer.toUnsignedString(this.portId)
				+ (isClosed() ? ", closed]" : "]");
	}

	/**
	 * An error the kernel answered with; the exchange completed and the socket stays
	 * usable.
	 */
	static final class KernelError extends RdmaOperationException {

		private static final long serialVersionUID = 1L;

		KernelError(String request, int errno) {
			super(request, errno);
		}

	}

}
