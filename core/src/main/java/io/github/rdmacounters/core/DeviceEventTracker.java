package io.github.rdmacounters.core;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * What the events of one managed device taught: the state of each port as the last
 * {@code PORT_ACTIVE} or {@code PORT_ERR} set it, when it last changed, how many events
 * of each type each port had, and whether the device failed ({@code DEVICE_FATAL}, or
 * reads failing with {@code ENODEV} or {@code EIO}) and is being reopened. Logs
 * {@code PORT_ERR} and {@code DEVICE_FATAL} at WARN, {@code PORT_ACTIVE} at INFO, the
 * other events at DEBUG, then passes each event on to its listeners. Thread-safe.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public final class DeviceEventTracker implements DeviceEventListener {

	private static final Logger logger = System.getLogger(DeviceEventTracker.class.getName());

	private final String device;

	private final Map<Integer, PortEventState> ports = new ConcurrentHashMap<>();

	private final Map<Key, AtomicLong> counts = new ConcurrentHashMap<>();

	private final DeviceEventListeners listeners = new DeviceEventListeners();

	private volatile @Nullable String failure;

	private volatile @Nullable Instant failedAt;

	private final AtomicLong failures = new AtomicLong();

	private final AtomicLong reopens = new AtomicLong();

	private final List<Runnable> reopenListeners = new CopyOnWriteArrayList<>();

	/**
	 * Create a tracker.
	 * @param device the device name
	 */
	public DeviceEventTracker(String device) {
		this.device = device;
	}

	/**
	 * Return the device name.
	 * @return the name
	 */
	public String device() {
		return this.device;
	}

	@Override
	public void onEvent(DeviceEvent event) {
		this.counts.computeIfAbsent(new Key(event.port(), event.type()), (key) -> new AtomicLong()).incrementAndGet();
		switch (event.type()) {
			case PORT_ACTIVE -> {
				this.ports.put(event.port(),
						new PortEventState(event.port(), PortState.ACTIVE, event.time(), event.type()));
				logger.log(Level.INFO, "RDMA " + event + ": the port is ACTIVE");
			}
			case PORT_ERR -> {
				this.ports.put(event.port(),
						new PortEventState(event.port(), PortState.DOWN, event.time(), event.type()));
				logger.log(Level.WARNING, "RDMA " + event + ": the port left ACTIVE (link down)");
			}
			case DEVICE_FATAL -> logger.log(Level.WARNING,
					"RDMA " + event + ": the device is unusable and will be reopened when it is present again");
			default -> logger.log(Level.DEBUG, "RDMA " + event);
		}
		this.listeners.publish(event);
	}

	/**
	 * Return the state of a port as the last event set it.
	 * @param port the port number
	 * @return the state, or {@code null} if no {@code PORT_ACTIVE} or {@code PORT_ERR}
	 * came since the device was opened
	 */
	public @Nullable PortEventState portState(int port) {
		return this.ports.get(port);
	}

	/**
	 * Return the number of events of a type on a port.
	 * @param port the port number, 0 for device events
	 * @param type the event type
	 * @return the count
	 */
	public long count(int port, DeviceEvent.Type type) {
		AtomicLong count = this.counts.get(new Key(port, type));
		return (count != null) ? count.get() : 0;
	}

	/**
	 * Return the counts of every port and type seen so far.
	 * @return the counts, by port, then by type
	 */
	public Map<Integer, Map<DeviceEvent.Type, Long>> counts() {
		Map<Integer, Map<DeviceEvent.Type, Long>> result = new TreeMap<>();
		this.counts.forEach((key, count) -> result.computeIfAbsent(key.port(), (port) -> new TreeMap<>())
			.put(key.type(), count.get()));
		return result;
	}

	/**
	 * Return why the device failed, while it is being reopened.
	 * @return the reason, or {@code null} if the device is in service
	 */
	public @Nullable String failure() {
		return this.failure;
	}

	/**
	 * Return when the device last failed.
	 * @return the time, or {@code null} if it never failed
	 */
	public @Nullable Instant failedAt() {
		return this.failedAt;
	}

	/**
	 * Return how many times the device failed.
	 * @return the count
	 */
	public long failures() {
		return this.failures.get();
	}

	/**
	 * Return how many times the device was reopened after a failure.
	 * @return the count
	 */
	public long reopens() {
		return this.reopens.get();
	}

	/**
	 * Add a listener that receives every event after the tracker took it into account.
	 * @param listener the listener
	 */
	public void addListener(DeviceEventListener listener) {
		this.listeners.add(listener);
	}

	/**
	 * Remove a listener.
	 * @param listener the listener
	 */
	public void removeListener(DeviceEventListener listener) {
		this.listeners.remove(listener);
	}

	/**
	 * Add a listener that runs each time the device is back after a failure, on the
	 * reopening thread, once the counter sets are recreated: e.g. to apply again settings
	 * a device reset lost.
	 * @param listener the listener
	 */
	public void addReopenListener(Runnable listener) {
		this.reopenListeners.add(listener);
	}

	/**
	 * Remove a reopen listener.
	 * @param listener the listener
	 */
	public void removeReopenListener(Runnable listener) {
		this.reopenListeners.remove(listener);
	}

	/**
	 * Run the reopen listeners; one that fails is logged and the others still run.
	 */
	void publishReopened() {
		for (Runnable listener : this.reopenListeners) {
			try {
				listener.run();
			}
			catch (RuntimeException ex) {
				logger.log(Level.WARNING, "Reopen listener " + listener + " of RDMA device " + this.device + " failed",
						ex);
			}
		}
	}

	/**
	 * Record that the device failed.
	 * @param reason why
	 */
	void failed(String reason) {
		this.failure = reason;
		this.failedAt = Instant.now();
		this.failures.incrementAndGet();
		logger.log(Level.WARNING, "RDMA device " + this.device + " failed (" + reason + "); reopening it");
	}

	/**
	 * Record that the device was reopened: port states are unknown again until a query or
	 * an event.
	 */
	void reopened() {
		this.failure = null;
		this.ports.clear();
		this.reopens.incrementAndGet();
		logger.log(Level.INFO, "RDMA device " + this.device + " is back: reopened with its counter sets");
	}

	private record Key(int port, DeviceEvent.Type type) {
	}

}
