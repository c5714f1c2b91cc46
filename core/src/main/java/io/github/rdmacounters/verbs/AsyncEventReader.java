package io.github.rdmacounters.verbs;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.concurrent.locks.Lock;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.DeviceEvent;
import io.github.rdmacounters.core.DeviceEventListeners;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.verbs.IbvHandles.IbvContext;

/**
 * The daemon thread that reads the asynchronous events of one open context, as
 * {@code ibv_get_async_event(3)} shows: {@code async_fd} made non-blocking, polled with
 * an {@code eventfd} that {@link #stop()} signals, drained until {@code EAGAIN}. Each
 * event is read and acknowledged under the device's read lock (destroying a QP or CQ
 * waits for its events' acknowledgement); listeners are called after, outside the lock.
 * The device stops and joins the reader before closing the context.
 */
final class AsyncEventReader implements Runnable {

	static final String THREAD_PREFIX = "rdma-events-";

	static final int POLL_TIMEOUT_MILLIS = 100;

	private static final Logger logger = System.getLogger(AsyncEventReader.class.getName());

	private final NativeDevice device;

	private final IbvLibrary lib;

	private final IbvContext context;

	private final DeviceEventListeners listeners;

	private final LibC libc;

	private final int asyncFd;

	private final int wakeFd;

	private final Memory event = new Memory(IbvLibrary.ASYNC_EVENT_SIZE);

	private final Memory pollFds = new Memory(2L * LibC.POLLFD_SIZE);

	private final Thread thread;

	private volatile boolean running = true;

	// Guarded by this object
	private boolean wakeClosed;

	private AsyncEventReader(NativeDevice device, IbvLibrary lib, IbvContext context, DeviceEventListeners listeners,
			LibC libc, int asyncFd, int wakeFd) {
		this.device = device;
		this.lib = lib;
		this.context = context;
		this.listeners = listeners;
		this.libc = libc;
		this.asyncFd = asyncFd;
		this.wakeFd = wakeFd;
		this.thread = new Thread(this, THREAD_PREFIX + device.name());
		this.thread.setDaemon(true);
	}

	// Call with a device lock held, on an open context
	static AsyncEventReader start(NativeDevice device, IbvLibrary lib, IbvContext context,
			DeviceEventListeners listeners) {
		LibC libc = LibC.Holder.get();
		int fd = context.getPointer().getInt(IbvLibrary.CONTEXT_ASYNC_FD);
		int flags = libc.fcntl(fd, LibC.F_GETFL);
		if (flags < 0 || libc.fcntl(fd, LibC.F_SETFL, flags | LibC.O_NONBLOCK) < 0) {
			throw Verbs.failure("fcntl", Native.getLastError(),
					"making the async event descriptor of " + device.name() + " non-blocking");
		}
		int wake = libc.eventfd(0, LibC.EFD_CLOEXEC | LibC.O_NONBLOCK);
		if (wake < 0) {
			throw Verbs.failure("eventfd", Native.getLastError(), "event reader of " + device.name());
		}
		AsyncEventReader reader = new AsyncEventReader(device, lib, context, listeners, libc, fd, wake);
		reader.thread.start();
		return reader;
	}

	@Override
	public void run() {
		try {
			while (this.running) {
				this.pollFds.setInt(0, this.asyncFd);
				this.pollFds.setShort(LibC.POLLFD_EVENTS, LibC.POLLIN);
				this.pollFds.setShort(LibC.POLLFD_REVENTS, (short) 0);
				this.pollFds.setInt(LibC.POLLFD_SIZE, this.wakeFd);
				this.pollFds.setShort(LibC.POLLFD_SIZE + LibC.POLLFD_EVENTS, LibC.POLLIN);
				this.pollFds.setShort(LibC.POLLFD_SIZE + LibC.POLLFD_REVENTS, (short) 0);
				int ready = this.libc.poll(this.pollFds, 2, POLL_TIMEOUT_MILLIS);
				if (ready < 0) {
					int errno = Native.getLastError();
					if (errno == LibC.EINTR) {
						continue;
					}
					logger.log(Level.WARNING, "Stopped reading the RDMA events of " + this.device.name() + ": "
							+ Verbs.failure("poll", errno, null).getMessage());
					return;
				}
				if (ready > 0 && this.running && this.pollFds.getShort(LibC.POLLFD_REVENTS) != 0) {
					drain();
				}
			}
		}
		catch (RuntimeException | Error ex) {
			logger.log(Level.ERROR, "The RDMA event reader of " + this.device.name() + " failed", ex);
		}
		finally {
			synchronized (this) {
				this.running = false;
				this.wakeClosed = true;
				this.libc.close(this.wakeFd);
			}
		}
	}

	private void drain() {
		while (this.running) {
			@Nullable DeviceEvent next;
			Lock readLock = this.device.readLock();
			readLock.lock();
			try {
				if (this.device.isClosed()) {
					return;
				}
				if (this.lib.ibv_get_async_event(this.context, this.event) != 0) {
					int errno = Native.getLastError();
					if (errno != Errno.EAGAIN && errno != LibC.EINTR) {
						// e.g. EIO once the device is disassociated
						logger.log(Level.DEBUG, "No more RDMA events from " + this.device.name() + ": "
								+ Verbs.failure("ibv_get_async_event", errno, null).getMessage());
						this.running = false;
					}
					return;
				}
				int type = this.event.getInt(IbvLibrary.ASYNC_EVENT_EVENT_TYPE);
				int port = this.event.getInt(IbvLibrary.ASYNC_EVENT_ELEMENT);
				next = toEvent(type, port);
				this.lib.ibv_ack_async_event(this.event);
			}
			finally {
				readLock.unlock();
			}
			if (next != null) {
				this.listeners.publish(next);
			}
		}
	}

	private @Nullable DeviceEvent toEvent(int nativeType, int port) {
		DeviceEvent.Type type = DeviceEvent.Type.of(nativeType);
		if (type == null) {
			logger.log(Level.DEBUG, "Acknowledged RDMA event " + nativeType + " of " + this.device.name());
			return null;
		}
		if (type.isPortEvent() && (port < 1 || port > PortAttributes.MAX_PORT)) {
			logger.log(Level.DEBUG, "Dropped " + type.verbsName() + " of " + this.device.name()
					+ " for a port number out of range: " + port);
			return null;
		}
		return new DeviceEvent(this.device.name(), type.isPortEvent() ? port : 0, type, Instant.now());
	}

	// Waits for the thread unless called by it (a listener closing the device)
	void stop() {
		synchronized (this) {
			this.running = false;
			if (!this.wakeClosed) {
				Memory one = new Memory(8);
				one.setLong(0, 1);
				this.libc.write(this.wakeFd, one, 8);
			}
		}
		if (Thread.currentThread() != this.thread) {
			boolean interrupted = false;
			while (this.thread.isAlive()) {
				try {
					this.thread.join();
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
			}
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
