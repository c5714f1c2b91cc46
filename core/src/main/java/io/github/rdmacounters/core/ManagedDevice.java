package io.github.rdmacounters.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * A device the application asked for, with what the application made of it: the opened
 * device (or why it is unavailable), the counter sets counting on it, the ports they
 * count on and the source of its port counters. One per configured device; the unit that
 * the endpoint, health indicator and meters report on.
 * <p>
 * Closing it closes the counter sets (flows, then counters), then the device, which
 * closes its queue pair, completion queue and protection domain.
 *
 * @since 0.1.0
 * @author rdma-counters
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
	 * Create a managed device around an opened device. Its queries reach the device on
	 * every call unless the device caches them: a device opened by
	 * {@link ManagedDeviceFactory} asks {@code ibv_query_port} once per read cache
	 * time-to-live and recovers from a fatal event, so that is the way to open one for
	 * health checks and the endpoint.
	 * @param device the device, owned by this object from now on
	 * @param counterSets the counter sets on the device, owned by this object from now on
	 * @param portCounters where its port counters come from, or {@code null} if nowhere
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

	/**
	 * Create a placeholder for a device the application was allowed to start without.
	 * @param name the configured device name, or a description such as {@code (any)}
	 * @param backend the backend name
	 * @param cause why it is unavailable
	 * @return the placeholder
	 */
	public static ManagedDevice unavailable(String name, String backend, RuntimeException cause) {
		return new ManagedDevice(name, backend, cause, null, List.of());
	}

	/**
	 * Create a placeholder for a device the application was allowed to start without,
	 * that still reports the port counters and port state it can read, e.g. from sysfs
	 * when the verbs library cannot be loaded.
	 * @param name the configured device name, or a description such as {@code (any)}
	 * @param backend the backend name
	 * @param cause why it is unavailable
	 * @param portCounters where its port counters come from, or {@code null} if nowhere
	 * @return the placeholder
	 */
	public static ManagedDevice unavailable(String name, String backend, RuntimeException cause,
			@Nullable PortCountersSource portCounters) {
		return new ManagedDevice(name, backend, cause, portCounters, List.of());
	}

	/**
	 * Create a placeholder for a device the application was allowed to start without,
	 * that keeps its configured counter sets so that they are still listed, read (every
	 * read fails with the reason) and measured; and still reports the port counters it
	 * can read.
	 * @param name the configured device name, or a description such as {@code (any)}
	 * @param backend the backend name
	 * @param cause why it is unavailable
	 * @param portCounters where its port counters come from, or {@code null} if nowhere
	 * @param counterSets the configured sets, whose counters fail every read with the
	 * reason, owned by this object from now on
	 * @return the placeholder
	 */
	public static ManagedDevice unavailable(String name, String backend, RuntimeException cause,
			@Nullable PortCountersSource portCounters, List<CounterSet> counterSets) {
		return new ManagedDevice(name, backend, cause, portCounters, counterSets);
	}

	/**
	 * Return the device name.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Return the backend name.
	 * @return {@code native} or {@code simulated}
	 */
	public String backend() {
		return this.backend;
	}

	/**
	 * Return the ports the counter sets count on.
	 * @return the port numbers, ascending, without repeats; empty without sets
	 */
	public List<Integer> ports() {
		return this.ports;
	}

	/**
	 * Return the opened device, to create counters and flows of your own. A device the
	 * application was allowed to start without ({@code fail-on-unavailable=false}) has
	 * none: check {@link #isAvailable()} or use {@link #openedDevice()} first.
	 * @return the device, never {@code null}
	 * @throws IllegalStateException if the device is unavailable; its message names the
	 * device and why, and its cause is {@link #unavailabilityCause()}
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

	/**
	 * Return the opened device, or empty if the application was allowed to start without
	 * it ({@link #unavailabilityCause()} says why).
	 * @return the device, if it was opened
	 * @since 0.1.0
	 */
	public Optional<RdmaDevice> openedDevice() {
		return Optional.ofNullable(this.device);
	}

	/**
	 * Return what the device's events taught: port states, event counts, failure.
	 * @return the tracker, or {@code null} for an unavailable device or one not opened by
	 * {@link ManagedDeviceFactory}
	 */
	public @Nullable DeviceEventTracker events() {
		return (this.device instanceof SupervisedDevice supervised) ? supervised.tracker() : null;
	}

	/**
	 * Return the state the last {@code PORT_ACTIVE} or {@code PORT_ERR} of a port set,
	 * while it stands for the port's state (see
	 * {@link SupervisedDevice#portEventState(int)}); otherwise a port query
	 * ({@code device().queryPort(port)}, reused for the read cache time-to-live) tells
	 * it.
	 * @param port the port number
	 * @return the state, or {@code null} when a query tells it, for an unavailable device
	 * and for one not opened by {@link ManagedDeviceFactory}
	 * @since 0.1.0
	 */
	public @Nullable PortEventState portEventState(int port) {
		return (this.device instanceof SupervisedDevice supervised) ? supervised.portEventState(port) : null;
	}

	/**
	 * Return whether the device is open and usable.
	 * @return {@code true} if it was opened and not closed
	 */
	public boolean isAvailable() {
		return this.device != null && !this.device.isClosed();
	}

	/**
	 * Return why the device is unavailable.
	 * @return the cause, or {@code null} if it was opened
	 */
	public @Nullable RuntimeException unavailabilityCause() {
		return this.unavailabilityCause;
	}

	/**
	 * Return the counter sets on this device.
	 * @return the sets
	 */
	public List<CounterSet> counterSets() {
		return this.counterSets;
	}

	/**
	 * Return where the port counters come from.
	 * @return the source, or {@code null} if there is none
	 */
	public @Nullable PortCountersSource portCounters() {
		return this.portCounters;
	}

	/**
	 * Close the counter sets, then the device. Idempotent; closes as much as it can and
	 * rethrows the first failure.
	 */
	@Override
	public void close() {
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
