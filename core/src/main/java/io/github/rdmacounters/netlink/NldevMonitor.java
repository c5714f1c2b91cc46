package io.github.rdmacounters.netlink;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.RdmaOperationException;

/**
 * Follows RDMA netlink's monitor (Linux 6.12 and later): a daemon thread,
 * {@code rdma-monitor}, reads the events the kernel multicasts to the
 * {@code RDMA_NL_GROUP_NOTIFY} group on a socket of its own (a device registered,
 * unregistered or renamed, a netdev attached to a port, detached or renamed) and passes
 * each to a {@link Listener}, so hotplug is seen when it happens instead of at the next
 * read.
 * <p>
 * {@link #start} first asks the kernel whether it has the monitor
 * ({@code RDMA_NLDEV_CMD_SYS_GET} answers {@code RDMA_NLDEV_SYS_ATTR_MONITOR_MODE} since
 * commit 12fb1153c53b, "RDMA/nldev: Expose whether RDMA monitoring is supported"), then
 * joins the group; any user may join it there, as {@code rdma_nl_net_init} creates the
 * kernel socket with {@code NL_CFG_F_NONROOT_RECV} since the same release. Where either
 * step fails (no RDMA netlink, an older kernel, a refused join), one INFO line says why
 * and no monitor runs: devices are then discovered at each read, as without it.
 * <p>
 * The monitor owns its socket: {@link #close()} closes it, which wakes the thread's poll
 * (the socket's descriptor is closed once the thread's call on it returns), and waits for
 * the thread at most {@link #CLOSE_WAIT}: a listener that is still busy then (listing the
 * host's devices while a sysfs file stalls) ends by itself, as the thread finds the
 * monitor closed and delivers nothing more; one WARNING line says so. A malformed message
 * or an unknown event type is skipped with a DEBUG line. Thread-safe.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public final class NldevMonitor implements AutoCloseable {

	/** The name of the monitor's thread. */
	public static final String THREAD_NAME = "rdma-monitor";

	/**
	 * {@code RDMA_NL_GROUP_NOTIFY}: the multicast group of the monitor's events
	 * ({@code include/uapi/rdma/rdma_netlink.h}, Linux 6.12, commit 9cbed5aab5ae
	 * "RDMA/nldev: Add support for RDMA monitoring"; not in the 6.1 header of Debian 12).
	 */
	public static final int RDMA_NL_GROUP_NOTIFY = 4;

	/** {@code RDMA_NLDEV_CMD_SYS_GET}: the RDMA subsystem's settings (Linux 5.2). */
	public static final int CMD_SYS_GET = 6;

	/** {@code RDMA_NLDEV_CMD_MONITOR}: the type of the monitor's events (Linux 6.12). */
	public static final int CMD_MONITOR = 28;

	/** {@code RDMA_NLDEV_ATTR_NDEV_INDEX} (u32): a netdev's interface index. */
	public static final int ATTR_NDEV_INDEX = 50;

	/** {@code RDMA_NLDEV_ATTR_NDEV_NAME} (string): a netdev's name. */
	public static final int ATTR_NDEV_NAME = 51;

	/**
	 * {@code RDMA_NLDEV_ATTR_EVENT_TYPE} (u8): {@code enum rdma_nl_notify_event_type}.
	 */
	public static final int ATTR_EVENT_TYPE = 102;

	/** {@code RDMA_NLDEV_SYS_ATTR_MONITOR_MODE} (u8): 1 where the monitor exists. */
	public static final int SYS_ATTR_MONITOR_MODE = 103;

	static final int POLL_TIMEOUT_MILLIS = 100;

	/**
	 * How long {@link #close()} waits for the monitor's thread: the netlink deadline
	 * ({@link RdmaNetlink#DEFAULT_TIMEOUT}), so that a shutdown never waits on a stalled
	 * listener for longer than on a stalled netlink request.
	 */
	public static final Duration CLOSE_WAIT = RdmaNetlink.DEFAULT_TIMEOUT;

	private static final Logger logger = System.getLogger(NldevMonitor.class.getName());

	private static final String WHAT = "RDMA monitor events";

	private final NetlinkSocket socket;

	private final Listener listener;

	private final Clock clock;

	private final Thread thread;

	private final AtomicBoolean closed = new AtomicBoolean();

	private final Duration closeWait;

	private volatile boolean running = true;

	private NldevMonitor(NetlinkSocket socket, Listener listener, Clock clock, Duration closeWait) {
		this.socket = socket;
		this.listener = listener;
		this.clock = clock;
		this.closeWait = closeWait;
		this.thread = new Thread(this::run, THREAD_NAME);
		this.thread.setDaemon(true);
	}

	/**
	 * Start following the kernel's monitor on a {@code NETLINK_RDMA} socket of this
	 * thread's network namespace; where it cannot, log one INFO line.
	 * @param listener receives the events, on the monitor's thread
	 * @return the monitor, or {@code null} if the kernel cannot give the events
	 */
	public static @Nullable NldevMonitor start(Listener listener) {
		return start(listener, (message) -> logger.log(Level.INFO, message));
	}

	/**
	 * Start following the kernel's monitor on a {@code NETLINK_RDMA} socket of this
	 * thread's network namespace.
	 * @param listener receives the events, on the monitor's thread
	 * @param info where the one line goes that says why no monitor runs
	 * @return the monitor, or {@code null} if the kernel cannot give the events
	 */
	public static @Nullable NldevMonitor start(Listener listener, Consumer<String> info) {
		return start(() -> NetlinkSocket.open(Netlink.NETLINK_RDMA, "NETLINK_RDMA", RdmaNetlink.DEFAULT_TIMEOUT),
				listener, info, Clock.systemUTC());
	}

	/**
	 * Start following the monitor on a socket the opener gives.
	 * @param opener opens the socket, which the monitor owns from then on
	 * @param listener receives the events, on the monitor's thread
	 * @param info where the one line goes that says why no monitor runs
	 * @param clock stamps the events
	 * @return the monitor, or {@code null} if the kernel cannot give the events
	 */
	public static @Nullable NldevMonitor start(Supplier<NetlinkSocket> opener, Listener listener, Consumer<String> info,
			Clock clock) {
		return start(opener, listener, info, clock, CLOSE_WAIT);
	}

	// closeWait: how long close() waits for the thread (CLOSE_WAIT but in tests)
	static @Nullable NldevMonitor start(Supplier<NetlinkSocket> opener, Listener listener, Consumer<String> info,
			Clock clock, Duration closeWait) {
		Objects.requireNonNull(listener, "listener");
		NetlinkSocket socket;
		try {
			socket = opener.get();
		}
		catch (RuntimeException ex) {
			info.accept("RDMA devices are discovered at each read: RDMA netlink cannot be opened for its monitor ("
					+ ex.getMessage() + ")");
			return null;
		}
		try {
			if (!hasMonitor(socket)) {
				info.accept("RDMA devices are discovered at each read: this kernel has no RDMA netlink monitor "
						+ "(RDMA_NLDEV_CMD_MONITOR, Linux 6.12 and later), so hotplug is seen at the next read");
				socket.close();
				return null;
			}
			socket.joinGroup(RDMA_NL_GROUP_NOTIFY);
			NldevMonitor monitor = new NldevMonitor(socket, listener, clock, closeWait);
			monitor.thread.start();
			return monitor;
		}
		catch (RuntimeException ex) {
			socket.close();
			String reason = (ex instanceof RdmaOperationException failure && failure.errno() == Errno.EPERM)
					? "joining its notify group was refused with EPERM (" + ex.getMessage() + ")" : ex.getMessage();
			info.accept(
					"RDMA devices are discovered at each read: RDMA netlink's monitor cannot be followed: " + reason);
			return null;
		}
	}

	/**
	 * Ask the kernel whether it sends monitor events ({@code nldev_sys_get_doit}).
	 */
	private static boolean hasMonitor(NetlinkSocket socket) {
		NetlinkRequest request = NetlinkRequest.builder(RdmaNldev.type(CMD_SYS_GET), "RDMA_NLDEV_CMD_SYS_GET").build();
		List<NetlinkMessage> replies;
		try {
			replies = socket.exchange(request);
		}
		catch (NetlinkSocket.KernelError ex) {
			// rdma_nl_rcv_msg: EINVAL for an op the kernel does not have (before 5.2)
			return false;
		}
		for (NetlinkMessage reply : replies) {
			NetlinkAttribute mode = reply.attributes(0).get(SYS_ATTR_MONITOR_MODE);
			if (mode != null && mode.u8() == 1) {
				return true;
			}
		}
		return false;
	}

	private void run() {
		try {
			while (this.running) {
				if (!this.socket.awaitDatagram(POLL_TIMEOUT_MILLIS) || !this.running) {
					continue;
				}
				List<NetlinkMessage> messages;
				try {
					messages = this.socket.receiveNotifications(WHAT);
				}
				catch (RdmaOperationException ex) {
					if (ex.errno() != Errno.ENOBUFS) {
						throw ex;
					}
					logger.log(Level.INFO, "Some " + WHAT + " were lost (" + ex.getMessage()
							+ "); RDMA devices are discovered again at the next read");
					deliverLost();
					continue;
				}
				for (NetlinkMessage message : messages) {
					NldevMonitorEvent event = decode(message, this.clock);
					// closed while the listener had an earlier one: no more
					if (event != null && this.running) {
						deliver(event);
					}
				}
			}
		}
		catch (RuntimeException | Error ex) {
			if (this.running) {
				logger.log(Level.WARNING, "Stopped following RDMA netlink's monitor: " + ex.getMessage()
						+ "; RDMA devices are discovered at each read", ex);
			}
		}
	}

	/**
	 * Decode one message; {@code null} (with a DEBUG line) for one that is not a monitor
	 * event or cannot be read.
	 * @param message the message
	 * @param clock stamps the event
	 * @return the event, or {@code null}
	 */
	static @Nullable NldevMonitorEvent decode(NetlinkMessage message, Clock clock) {
		if (message.type() != RdmaNldev.type(CMD_MONITOR)) {
			logger.log(Level.DEBUG, "Skipped a netlink message of type " + message.type() + " among the " + WHAT);
			return null;
		}
		try {
			NetlinkAttributes attributes = message.attributes(0);
			NetlinkAttribute typeAttribute = attributes.get(ATTR_EVENT_TYPE);
			if (typeAttribute == null) {
				logger.log(Level.DEBUG, "Skipped an RDMA monitor event without RDMA_NLDEV_ATTR_EVENT_TYPE: " + message);
				return null;
			}
			NldevMonitorEvent.Type type = NldevMonitorEvent.Type.of(typeAttribute.u8());
			if (type == null) {
				logger.log(Level.DEBUG,
						"Skipped an RDMA monitor event of unknown type " + typeAttribute.u8() + " (a newer kernel's)");
				return null;
			}
			NetlinkAttribute deviceIndex = attributes.get(RdmaNldev.ATTR_DEV_INDEX);
			NetlinkAttribute deviceName = attributes.get(RdmaNldev.ATTR_DEV_NAME);
			NetlinkAttribute port = attributes.get(RdmaNldev.ATTR_PORT_INDEX);
			NetlinkAttribute netdevIndex = attributes.get(ATTR_NDEV_INDEX);
			NetlinkAttribute netdevName = attributes.get(ATTR_NDEV_NAME);
			return new NldevMonitorEvent(type, (deviceIndex != null) ? deviceIndex.u32() : null,
					(deviceName != null) ? deviceName.string() : null, (port != null) ? (int) port.u32() : 0,
					(netdevIndex != null) ? netdevIndex.u32() : null, (netdevName != null) ? netdevName.string() : null,
					clock.instant());
		}
		catch (RuntimeException ex) {
			logger.log(Level.DEBUG, "Skipped a malformed RDMA monitor event (" + ex.getMessage() + "): " + message);
			return null;
		}
	}

	private void deliver(NldevMonitorEvent event) {
		try {
			this.listener.onEvent(event);
		}
		catch (RuntimeException ex) {
			logger.log(Level.WARNING, "RDMA monitor listener " + this.listener + " failed on " + event, ex);
		}
	}

	private void deliverLost() {
		try {
			this.listener.onEventsLost();
		}
		catch (RuntimeException ex) {
			logger.log(Level.WARNING, "RDMA monitor listener " + this.listener + " failed on lost events", ex);
		}
	}

	/**
	 * Return whether the monitor's thread is still reading events.
	 * @return {@code true} until it stopped
	 */
	public boolean isRunning() {
		return this.thread.isAlive();
	}

	/**
	 * Close the socket, which ends the thread's wait, and wait for the thread at most
	 * {@link #CLOSE_WAIT}; later calls do nothing. Called from the monitor's own thread
	 * (a listener), it does not wait. A thread still in its listener after that wait ends
	 * by itself without delivering another event, and one WARNING line names the wait.
	 */
	@Override
	public void close() {
		if (!this.closed.compareAndSet(false, true)) {
			return;
		}
		this.running = false;
		this.socket.close();
		if (Thread.currentThread() == this.thread) {
			return;
		}
		try {
			this.thread.join(Math.max(1, this.closeWait.toMillis()));
		}
		catch (InterruptedException ex) {
			// the caller stops waiting: the thread ends by itself, as after the wait
			Thread.currentThread().interrupt();
		}
		if (this.thread.isAlive()) {
			logger.log(Level.WARNING,
					"RDMA monitor thread " + THREAD_NAME + " is still in its listener " + this.closeWait.toMillis()
							+ " ms after close; the socket is closed and it delivers no more events, ending by itself");
		}
	}

	@Override
	public String toString() {
		return "NldevMonitor[" + this.socket + (this.running ? "]" : ", stopped]");
	}

	/**
	 * Receives the monitor's events, on the monitor's thread: keep it short.
	 */
	public interface Listener {

		/**
		 * Called for each event.
		 * @param event the event
		 */
		void onEvent(NldevMonitorEvent event);

		/**
		 * Called when events were lost (the socket's receive buffer overflowed): what
		 * they would have said must be read again.
		 */
		default void onEventsLost() {
		}

	}

}
