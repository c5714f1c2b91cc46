package io.github.rdmacounters.netlink;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntUnaryOperator;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.ptr.IntByReference;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.core.RdmaOperationException;

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
 * the next one. Thread-safe: requests are serialised.
 *
 * @author rdma-counters
 */
public final class NetlinkSocket implements AutoCloseable {

	/** The initial receive buffer: the kernel sizes dumps after the largest read. */
	private static final int INITIAL_BUFFER = 32 * 1024;

	private static final int EINTR = 4;

	/** {@code SOL_NETLINK} (include/linux/socket.h). */
	private static final int SOL_NETLINK = 270;

	/** {@code NETLINK_ADD_MEMBERSHIP} (include/uapi/linux/netlink.h). */
	private static final int NETLINK_ADD_MEMBERSHIP = 1;

	/** {@code sizeof(struct pollfd)} and the offsets of its events and revents. */
	private static final int POLLFD_SIZE = 8;

	private static final int POLLFD_EVENTS = 4;

	private static final int POLLFD_REVENTS = 6;

	private static final short POLLIN = 1;

	private final NetlinkLibC libc;

	private final int fd;

	private final int portId;

	private final String name;

	private final AtomicBoolean closed = new AtomicBoolean();

	private final Memory kernelAddress;

	private Memory buffer = new Memory(INITIAL_BUFFER);

	private int sequence;

	/** Joins a multicast group for a socket that is not a kernel's, else {@code null}. */
	private @Nullable IntUnaryOperator joiner;

	private NetlinkSocket(NetlinkLibC libc, int fd, int portId, String name, Duration timeout) {
		this.libc = libc;
		this.fd = fd;
		this.portId = portId;
		this.name = name;
		this.kernelAddress = new Memory(Netlink.SOCKADDR_NL_SIZE);
		this.kernelAddress.clear();
		this.kernelAddress.setShort(0, (short) Netlink.AF_NETLINK);
		setReceiveTimeout(timeout);
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
		NetlinkLibC libc = NetlinkLibC.Holder.get();
		int fd = libc.socket(Netlink.AF_NETLINK, Netlink.SOCK_RAW | Netlink.SOCK_CLOEXEC, protocol);
		if (fd < 0) {
			int errno = Native.getLastError();
			throw new RdmaOperationException("socket(AF_NETLINK, SOCK_RAW, " + name + ")", errno,
					(errno == Errno.EPROTONOSUPPORT) ? "this kernel has no " + name + " netlink" : null);
		}
		try {
			Memory address = new Memory(Netlink.SOCKADDR_NL_SIZE);
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
			return new NetlinkSocket(libc, fd, address.getInt(Netlink.SOCKADDR_NL_PID), name, timeout);
		}
		catch (RuntimeException ex) {
			libc.close(fd);
			throw ex;
		}
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
		NetlinkLibC libc = NetlinkLibC.Holder.get();
		try {
			return new NetlinkSocket(libc, fd, portId, name, timeout);
		}
		catch (RuntimeException ex) {
			libc.close(fd);
			throw ex;
		}
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
		return this.closed.get();
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
		return run(request, false, NetlinkBudget.DEFAULT).messages();
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
		return run(request, true, budget);
	}

