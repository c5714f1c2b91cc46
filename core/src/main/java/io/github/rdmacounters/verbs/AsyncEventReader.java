package io.github.rdmacounters.verbs;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.locks.Lock;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.DeviceEvent;
import io.github.rdmacounters.core.DeviceEventListeners;
import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.libc.LibC;
import io.github.rdmacounters.libc.Wakeup;
import io.github.rdmacounters.verbs.IbvHandles.IbvContext;

/**
 * The daemon thread that reads the asynchronous events of one open context, as
 * {@code ibv_get_async_event(3)} shows: {@code async_fd} made non-blocking, polled with a
 * {@link Wakeup} that {@link #stop()} signals, drained until {@code EAGAIN}. Each event
 * is read and acknowledged under the device's read lock (destroying a QP or CQ waits for
 * its events' acknowledgement); listeners are called after, outside the lock. The device
 * stops the reader and waits for it at most {@link NativeBackend#EVENT_LISTENERS_WAIT}
 * before closing the context. The reader owns its wake-up, closed once, by the thread as
 * it ends; {@code async_fd} is the context's, closed by {@code ibv_close_device}.
 */
final class AsyncEventReader implements Runnable {

	static final String THREAD_PREFIX = "rdma-events-";

	static final int POLL_TIMEOUT_MILLIS = 100;

	private static final Logger logger = System.getLogger(AsyncEventReader.class.getName());

	private final NativeDevice device;

	private final IbvLibrary lib;

	private final IbvContext context;

	private final DeviceEventListeners listeners;

	private final int asyncFd;

	private final Wakeup wakeup;

	private final Memory event = new Memory(IbvLibrary.ASYNC_EVENT_SIZE);

	private final Thread thread;

	private volatile boolean running = true;

	private AsyncEventReader(NativeDevice device, IbvLibrary lib, IbvContext context, DeviceEventListeners listeners,
			int asyncFd, Wakeup wakeup) {
		this.device = device;
		this.lib = lib;
		this.context = context;
		this.listeners = listeners;
		this.asyncFd = asyncFd;
		this.wakeup = wakeup;
		this.thread = new Thread(this, THREAD_PREFIX + device.name());
		this.thread.setDaemon(true);
	}

	// Call with a device lock held, on an open context
	static AsyncEventReader start(NativeDevice device, IbvLibrary lib, IbvContext context,
			DeviceEventListeners listeners) {
		LibC libc = LibC.get();
		int fd = context.getPointer().getInt(IbvLibrary.CONTEXT_ASYNC_FD);
		int flags = libc.fcntl(fd, LibC.F_GETFL);
		if (flags < 0 || libc.fcntl(fd, LibC.F_SETFL, flags | LibC.O_NONBLOCK) < 0) {
			throw Verbs.failure("fcntl", Native.getLastError(),
					"making the async event descriptor of " + device.name() + " non-blocking");
		}
		Wakeup wakeup = Wakeup.open("the event reader of " + device.name());
		AsyncEventReader reader = new AsyncEventReader(device, lib, context, listeners, fd, wakeup);
		reader.thread.start();
		return reader;
	}

	@Override
	public void run() {
		try {
			while (this.running) {
				Wakeup.Ready ready;
				try {
					// async_fd stays open while running: stop() clears it and signals the
					// wake-up before it waits, and a thread that outlives the wait is in
					// a listener, which it leaves to find running false
					ready = this.wakeup.await(this.asyncFd, POLL_TIMEOUT_MILLIS);
				}
				catch (RdmaOperationException ex) {
					logger.log(Level.WARNING,
							"Stopped reading the RDMA events of " + this.device.name() + ": " + ex.getMessage());
					return;
				}
				if (ready == Wakeup.Ready.READABLE && this.running) {
					drain();
				}
			}
		}
		catch (RuntimeException | Error ex) {
			logger.log(Level.ERROR, "The RDMA event reader of " + this.device.name() + " failed", ex);
		}
		finally {
			this.running = false;
			this.wakeup.close();
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
					if (errno != LibC.EAGAIN && errno != LibC.EINTR) {
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

	// Waits at most NativeBackend.EVENT_LISTENERS_WAIT, not when called by the thread
	// (a listener closing the device). Its native calls need no longer wait: each runs
	// under the device's read lock after a check that the device is open, and the context
	// is closed under the write lock, so a thread still in a listener then finds the
	// device closed (or running false) and ends without another call.
	void stop() {
		this.running = false;
		this.wakeup.signal();
		if (Thread.currentThread() == this.thread) {
			return;
		}
		Duration wait = NativeBackend.EVENT_LISTENERS_WAIT;
		try {
			this.thread.join(Math.max(1, wait.toMillis()));
		}
		catch (InterruptedException ex) {
			// the caller stops waiting: the thread ends by itself, as after the wait
			Thread.currentThread().interrupt();
		}
		if (this.thread.isAlive()) {
			logger.log(Level.WARNING, "The RDMA event reader of " + this.device.name() + " is still in a listener "
					+ wait.toMillis() + " ms after the device was closed; it reads no more events and ends by itself");
		}
	}

}
