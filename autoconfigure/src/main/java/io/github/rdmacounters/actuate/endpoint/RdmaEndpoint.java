package io.github.rdmacounters.actuate.endpoint;

import java.math.BigInteger;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterSetReading;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.DeviceAttributes;
import io.github.rdmacounters.core.DeviceEventTracker;
import io.github.rdmacounters.core.DeviceIdentity;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.HostPortCountersSnapshot;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.PortCountersSource;
import io.github.rdmacounters.core.PortEventState;
import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.core.Presence;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.core.ReadMode;
import io.github.rdmacounters.ethtool.HostNetdevStatistics;
import io.github.rdmacounters.ethtool.NetdevPortStatistics;

/**
 * {@link Endpoint @Endpoint} that shows the RDMA devices the application manages: device
 * information, port state and port counters, and every counter set with its values, the
 * flow it counts and when it was read. Counter sets are read through their memoised
 * {@link CounterSet#read()}, and the device and its port through the device's query cache
 * (device attributes once per open context, a port once per read cache time-to-live,
 * shared with health), so calls within the read cache time-to-live share one read.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@Endpoint(id = "rdma")
public class RdmaEndpoint {

	private final RdmaRegistry registry;

	private final @Nullable HostPortCountersSource host;

	private final String backend;

	private final @Nullable HostNetdevStatistics ethtool;

	/**
	 * Create an endpoint over the managed devices.
	 * @param registry the devices and their counter sets
	 */
	public RdmaEndpoint(RdmaRegistry registry) {
		this(registry, null, "sysfs");
	}

	/**
	 * Create an endpoint over the managed devices and every device of the host that port
	 * counters are read from, naming the backend those devices are on.
	 * @param registry the devices and their counter sets
	 * @param host the host's port counters, or {@code null}
	 * @param backend the backend name shown for devices that only have port counters,
	 * e.g. {@code native} or {@code simulated}
	 * @since 0.1.0
	 */
	public RdmaEndpoint(RdmaRegistry registry, @Nullable HostPortCountersSource host, String backend) {
		this(registry, host, backend, null);
	}

	/**
	 * Create an endpoint that also shows, per port, the RoCE-relevant driver statistics
	 * of the port's netdev (pause, discards, PHY errors, RDMA bytes).
	 * @param registry the devices and their counter sets
	 * @param host the host's port counters, or {@code null}
	 * @param backend the backend name shown for devices that only have port counters
	 * @param ethtool the netdevs' driver statistics, or {@code null}
	 * @since 0.1.0
	 */
	public RdmaEndpoint(RdmaRegistry registry, @Nullable HostPortCountersSource host, String backend,
			@Nullable HostNetdevStatistics ethtool) {
		this.registry = registry;
		this.host = host;
		this.backend = backend;
		this.ethtool = ethtool;
	}

	/**
	 * Describe every managed device with its ports and counter sets.
	 * @return the devices
	 */
	@ReadOperation
	public RdmaDescriptor rdma() {
		Map<String, DeviceDescriptor> devices = new LinkedHashMap<>();
		for (ManagedDevice device : this.registry.devices()) {
			devices.put(device.name(), describe(device));
		}
		HostPortCountersSource source = this.host;
		if (source != null) {
			HostPortCountersSnapshot host = source.snapshot();
			for (PortCountersSnapshot device : host.devices()) {
				if (!devices.containsKey(device.deviceName())) {
					devices.put(device.deviceName(), describe(device));
				}
			}
		}
		return new RdmaDescriptor(devices);
	}

	/**
	 * Describe one counter set by its name, which is unique: it is the set's key in
	 * {@code rdma.counter-sets}.
	 * @param set the set name
	 * @return the set, or {@code null} (a 404 over HTTP) if no set has that name
	 */
	@ReadOperation
	public @Nullable CounterSetDescriptor counterSet(@Selector String set) {
		CounterSet found = this.registry.counterSet(set);
		return (found != null) ? describe(found) : null;
	}

	private DeviceDescriptor describe(PortCountersSnapshot snapshot) {
		String reason = snapshot.isPresent() ? null : "Device " + snapshot.deviceName() + " is gone";
		return new DeviceDescriptor(snapshot.deviceName(), this.backend, snapshot.isPresent(), reason, null, null,
				snapshot, withEthtool(snapshot.deviceName(), ports(snapshot)), Map.of());
	}

	private static Map<Integer, PortDescriptor> ports(PortCountersSnapshot snapshot) {
		Map<Integer, PortDescriptor> ports = new TreeMap<>();
		for (PortStatus status : snapshot.ports()) {
			ports.put(status.port(), PortDescriptor.of(null, null, status));
		}
		return ports;
	}

	private DeviceDescriptor describe(ManagedDevice managed) {
		Map<String, CounterSetDescriptor> sets = new LinkedHashMap<>();
		for (CounterSet set : managed.counterSets()) {
			sets.put(set.name(), describe(set));
		}
		PortCountersSnapshot snapshot = snapshot(managed.portCounters());
		RdmaDevice device = managed.openedDevice().orElse(null);
		if (device == null || !managed.isAvailable()) {
			RuntimeException cause = managed.unavailabilityCause();
			String reason = (cause != null) ? cause.getMessage() : "Device " + managed.name() + " is closed";
			return new DeviceDescriptor(managed, false, reason, null, null, snapshot,
					withEthtool(managed.name(), ports(managed, null, snapshot)), sets);
		}
		DeviceAttributes attributes = null;
		String error = null;
		try {
			attributes = device.queryDevice();
		}
		catch (RuntimeException ex) {
			error = ex.getMessage();
		}
		return new DeviceDescriptor(managed, true, null, attributes, error, snapshot,
				withEthtool(managed.name(), ports(managed, device, snapshot)), sets);
	}

	private static @Nullable PortCountersSnapshot snapshot(@Nullable PortCountersSource source) {
		if (source == null) {
			return null;
		}
		try {
			return source.snapshot();
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	private static Map<Integer, PortDescriptor> ports(ManagedDevice managed, @Nullable RdmaDevice device,
			@Nullable PortCountersSnapshot snapshot) {
		Map<Integer, PortDescriptor> ports = new TreeMap<>();
		if (snapshot != null) {
			for (PortStatus status : snapshot.ports()) {
				ports.put(status.port(), PortDescriptor.of(null, null, status));
			}
		}
		if (device != null) {
			for (int number : managed.ports()) {
				PortStatus status = (snapshot != null) ? snapshot.port(number) : null;
				PortDescriptor port;
				try {
					port = PortDescriptor.of(device.queryPort(number), null, status);
				}
				catch (RuntimeException ex) {
					port = PortDescriptor.of(null, ex.getMessage(), status);
				}
				ports.put(number, port.withEvents(managed.events(), managed.portEventState(number), number));
			}
		}
		return ports;
	}

	/** Add the driver statistics of each port's netdevs, where the port has any. */
	private Map<Integer, PortDescriptor> withEthtool(String device, Map<Integer, PortDescriptor> ports) {
		HostNetdevStatistics statistics = this.ethtool;
		if (statistics != null) {
			ports.forEach((number, port) -> {
				try {
					Map<String, NetdevPortStatistics> netdevs = statistics.port(device, number);
					port.ethtool = netdevs.isEmpty() ? null : netdevs;
				}
				catch (RuntimeException ex) {
					// a device the host's port counters do not serve has no netdev
					// statistics
				}
			});
		}
		return ports;
	}

	private static CounterSetDescriptor describe(CounterSet set) {
		return new CounterSetDescriptor(set, set.read());
	}

	static String readModeName(ReadMode mode) {
		return mode.name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	/**
	 * Every managed device.
	 */
	public static final class RdmaDescriptor implements OperationResponseBody {

		private final Map<String, DeviceDescriptor> devices;

		RdmaDescriptor(Map<String, DeviceDescriptor> devices) {
			this.devices = Collections.unmodifiableMap(devices);
		}

		/**
		 * Return the devices by name.
		 * @return the devices
		 */
		public Map<String, DeviceDescriptor> getDevices() {
			return this.devices;
		}

	}

	/**
	 * One device: what it is, whether it could be opened, its ports and counter sets.
	 */
	public static final class DeviceDescriptor {

		private final String name;

		private final String backend;

		private final boolean available;

		private final @Nullable String unavailableReason;

		private final @Nullable String nodeGuid;

		private final @Nullable String firmwareVersion;

		private final @Nullable String boardId;

		private final @Nullable String hcaType;

		private final @Nullable Boolean managedFlowSteering;

		private final @Nullable String error;

		private final Map<Integer, PortDescriptor> ports;

		private final Map<String, CounterSetDescriptor> counterSets;

		private final @Nullable Boolean present;

		private final @Nullable List<String> netdevs;

		private final @Nullable String pciAddress;

		private final @Nullable Boolean virtualFunction;

		private final @Nullable String physicalFunction;

		DeviceDescriptor(ManagedDevice managed, boolean available, @Nullable String unavailableReason,
				@Nullable DeviceAttributes attributes, @Nullable String error, @Nullable PortCountersSnapshot snapshot,
				Map<Integer, PortDescriptor> ports, Map<String, CounterSetDescriptor> counterSets) {
			this(managed.name(), managed.backend(), available, unavailableReason, attributes, error, snapshot, ports,
					counterSets);
		}

		DeviceDescriptor(String name, String backend, boolean available, @Nullable String unavailableReason,
				@Nullable DeviceAttributes attributes, @Nullable String error, @Nullable PortCountersSnapshot snapshot,
				Map<Integer, PortDescriptor> ports, Map<String, CounterSetDescriptor> counterSets) {
			this.name = name;
			this.backend = backend;
			this.present = (snapshot != null) ? snapshot.isPresent() : null;
			DeviceIdentity identity = (snapshot != null) ? snapshot.identity() : DeviceIdentity.UNKNOWN;
			this.netdevs = identity.netdevs().isEmpty() ? null : identity.netdevs();
			this.pciAddress = identity.pciAddress();
			this.virtualFunction = (identity.pciAddress() != null) ? identity.virtualFunction() : null;
			this.physicalFunction = identity.physicalFunction();
			this.available = available;
			this.unavailableReason = unavailableReason;
			this.nodeGuid = (attributes != null) ? attributes.formattedNodeGuid()
					: (snapshot != null) ? snapshot.nodeGuid() : null;
			this.firmwareVersion = (attributes != null) ? attributes.firmwareVersion()
					: (snapshot != null) ? snapshot.firmwareVersion() : null;
			this.boardId = (snapshot != null) ? snapshot.boardId() : null;
			this.hcaType = (snapshot != null) ? snapshot.hcaType() : null;
			this.managedFlowSteering = (attributes != null) ? attributes.managedFlowSteering() : null;
			this.error = error;
			this.ports = Collections.unmodifiableMap(ports);
			this.counterSets = Collections.unmodifiableMap(counterSets);
		}

		/**
		 * Return whether the device's sysfs directory was found in the last read.
		 * @return {@code false} once the device is gone, {@code null} without port
		 * counters
		 */
		public @Nullable Boolean getPresent() {
			return this.present;
		}

		/**
		 * Return the network interfaces of the device's PCI function.
		 * @return the interfaces, e.g. {@code [ens1f0np0]}, or {@code null} if none
		 */
		public @Nullable List<String> getNetdevs() {
			return this.netdevs;
		}

		/**
		 * Return the PCI address of the device.
		 * @return the address, e.g. {@code 0000:41:00.0}, or {@code null}
		 */
		public @Nullable String getPciAddress() {
			return this.pciAddress;
		}

		/**
		 * Return whether the device is an SR-IOV virtual function.
		 * @return whether it is, or {@code null} without a PCI function
		 */
		public @Nullable Boolean getVirtualFunction() {
			return this.virtualFunction;
		}

		/**
		 * Return the PCI address of the physical function of a virtual function.
		 * @return the address, or {@code null}
		 */
		public @Nullable String getPhysicalFunction() {
			return this.physicalFunction;
		}

		/**
		 * Return the device name.
		 * @return the name, e.g. {@code mlx5_0}
		 */
		public String getName() {
			return this.name;
		}

		/**
		 * Return the backend.
		 * @return {@code native} or {@code simulated}
		 */
		public String getBackend() {
			return this.backend;
		}

		/**
		 * Return whether the device is open.
		 * @return {@code true} if it is open
		 */
		public boolean isAvailable() {
			return this.available;
		}

		/**
		 * Return why the device is unavailable.
		 * @return the reason, or {@code null} if it is available
		 */
		public @Nullable String getUnavailableReason() {
			return this.unavailableReason;
		}

		/**
		 * Return the node GUID as sysfs prints it.
		 * @return the GUID, or {@code null} if unknown
		 */
		public @Nullable String getNodeGuid() {
			return this.nodeGuid;
		}

		/**
		 * Return the firmware version.
		 * @return the version, or {@code null} if unknown
		 */
		public @Nullable String getFirmwareVersion() {
			return this.firmwareVersion;
		}

		/**
		 * Return the board id from sysfs.
		 * @return the board id, or {@code null} if unknown
		 */
		public @Nullable String getBoardId() {
			return this.boardId;
		}

		/**
		 * Return the HCA type from sysfs.
		 * @return the HCA type, or {@code null} if unknown
		 */
		public @Nullable String getHcaType() {
			return this.hcaType;
		}

		/**
		 * Return whether the device supports managed flow steering, which flow counters
		 * need.
		 * @return the capability, or {@code null} if unknown
		 */
		public @Nullable Boolean getManagedFlowSteering() {
			return this.managedFlowSteering;
		}

		/**
		 * Return why the device could not be queried.
		 * @return the error, or {@code null} if the query succeeded
		 */
		public @Nullable String getError() {
			return this.error;
		}

		/**
		 * Return the ports by number.
		 * @return the ports
		 */
		public Map<Integer, PortDescriptor> getPorts() {
			return this.ports;
		}

		/**
		 * Return the counter sets by name.
		 * @return the sets
		 */
		public Map<String, CounterSetDescriptor> getCounterSets() {
			return this.counterSets;
		}

	}

	/**
	 * One port: its state as the device reports it, and its sysfs counters where a source
	 * exists.
	 */
	public static final class PortDescriptor {

		private final @Nullable String state;

		private final @Nullable String physicalState;

		private final @Nullable String linkLayer;

		private final @Nullable Integer activeMtu;

		private final @Nullable String rate;

		private final @Nullable String error;

		private final @Nullable Map<String, Number> counters;

		private final @Nullable List<String> unreadableCounters;

		private @Nullable Instant stateChangedAt;

		private @Nullable Map<String, Long> events;

		private @Nullable Boolean present;

		private @Nullable List<String> missingCounterFiles;

		private @Nullable Map<String, NetdevPortStatistics> ethtool;

		private PortDescriptor(@Nullable String state, @Nullable String physicalState, @Nullable String linkLayer,
				@Nullable Integer activeMtu, @Nullable String rate, @Nullable String error,
				@Nullable Map<String, Number> counters, @Nullable List<String> unreadableCounters) {
			this.state = state;
			this.physicalState = physicalState;
			this.linkLayer = linkLayer;
			this.activeMtu = activeMtu;
			this.rate = rate;
			this.error = error;
			this.counters = (counters != null) ? Collections.unmodifiableMap(counters) : null;
			this.unreadableCounters = (unreadableCounters != null) ? List.copyOf(unreadableCounters) : null;
		}

		/**
		 * Show the counters with their unsigned 64-bit values: 2^63 and above as a
		 * {@link BigInteger}, not as the negative {@code long} they are held in.
		 */
		private static Map<String, Number> unsigned(Map<String, Long> counters) {
			Map<String, Number> values = new TreeMap<>();
			counters.forEach((name, value) -> values.put(name,
					(value >= 0) ? value : new BigInteger(Long.toUnsignedString(value))));
			return values;
		}

		static PortDescriptor of(@Nullable PortAttributes attributes, @Nullable String error,
				@Nullable PortStatus status) {
			String state = (status != null) ? status.state() : null;
			String physicalState = (status != null) ? status.physicalState() : null;
			String linkLayer = (status != null) ? status.linkLayer() : null;
			String rate = (status != null) ? status.rate() : null;
			Integer mtu = null;
			if (attributes != null) {
				state = attributes.state().name();
				physicalState = attributes.physicalStateName();
				linkLayer = attributes.linkLayer().sysfsName();
				mtu = attributes.activeMtu();
				if (rate == null && attributes.rateGbps() > 0) {
					rate = attributes.rateText();
				}
			}
			Map<String, Number> counters = (status != null) ? unsigned(status.counters()) : null;
			List<String> unreadable = (status != null && !status.unreadable().isEmpty()) ? status.unreadable() : null;
			PortDescriptor port = new PortDescriptor(state, physicalState, linkLayer, mtu, rate, error, counters,
					unreadable);
			if (status != null) {
				port.present = status.presence() == Presence.PRESENT;
				port.missingCounterFiles = status.missing().isEmpty() ? null : status.missing();
			}
			return port;
		}

		/**
		 * Return whether the port's directory was found in the last read.
		 * @return {@code false} once the port is gone, {@code null} without port counters
		 */
		public @Nullable Boolean getPresent() {
			return this.present;
		}

		/**
		 * Return the counter files read before that are gone.
		 * @return the files, e.g. {@code [hw_counters/out_of_buffer]}, or {@code null}
		 */
		public @Nullable List<String> getMissingCounterFiles() {
			return this.missingCounterFiles;
		}

		/**
		 * Apply what the device's events taught: the state the last PORT_ACTIVE or
		 * PORT_ERR set while it stands for the port's (no query ended since; a query
		 * after it wins), when the state last changed, and the event counts of the port.
		 */
		PortDescriptor withEvents(@Nullable DeviceEventTracker tracker, @Nullable PortEventState standing, int port) {
			if (tracker == null) {
				return this;
			}
			PortEventState eventState = standing;
			PortEventState lastChange = tracker.portState(port);
			Map<String, Long> counts = new TreeMap<>();
			tracker.counts().getOrDefault(port, Map.of()).forEach((type, count) -> counts.put(type.tagValue(), count));
			PortDescriptor result = new PortDescriptor((eventState != null) ? eventState.state().name() : this.state,
					(eventState != null && !eventState.isActive()) ? null : this.physicalState, this.linkLayer,
					this.activeMtu, this.rate, this.error, this.counters, this.unreadableCounters);
			result.present = this.present;
			result.missingCounterFiles = this.missingCounterFiles;
			result.stateChangedAt = (lastChange != null) ? lastChange.changedAt() : null;
			result.events = Collections.unmodifiableMap(counts);
			return result;
		}

		/**
		 * Return when the state last changed, as the device's events reported.
		 * @return the time, or {@code null} if no PORT_ACTIVE or PORT_ERR came
		 */
		public @Nullable Instant getStateChangedAt() {
			return this.stateChangedAt;
		}

		/**
		 * Return the asynchronous events of the port so far, by type.
		 * @return the counts, e.g. {@code port_err}, or {@code null} if the device does
		 * not report events
		 */
		public @Nullable Map<String, Long> getEvents() {
			return this.events;
		}

		/**
		 * Return the logical state.
		 * @return the state, e.g. {@code ACTIVE}, or {@code null} if unknown
		 */
		public @Nullable String getState() {
			return this.state;
		}

		/**
		 * Return the physical state.
		 * @return the state, e.g. {@code LinkUp}, or {@code null} if unknown
		 */
		public @Nullable String getPhysicalState() {
			return this.physicalState;
		}

		/**
		 * Return the link layer.
		 * @return {@code InfiniBand} or {@code Ethernet}, or {@code null} if unknown
		 */
		public @Nullable String getLinkLayer() {
			return this.linkLayer;
		}

		/**
		 * Return the active MTU in bytes.
		 * @return the MTU, or {@code null} if unknown
		 */
		public @Nullable Integer getActiveMtu() {
			return this.activeMtu;
		}

		/**
		 * Return the rate.
		 * @return the rate, e.g. {@code 100 Gb/sec (4X EDR)}, or {@code null} if unknown
		 */
		public @Nullable String getRate() {
			return this.rate;
		}

		/**
		 * Return why the port could not be queried.
		 * @return the error, or {@code null} if the query succeeded
		 */
		public @Nullable String getError() {
			return this.error;
		}

		/**
		 * Return the port counters from sysfs.
		 * @return the counters by name, or {@code null} without a port counters source
		 */
		public @Nullable Map<String, Number> getCounters() {
			return this.counters;
		}

		/**
		 * Return the RoCE-relevant driver statistics ({@code ethtool -S}) of the port's
		 * netdevs: pause, discards, PHY errors and RDMA traffic, and any pause storm.
		 * @return the statistics by netdev, or {@code null} if the port has no netdev
		 */
		public @Nullable Map<String, NetdevPortStatistics> getEthtool() {
			return this.ethtool;
		}

		/**
		 * Return the counter files that could not be read.
		 * @return the files, or {@code null} if every file was read
		 */
		public @Nullable List<String> getUnreadableCounters() {
			return this.unreadableCounters;
		}

	}

	/**
	 * One counter set: the flow it counts, its values and how the last read went.
	 */
	public static final class CounterSetDescriptor implements OperationResponseBody {

		private final String name;

		private final String device;

		private final int port;

		private final FlowDescriptor flow;

		private final String readMode;

		private final Map<String, Long> values;

		private final Instant readAt;

		private final boolean readSucceeded;

		private final long failedReads;

		private final @Nullable String lastError;

		CounterSetDescriptor(CounterSet set, CounterSetReading reading) {
			this.name = set.name();
			this.device = set.deviceName();
			this.port = set.port();
			this.flow = new FlowDescriptor(set.spec());
			this.readMode = readModeName(set.readMode());
			Map<String, Long> values = new LinkedHashMap<>();
			for (CounterType type : CounterType.values()) {
				if (reading.has(type)) {
					values.put(type.name().toLowerCase(Locale.ROOT), reading.value(type));
				}
			}
			this.values = Collections.unmodifiableMap(values);
			this.readAt = reading.readAt();
			this.readSucceeded = reading.isSuccess();
			this.failedReads = reading.failedReads();
			RuntimeException failure = reading.failure();
			this.lastError = (failure != null) ? failure.getMessage() : null;
		}

		/**
		 * Return the set name.
		 * @return the name
		 */
		public String getName() {
			return this.name;
		}

		/**
		 * Return the device the set counts on.
		 * @return the device name
		 */
		public String getDevice() {
			return this.device;
		}

		/**
		 * Return the port the flow is attached to.
		 * @return the port number
		 */
		public int getPort() {
			return this.port;
		}

		/**
		 * Return the flow that feeds the set.
		 * @return the flow
		 */
		public FlowDescriptor getFlow() {
			return this.flow;
		}

		/**
		 * Return how the counters are read.
		 * @return {@code fresh} or {@code prefer-cached}
		 */
		public String getReadMode() {
			return this.readMode;
		}

		/**
		 * Return the values by counter type.
		 * @return the values, e.g. {@code packets} and {@code bytes}
		 */
		public Map<String, Long> getValues() {
			return this.values;
		}

		/**
		 * Return when the values were read.
		 * @return the read time
		 */
		public Instant getReadAt() {
			return this.readAt;
		}

		/**
		 * Return whether the last read succeeded; if not, the values are the last good
		 * ones.
		 * @return {@code true} if the values are fresh
		 */
		public boolean isReadSucceeded() {
			return this.readSucceeded;
		}

		/**
		 * Return the number of failed reads so far.
		 * @return the failed reads
		 */
		public long getFailedReads() {
			return this.failedReads;
		}

		/**
		 * Return why the last read failed.
		 * @return the error, or {@code null} if it succeeded
		 */
		public @Nullable String getLastError() {
			return this.lastError;
		}

	}

	/**
	 * The flow that feeds a counter set.
	 */
	public static final class FlowDescriptor {

		private final String match;

		private final int priority;

		private final boolean dontTrap;

		FlowDescriptor(FlowSpec spec) {
			this.match = spec.describe();
			this.priority = spec.priority();
			this.dontTrap = spec.dontTrap();
		}

		/**
		 * Return what the flow matches.
		 * @return the description, e.g. {@code udp dst-port 4791}
		 */
		public String getMatch() {
			return this.match;
		}

		/**
		 * Return the flow priority.
		 * @return the priority
		 */
		public int getPriority() {
			return this.priority;
		}

		/**
		 * Return whether matched packets still reach the kernel.
		 * @return {@code true} if the flow does not steal traffic
		 */
		public boolean isDontTrap() {
			return this.dontTrap;
		}

	}

}
