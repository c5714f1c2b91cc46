package io.github.rdmacounters.core;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * Opens the device of a {@link DeviceDefinition} and creates its counter sets: for each
 * set a counters handle with its points attached, then the flow that feeds it. On failure
 * everything created so far is closed again, in reverse order, before the failure is
 * thrown.
 * <p>
 * When the application may start without the device ({@code fail-on-unavailable=false}),
 * a device that cannot be opened becomes an unavailable {@link ManagedDevice} that keeps
 * its port counters source and its configured sets (whose reads fail with the reason),
 * and a set that cannot be created on an opened device (a provider without flow counters,
 * a flow that is not permitted) becomes an unavailable set whose reads fail with the
 * reason, while the device, its port counters and the other sets stay in service.
 * <p>
 * Before anything is opened, the sets are checked and placed: a set whose flow does not
 * set don't-trap is refused (a trapping flow would take the packets it matches away from
 * the kernel: the raw packet queue pair has no receive buffers, so they are dropped), and
 * sets whose flows can match the same packet are placed at distinct priorities, in
 * configuration order, each at the first priority from its configured one that no earlier
 * overlapping set uses (one mlx5 flow table per priority matches a packet once; with
 * don't-trap it continues to the next priority). {@link CounterSet#priority()} shows
 * where a set went. Both problems are {@link InvalidRdmaConfigurationException}s naming
 * the property ({@code <prefix>.counter-sets.<name>.flow.dont-trap} or
 * {@code .flow.priority}). A definition that names no device counts on the host's only
 * device with flow counters ({@link #onlyFlowCapableDevice(String)}).
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public final class ManagedDeviceFactory {

	private static final Logger logger = System.getLogger(ManagedDeviceFactory.class.getName());

	/**
	 * The name of an unavailable device when none was configured.
	 */
	public static final String ANY_DEVICE = "(any)";

	/**
	 * Where the kernel shows RDMA devices and their port counters.
	 */
	public static final String DEFAULT_SYSFS_ROOT = "/sys/class/infiniband";

	private final RdmaBackend backend;

	private final Duration readCacheTtl;

	private Duration readDeadline = ReadCache.NO_DEADLINE;

	private final Clock clock;

	private final Function<String, @Nullable PortCountersSource> portCounters;

	private Duration reopenInitialBackoff = DEFAULT_REOPEN_INITIAL_BACKOFF;

	private Duration reopenMaxBackoff = DEFAULT_REOPEN_MAX_BACKOFF;

	/** The default wait before the first attempt to reopen a failed device. */
	public static final Duration DEFAULT_REOPEN_INITIAL_BACKOFF = Duration.ofMillis(100);

	/** The default longest wait between attempts to reopen a failed device. */
	public static final Duration DEFAULT_REOPEN_MAX_BACKOFF = Duration.ofSeconds(30);

	/**
	 * Create a factory.
	 * @param backend the backend that opens devices
	 * @param readCacheTtl how long a read of a counter set or a port query
	 * ({@code ibv_query_port}) is reused
	 * @param clock the clock that stamps reads
	 * @param portCounters the port counters source of a device name, or {@code null} for
	 * none
	 */
	public ManagedDeviceFactory(RdmaBackend backend, Duration readCacheTtl, Clock clock,
			Function<String, @Nullable PortCountersSource> portCounters) {
		this.backend = backend;
		this.readCacheTtl = readCacheTtl;
		this.clock = clock;
		this.portCounters = portCounters;
	}

	/**
	 * Create a factory whose devices read their port counters where the backend finds
	 * them (sysfs under {@value #DEFAULT_SYSFS_ROOT} for the native backend, the
	 * simulated tree for the simulator), stamped by the system clock.
	 * @param backend the backend that opens devices
	 * @param readCacheTtl how long a read of a counter set, a port query or the port
	 * counters is reused
	 * @return the factory
	 * @since 0.1.0
	 */
	public static ManagedDeviceFactory of(RdmaBackend backend, Duration readCacheTtl) {
		Path root = Path.of(DEFAULT_SYSFS_ROOT);
		return new ManagedDeviceFactory(backend, readCacheTtl, Clock.systemUTC(),
				(device) -> backend.portCounters(device, root, readCacheTtl));
	}

	/**
	 * Set how long a caller waits for a read of a counter set or a port query; the read
	 * runs in a reader thread and one past the deadline leaves its values NaN (see
	 * {@link ReadCache}).
	 * @param readDeadline the deadline; {@link ReadCache#NO_DEADLINE} (the default) reads
	 * on the caller's thread
	 * @return this factory
	 */
	public ManagedDeviceFactory readDeadline(Duration readDeadline) {
		this.readDeadline = readDeadline;
		return this;
	}

	/**
	 * Set how a device that failed ({@code IBV_EVENT_DEVICE_FATAL}, {@code ENODEV},
	 * {@code EIO}) is reopened: the wait before the first attempt, doubled after each
	 * failed attempt up to the maximum; a device that stayed up for the maximum after a
	 * reopen starts from the first wait again.
	 * @param initialBackoff the first wait
	 * @param maxBackoff the longest wait
	 * @return this factory
	 */
	public ManagedDeviceFactory reopenBackoff(Duration initialBackoff, Duration maxBackoff) {
		this.reopenInitialBackoff = initialBackoff;
		this.reopenMaxBackoff = maxBackoff;
		return this;
	}

	/**
	 * Return the device a counter set that names none counts on: the backend's only
	 * device, or else its only device with flow counters. With several devices each is
	 * opened and asked for a counters handle ({@code ibv_create_counters}, which only
	 * mlx5 implements), then closed again.
	 * @param property the set's property, for the message, e.g.
	 * {@code rdma.counter-sets.storage}
	 * @return the device name
	 * @throws NoUniqueRdmaDeviceException if no device, or several, have flow counters
	 */
	public String onlyFlowCapableDevice(String property) {
		List<String> names = this.backend.devices().stream().map(DeviceId::name).toList();
		if (names.size() == 1) {
			return names.get(0);
		}
		List<String> capable = names.stream().filter(this::countsFlows).toList();
		if (capable.size() != 1) {
			throw new NoUniqueRdmaDeviceException(this.backend.name(), property, capable);
		}
		return capable.get(0);
	}

	/**
	 * Return the device a counter set that names none counts on, as
	 * {@link #onlyFlowCapableDevice(String)} does, or {@code null} when there is no such
	 * device and the set may start without one.
	 * @param property the set's property, for the message
	 * @param failOnUnavailable whether a missing device fails
	 * @return the device name, or {@code null}
	 * @throws NoUniqueRdmaDeviceException if several devices have flow counters, or none
	 * and {@code failOnUnavailable} is set
	 */
	public @Nullable String onlyFlowCapableDevice(String property, boolean failOnUnavailable) {
		try {
			return onlyFlowCapableDevice(property);
		}
		catch (NoUniqueRdmaDeviceException ex) {
			if (failOnUnavailable || !ex.devices().isEmpty()) {
				throw ex;
			}
		}
		catch (RdmaException ex) {
			if (failOnUnavailable) {
				throw ex;
			}
		}
		return null;
	}

	/**
	 * Return the device whose PCI function has a network interface (sysfs
	 * {@code device/net}).
	 * @param snapshot the host's devices
	 * @param netdev the interface, e.g. {@code ens1f0np0}
	 * @param property the property that names it, for the message
	 * @return the device name
	 * @throws InvalidRdmaConfigurationException if no device has it, listing the
	 * interfaces of each
	 */
	public static String deviceWithNetdev(HostPortCountersSnapshot snapshot, String netdev, String property) {
		Map<String, List<String>> netdevs = new LinkedHashMap<>();
		for (PortCountersSnapshot device : snapshot.devices()) {
			if (device.identity().netdevs().contains(netdev)) {
				return device.deviceName();
			}
			netdevs.put(device.deviceName(), device.identity().netdevs());
		}
		throw new InvalidRdmaConfigurationException(property, netdev, "No RDMA device of this host has the network "
				+ "interface " + netdev + " (sysfs device/net of each device); their interfaces: " + netdevs);
	}

	/**
	 * Group counter sets by the device they count on, in configuration order: the one a
	 * set names, the one whose network interface it names ({@link #deviceWithNetdev}), or
	 * the host's only device with flow counters
	 * ({@link #onlyFlowCapableDevice(String, boolean)}, probed once for all the sets that
	 * name neither), or {@code null} when there is none and the sets may start without
	 * it.
	 * @param sets the sets, in configuration order
	 * @param propertyPrefix the prefix of the sets' properties, for messages, e.g.
	 * {@code rdma}
	 * @param failOnUnavailable whether sets that name no device fail when no device has
	 * flow counters
	 * @param host a snapshot of every device of the host, taken once and only when a set
	 * names a network interface
	 * @return the sets by device, for {@link #createAll}
	 * @throws InvalidRdmaConfigurationException if no device has a set's network
	 * interface
	 * @throws NoUniqueRdmaDeviceException if several devices have flow counters, or none
	 * and {@code failOnUnavailable} is set
	 */
	public Map<@Nullable String, List<CounterSetDefinition>> devicesOf(List<CounterSetTarget> sets,
			String propertyPrefix, boolean failOnUnavailable, Supplier<HostPortCountersSnapshot> host) {
		HostPortCountersSnapshot snapshot = sets.stream().anyMatch((set) -> set.netdev() != null) ? host.get() : null;
		Map<@Nullable String, List<CounterSetDefinition>> devices = new LinkedHashMap<>();
		boolean probed = false;
		String onlyFlowCapable = null;
		for (CounterSetTarget set : sets) {
			String property = propertyPrefix + ".counter-sets." + set.definition().name();
			String device = set.device();
			if (set.netdev() != null && snapshot != null) {
				device = deviceWithNetdev(snapshot, set.netdev(), property + ".netdev");
			}
			else if (device == null) {
				if (!probed) {
					onlyFlowCapable = onlyFlowCapableDevice(property, failOnUnavailable);
					probed = true;
				}
				device = onlyFlowCapable;
			}
			devices.computeIfAbsent(device, (name) -> new ArrayList<>()).add(set.definition());
		}
		return devices;
	}

	private boolean countsFlows(String name) {
		try (RdmaDevice device = this.backend.open(name)) {
			if (!device.queryDevice().managedFlowSteering()) {
				return false;
			}
			device.createCounters().close();
			return true;
		}
		catch (RdmaException ex) {
			logger.log(Level.DEBUG, "RDMA device " + name + " cannot count flows", ex);
			return false;
		}
	}

	/**
	 * Check and place the counter sets, open the planned device and create its sets.
	 * @param definition the validated configuration
	 * @param failOnUnavailable whether a missing or unsupported device fails; otherwise
	 * an unavailable device is returned
	 * @return the managed device
	 * @throws InvalidRdmaConfigurationException if a set traps traffic or overlapping
	 * sets find no free priority, whatever {@code failOnUnavailable} says
	 */
	public ManagedDevice create(DeviceDefinition definition, boolean failOnUnavailable) {
		DeviceDefinition plan = new DeviceDefinition(definition.device(), CounterSetPlacement.place(definition),
				definition.propertyPrefix());
		String name = plan.device();
		try {
			if (name == null) {
				name = onlyFlowCapableDevice(plan.counterSets().isEmpty() ? plan.propertyPrefix()
						: plan.property(plan.counterSets().get(0).name(), ""));
			}
			return open(name, plan, failOnUnavailable);
		}
		catch (InvalidRdmaConfigurationException ex) {
			throw ex;
		}
		catch (NoUniqueRdmaDeviceException ex) {
			if (failOnUnavailable || !ex.devices().isEmpty()) {
				throw ex;
			}
			return unavailable(ANY_DEVICE, plan, ex);
		}
		catch (RdmaException ex) {
			if (failOnUnavailable) {
				throw ex;
			}
			return unavailable((name != null) ? name : ANY_DEVICE, plan, ex);
		}
		catch (LinkageError ex) {
			RdmaUnavailableException unavailable = new RdmaUnavailableException(
					RdmaUnavailableException.Reason.LIBRARY_NOT_LOADABLE,
					"The " + this.backend.name() + " backend could not load its library: " + ex, ex);
			if (failOnUnavailable) {
				throw unavailable;
			}
			return unavailable((name != null) ? name : ANY_DEVICE, plan, unavailable);
		}
	}

	/**
	 * Open the devices that counter sets count on, in order, each with its sets as
	 * {@link #create} does; on failure every device opened so far is closed again.
	 * @param sets the sets by the device they count on, {@code null} for the host's only
	 * device with flow counters
	 * @param propertyPrefix the prefix of the sets' properties, e.g. {@code rdma}
	 * @param failOnUnavailable whether a device, by name, fails when unavailable
	 * @return the devices
	 * @throws DeviceStartupException naming the sets of a device that failed
	 * @throws InvalidRdmaConfigurationException if the sets of a device cannot be placed
	 */
	public List<ManagedDevice> createAll(Map<@Nullable String, List<CounterSetDefinition>> sets, String propertyPrefix,
			Predicate<@Nullable String> failOnUnavailable) {
		List<ManagedDevice> devices = new ArrayList<>();
		try {
			sets.forEach((device, deviceSets) -> {
				DeviceDefinition definition = new DeviceDefinition(device, deviceSets, propertyPrefix);
				try {
					devices.add(create(definition, failOnUnavailable.test(device)));
				}
				catch (InvalidRdmaConfigurationException ex) {
					throw ex;
				}
				catch (RdmaException ex) {
					throw new DeviceStartupException(device,
							deviceSets.stream().map((set) -> definition.property(set.name(), "")).toList(), ex);
				}
			});
			return devices;
		}
		catch (RuntimeException ex) {
			for (int i = devices.size() - 1; i >= 0; i--) {
				closeQuietly(devices.get(i), ex);
			}
			throw ex;
		}
	}

	private ManagedDevice unavailable(String name, DeviceDefinition plan, RuntimeException cause) {
		String device = ANY_DEVICE.equals(name) ? "" : " " + name;
		logger.log(Level.WARNING,
				"Starting without the RDMA device" + device + " (fail-on-unavailable=false): " + cause.getMessage());
		PortCountersSource source = ANY_DEVICE.equals(name) ? null : portCountersOrNull(name);
		List<CounterSet> sets = new ArrayList<>();
		for (CounterSetDefinition definition : plan.counterSets()) {
			Counters counters = UnavailableCounters.deviceUnavailable(definition.name(), name, cause);
			sets.add(new CounterSet(definition.name(), name, reportedPort(definition), definition.spec(),
					definition.indexes(), definition.readMode(), counters, this.readCacheTtl, this.clock,
					this.readDeadline));
		}
		return ManagedDevice.unavailable(name, this.backend.name(), cause, source, sets);
	}

	/** The port an unavailable device reports for a set: the configured one, else 1. */
	private static int reportedPort(CounterSetDefinition set) {
		return (set.port() == CounterSetDefinition.FIRST_ACTIVE_PORT) ? 1 : set.port();
	}

	private @Nullable PortCountersSource portCountersOrNull(String name) {
		try {
			return this.portCounters.apply(name);
		}
		catch (RuntimeException ex) {
			logger.log(Level.DEBUG, "No port counters for unavailable RDMA device " + name, ex);
			return null;
		}
	}

	private ManagedDevice open(String name, DeviceDefinition plan, boolean failOnUnavailable) {
		SupervisedDevice device = SupervisedDevice
			.open(this.backend, name, this.reopenInitialBackoff, this.reopenMaxBackoff, this.readCacheTtl, this.clock)
			.readDeadline(this.readDeadline);
		List<CounterSet> sets = new ArrayList<>();
		try {
			int ports = device.queryDevice().physicalPortCount();
			int firstActive = 0;
			for (CounterSetDefinition definition : plan.counterSets()) {
				CounterSetDefinition set = definition;
				if (set.port() == CounterSetDefinition.FIRST_ACTIVE_PORT) {
					firstActive = (firstActive != 0) ? firstActive : firstActivePort(device, ports);
					set = set.withPort(firstActive);
				}
				else if (set.port() > ports) {
					throw new InvalidRdmaConfigurationException(plan.property(set.name(), "port"), set.port(),
							"must be 1 to " + ports + ": " + name + " has " + ports
									+ ((ports == 1) ? " port" : " ports"));
				}
				try {
					sets.add(createSet(device, set));
				}
				catch (CounterSetCreationException ex) {
					if (failOnUnavailable || !(ex.getCause() instanceof RdmaException)) {
						throw ex;
					}
					sets.add(unavailableSet(device, set, ex));
				}
			}
			return new ManagedDevice(device, sets, this.portCounters.apply(name));
		}
		catch (RuntimeException ex) {
			for (int i = sets.size() - 1; i >= 0; i--) {
				closeQuietly(sets.get(i), ex);
			}
			closeQuietly(device, ex);
			throw ex;
		}
	}

	/**
	 * Return the first port whose logical state is ACTIVE, as {@code ibv_devinfo} lists
	 * them ({@code ibv_query_port} for 1 to {@code phys_port_cnt}); port 1 if none is.
	 */
	private static int firstActivePort(RdmaDevice device, int ports) {
		for (int port = 1; port <= ports; port++) {
			PortState state = device.queryPort(port).state();
			if (state == PortState.ACTIVE || state == PortState.ACTIVE_DEFER) {
				return port;
			}
		}
		return 1;
	}

	private CounterSet createSet(SupervisedDevice device, CounterSetDefinition definition) {
		int port = definition.port();
		try {
			// a stable handle: recreated with its flow when the device is reopened
			Counters counters = device.createSupervisedCounters(port, definition.spec(), definition.indexes());
			return new CounterSet(definition.name(), device.name(), port, definition.spec(), definition.indexes(),
					definition.readMode(), counters, this.readCacheTtl, this.clock, this.readDeadline);
		}
		catch (RuntimeException ex) {
			throw new CounterSetCreationException(definition.name(), device.name(), port, ex);
		}
	}

	private CounterSet unavailableSet(RdmaDevice device, CounterSetDefinition definition,
			CounterSetCreationException cause) {
		logger.log(Level.WARNING, "Starting without RDMA counter set '" + definition.name()
				+ "' (fail-on-unavailable=false): " + cause.getMessage());
		Counters counters = UnavailableCounters.setUnavailable(definition.name(), device.name(), cause);
		return new CounterSet(definition.name(), device.name(), definition.port(), definition.spec(),
				definition.indexes(), definition.readMode(), counters, this.readCacheTtl, this.clock,
				this.readDeadline);
	}

	private static void closeQuietly(AutoCloseable closeable, RuntimeException failure) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			failure.addSuppressed(ex);
		}
	}

}
