package io.github.rdmacounters.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * A configured device with what the application made of it: the opened device (or why it
 * is unavailable), its counter sets and its port counters; the unit the endpoint, health
 * and meters report on. Closing it closes the counter sets, then the device.
 *
 * @since 0.1.0
 */
public final class ManagedDevice implements AutoCloseable {

	private final String name;

	private final String backend;

	private final List<Integer> ports;

	private final @Nullable RdmaDevice device;

	private final @Nullable RuntimeException unavailabilityCause;

	private final List<CounterSet> counterSets;

	private final @Nullable PortCountersSource portCounters;

	/**
	 * Create a managed device around an opened device; it owns the device and the sets
	 * from now on.
	 */
	public ManagedDevice(RdmaDevice device, List<CounterSet> counterSets, @Nullable PortCountersSource portCounters) {
		this.name = device.name();
		this.backend = device.backend();
		this.ports = ports(counterSets);
		this.device = device;
		this.unavailabilityCause = null;
		this.counterSets = List.copyOf(counterSets);
		this.portCounters = portCounters;
	}

	private ManagedDevice(String name, String backend, RuntimeException cause,
			@Nullable PortCountersSource portCounters, List<CounterSet> counterSets) {
		this.name = name;
		this.backend = backend;
		this.ports = ports(counterSets);
		this.device = null;
		this.unavailabilityCause = cause;
		this.counterSets = List.copyOf(counterSets);
		this.portCounters = portCounters;
	}

	/** Create a placeholder for a device the application was allowed to start without. */
	public static ManagedDevice unavailable(String name, String backend, RuntimeException cause) {
		return new ManagedDevice(name, backend, cause, null, List.of());
	}

	/**
	 * Create a placeholder that still reports the port counters it can read, e.g. from
	 * sysfs without verbs.
	 */
	public static ManagedDevice unavailable(String name, String backend, RuntimeException cause,
			@Nullable PortCountersSource portCounters) {
		return new ManagedDevice(name, backend, cause, portCounters, List.of());
	}

	/**
	 * Create a placeholder that keeps, and owns, its configured counter sets, whose reads
	 * fail with the reason.
	 */
	public static ManagedDevice unavailable(String name, String backend, RuntimeException cause,
			@Nullable PortCountersSource portCounters, List<CounterSet> counterSets) {
		return new ManagedDevice(name, backend, cause, portCounters, counterSets);
	}

	public String name() {
		return this.name;
	}

	/** Return the backend name, {@code native} or {@code simulated}. */
	public String backend() {
		return this.backend;
	}

	/** Return the ports the counter sets count on, ascending, without repeats. */
	public List<Integer> ports() {
		return this.ports;
	}

	/**
	 * Return the opened device, to create counters and flows of your own.
	 * @return the device
	 * @throws IllegalStateException if the device is unavailable
	 */
	public RdmaDevice device() {
		RdmaDevice opened = this.device;
		if (opened == null) {
			RuntimeException cause = this.unavailabilityCause;
			throw new IllegalStateException("RDMA device " + this.name + " (" + this.backend
					+ " backend) is unavailable, so it has no opened device: "
					+ ((cause != null) ? cause.getMessage() : "unknown cause"), cause);
		}
		return opened;
	}

	/** Return the opened device, or empty if the application started without it. */
	public Optional<RdmaDevice> openedDevice() {
		return Optional.ofNullable(this.device);
	}

	/**
	 * Return what the device's events taught: port states, event counts, failure.
	 * @return the tracker, or {@code null} if the device was not opened by
	 * {@link ManagedDeviceFactory}
	 */
	public @Nullable DeviceEventTracker events() {
		return (this.device instanceof SupervisedDevice supervised) ? supervised.tracker() : null;
	}

	/**
	 * Return the state the last {@code PORT_ACTIVE} or {@code PORT_ERR} of a port set,
	 * while it stands for the port's state.
	 * @param port the port number
	 * @return the state, or {@code null} when only a port query can tell it
	 */
	public @Nullable PortEventState portEventState(int port) {
		return (this.device instanceof SupervisedDevice supervised) ? supervised.portEventState(port) : null;
	}

	public boolean isAvailable() {
		return this.device != null && !this.device.isClosed();
	}

	public @Nullable RuntimeException unavailabilityCause() {
		return this.unavailabilityCause;
	}

	public List<CounterSet> counterSets() {
		return this.counterSets;
	}

	public @Nullable PortCountersSource portCounters() {
		return this.portCounters;
	}

	/**
	 * Close the counter sets, then the device. Idempotent; rethrows the first failure.
	 */
	@Override
	public void close() {
		ReadStall stall = stalledRead();
		if (stall != null) {
			// destroy in order once the stuck read has returned (the verbs layer's
			// write lock would wait for it too), not in the closing (shutdown) thread
			System.getLogger(ManagedDevice.class.getName())
				.log(System.Logger.Level.WARNING, "RDMA device " + this.name + " is closed when its read of "
						+ stall.what() + " returns; not waiting for it");
			Thread closer = new Thread(() -> {
				if (awaitStalledReads()) {
					closeNow();
				}
			}, "rdma-close-" + this.name);
			closer.setDaemon(true);
			closer.start();
			return;
		}
		closeNow();
	}

	/**
	 * Return a read of the device's counter sets or port queries that is past its
	 * deadline.
	 * @return the stall, or {@code null} when no read is stuck
	 */
	public @Nullable ReadStall stalledRead() {
		for (CounterSet set : this.counterSets) {
			ReadStall stall = set.reads().stall();
			if (stall != null) {
				return stall;
			}
		}
		return (this.device instanceof SupervisedDevice supervised) ? supervised.stalledRead() : null;
	}

	/**
	 * Wait until no read of the device is past its deadline; {@code false} if
	 * interrupted.
	 */
	private boolean awaitStalledReads() {
		while (stalledRead() != null) {
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		return true;
	}

	private void closeNow() {
		List<RuntimeException> failures = new ArrayList<>();
		for (CounterSet set : this.counterSets) {
			try {
				set.close();
			}
			catch (RuntimeException ex) {
				failures.add(ex);
			}
		}
		if (this.device != null) {
			try {
				this.device.close();
			}
			catch (RuntimeException ex) {
				failures.add(ex);
			}
		}
		if (!failures.isEmpty()) {
			RuntimeException first = failures.get(0);
			failures.stream().skip(1).forEach(first::addSuppressed);
			throw first;
		}
	}

	private static List<Integer> ports(List<CounterSet> counterSets) {
		return counterSets.stream().map(CounterSet::port).distinct().sorted().toList();
	}

	@Override
	public String toString() {
		return "ManagedDevice " + this.name + " (" + this.backend + ", ports " + this.ports
				+ (isAvailable() ? ")" : ", unavailable)");
	}

}