	private NetlinkDump run(NetlinkRequest request, boolean dump, NetlinkBudget budget) {
		if (this.closed.get()) {
			throw new RdmaClosedException("The " + this.name + " netlink socket");
		}
		boolean completed = false;
		try {
			int seq = ++this.sequence;
			int flags = Netlink.NLM_F_REQUEST | (dump ? Netlink.NLM_F_DUMP : Netlink.NLM_F_ACK);
			send(request.encode(flags, seq, 0), request);
			NetlinkDump result = receive(request, seq, dump, budget);
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

	private void send(byte[] message, NetlinkRequest request) {
		Memory memory = new Memory(message.length);
		memory.write(0, message, 0, message.length);
		long sent = this.libc.sendto(this.fd, memory, message.length, 0, this.kernelAddress, Netlink.SOCKADDR_NL_SIZE);
		if (sent < 0) {
			throw new RdmaOperationException("sendto(" + this.name + ") of " + request, Native.getLastError());
		}
		if (sent != message.length) {
			throw new NetlinkProtocolException(
					"sendto(" + this.name + ") sent " + sent + " of the " + message.length + " bytes of " + request);
		}
	}

	private NetlinkDump receive(NetlinkRequest request, int seq, boolean dump, NetlinkBudget budget) {
		List<NetlinkMessage> messages = new ArrayList<>();
		long bytes = 0;
		int datagrams = 0;
		boolean interrupted = false;
		while (true) {
			ByteBuffer datagram = receiveDatagram(request);
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

	private ByteBuffer receiveDatagram(NetlinkRequest request) {
		long size = recv(Netlink.MSG_PEEK | Netlink.MSG_TRUNC, request);
		if (size > this.buffer.size()) {
			this.buffer.close();
			this.buffer = new Memory(Netlink.nlmsgAlign((int) size));
		}
		long length = recv(0, request);
		if (length == 0) {
			throw new NetlinkProtocolException(
					"The " + this.name + " peer closed the socket before it answered " + request);
		}
		// a copy: the messages outlive the buffer, which the next datagram overwrites
		return ByteBuffer.wrap(this.buffer.getByteArray(0, (int) length)).order(ByteOrder.nativeOrder());
	}

	private long recv(int flags, NetlinkRequest request) {
		while (true) {
			long length = this.libc.recv(this.fd, this.buffer, this.buffer.size(), flags);
			if (length >= 0) {
				return length;
			}
			int errno = Native.getLastError();
			if (errno == EINTR) {
				continue;
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
		try (Memory timeval = new Memory(Netlink.TIMEVAL_SIZE)) {
			timeval.setLong(0, timeout.getSeconds());
			timeval.setLong(8, timeout.getNano() / 1000);
			if (this.libc.setsockopt(this.fd, Netlink.SOL_SOCKET, Netlink.SO_RCVTIMEO, timeval,
					Netlink.TIMEVAL_SIZE) != 0) {
				throw new RdmaOperationException("setsockopt(" + this.name + ", SO_RCVTIMEO)", Native.getLastError());
			}
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
		if (this.closed.get()) {
			throw new RdmaClosedException("The " + this.name + " netlink socket");
		}
		IntUnaryOperator given = this.joiner;
		int errno;
		if (given != null) {
			errno = given.applyAsInt(group);
		}
		else {
			try (Memory value = new Memory(4)) {
				value.setInt(0, group);
				errno = (this.libc.setsockopt(this.fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, value, 4) != 0)
						? Native.getLastError() : 0;
			}
		}
		if (errno != 0) {
			throw new RdmaOperationException("setsockopt(" + this.name + ", NETLINK_ADD_MEMBERSHIP, " + group + ")",
					errno);
		}
	}

	/**
	 * Wait until a datagram can be read or another descriptor is signalled.
	 * @param wakeFd a descriptor that ends the wait when readable, e.g. an eventfd
	 * @param timeoutMillis the longest wait
	 * @return {@code true} if this socket has a datagram (or an error) to read
	 * @throws RdmaOperationException if {@code poll} fails
	 */
	boolean awaitDatagram(int wakeFd, int timeoutMillis) {
		try (Memory fds = new Memory(2L * POLLFD_SIZE)) {
			fds.clear();
			fds.setInt(0, this.fd);
			fds.setShort(POLLFD_EVENTS, POLLIN);
			fds.setInt(POLLFD_SIZE, wakeFd);
			fds.setShort(POLLFD_SIZE + POLLFD_EVENTS, POLLIN);
			int ready = this.libc.poll(fds, 2, timeoutMillis);
			if (ready < 0) {
				int errno = Native.getLastError();
				if (errno == EINTR) {
					return false;
				}
				throw new RdmaOperationException("poll(" + this.name + ")", errno);
			}
			return ready > 0 && fds.getShort(POLLFD_REVENTS) != 0;
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
		if (this.closed.get()) {
			throw new RdmaClosedException("The " + this.name + " netlink socket");
		}
		long size = recvNotification(Netlink.MSG_PEEK | Netlink.MSG_TRUNC, what);
		if (size > this.buffer.size()) {
			this.buffer.close();
			this.buffer = new Memory(Netlink.nlmsgAlign((int) size));
		}
		long length = recvNotification(0, what);
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

	private long recvNotification(int flags, String what) {
		while (true) {
			long length = this.libc.recv(this.fd, this.buffer, this.buffer.size(), flags);
			if (length >= 0) {
				return length;
			}
			int errno = Native.getLastError();
			if (errno != EINTR) {
				throw new RdmaOperationException("recv(" + this.name + ")", errno,
						(errno == Errno.ENOBUFS) ? "the socket's receive buffer overflowed and " + what + " were lost"
								: "while reading " + what);
			}
		}
	}

	/**
	 * Close the socket; later calls do nothing.
	 */
	@Override
	public void close() {
		if (this.closed.compareAndSet(false, true)) {
			this.libc.close(this.fd);
		}
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
