package io.github.rdmacounters.netlink;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Collection;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.SupervisedDevice;

/**
 * What RDMA netlink's monitor events do to what the application already tracks, so that
 * hotplug is seen when it happens rather than at the next read:
 * <ul>
 * <li>a device registered (a hot-plugged or reloaded one, under a new kernel index): the
 * host's devices are listed again at once, its optional counters are enabled again, and a
 * managed device of that name that failed is reopened now instead of at the end of its
 * backoff wait;</li>
 * <li>a device unregistered: the host's snapshot is dropped, so the next read lists the
 * devices again ({@code __ib_unregister_device} sends the event before it removes the
 * device's sysfs directory, so listing now would still find it); a managed device learns
 * of it from {@code IBV_EVENT_DEVICE_FATAL} as before;</li>
 * <li>a device renamed, a netdev attached, detached or renamed: the host's devices are
 * listed again at once, and a renamed device's optional counters are enabled under its
 * new name.</li>
 * </ul>
 * Events that were lost drop the host's snapshot. Register and unregister are logged at
 * INFO, the others at DEBUG. An event still in hand when {@link #close()} stopped waiting
 * for the monitor's thread takes no further step; each of the sources it calls is safe to
 * call after its own close.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public final class MonitorEventActions implements NldevMonitor.Listener, AutoCloseable {

	private static final Logger logger = System.getLogger(MonitorEventActions.class.getName());

	private final @Nullable HostPortCountersSource host;

	private final @Nullable OptionalCounters optionalCounters;

	private final Supplier<? extends Collection<ManagedDevice>> devices;

	private @Nullable AutoCloseable subscription;

	// volatile: an event still in hand when close stopped waiting reads it between steps
	private volatile boolean closed;

	/**
	 * Create the actions.
	 * @param host the port counters of every device of the host, if the application reads
	 * them
	 * @param optionalCounters the optional counters, if the application reads them
	 * @param devices the managed devices
	 */
	public MonitorEventActions(@Nullable HostPortCountersSource host, @Nullable OptionalCounters optionalCounters,
			Supplier<? extends Collection<ManagedDevice>> devices) {
		this.host = host;
		this.optionalCounters = optionalCounters;
		this.devices = devices;
	}

	@Override
	public void onEvent(NldevMonitorEvent event) {
		String name = event.deviceName();
		switch (event.type()) {
			case REGISTER -> {
				logger.log(Level.INFO, "RDMA netlink: " + event);
				refreshHost();
				if (name != null && !this.closed) {
					reapplyOptionalCounters(name);
					reopenManaged(name);
				}
			}
			case UNREGISTER -> {
				logger.log(Level.INFO, "RDMA netlink: " + event);
				if (this.host != null) {
					this.host.invalidate();
				}
			}
			case RENAME -> {
				logger.log(Level.DEBUG, "RDMA netlink: " + event);
				refreshHost();
				if (name != null && !this.closed) {
					reapplyOptionalCounters(name);
				}
			}
			default -> {
				logger.log(Level.DEBUG, "RDMA netlink: " + event);
				refreshHost();
			}
		}
	}

	@Override
	public void onEventsLost() {
		if (this.host != null) {
			this.host.invalidate();
		}
	}

	private void refreshHost() {
		HostPortCountersSource source = this.host;
		if (source != null) {
			source.invalidate();
			// read now: the registered device's sysfs directory is there
			// (ib_register_device
			// announces KOBJ_ADD before the event), and a scrape then finds it cached
			source.snapshot();
		}
	}

	private void reapplyOptionalCounters(String name) {
		OptionalCounters counters = this.optionalCounters;
		if (counters != null) {
			counters.reapply(name);
		}
	}

	private void reopenManaged(String name) {
		for (ManagedDevice device : this.devices.get()) {
			if (device.name().equals(name) && device.isAvailable()
					&& device.device() instanceof SupervisedDevice supervised) {
				supervised.reopenNow();
			}
		}
	}

	/**
	 * Keep what delivers the events, to stop it at {@link #close()}: an
	 * {@link NldevMonitor}, or the simulator's subscription.
	 * @param events what delivers the events, or {@code null} if nothing does
	 */
	public void follow(@Nullable AutoCloseable events) {
		boolean alreadyClosed;
		synchronized (this) {
			alreadyClosed = this.closed;
			if (!alreadyClosed) {
				this.subscription = events;
			}
		}
		if (alreadyClosed && events != null) {
			closeQuietly(events);
		}
	}

	/**
	 * Stop what delivers the events, once.
	 */
	@Override
	public void close() {
		AutoCloseable current;
		synchronized (this) {
			this.closed = true;
			current = this.subscription;
			this.subscription = null;
		}
		if (current != null) {
			closeQuietly(current);
		}
	}

	private static void closeQuietly(AutoCloseable events) {
		try {
			events.close();
		}
		catch (Exception ex) {
			logger.log(Level.DEBUG, "Closing " + events + " failed: " + ex.getMessage());
		}
	}

	@Override
	public String toString() {
		return "MonitorEventActions";
	}

}
