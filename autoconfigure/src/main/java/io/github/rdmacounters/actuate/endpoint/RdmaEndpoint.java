package io.github.rdmacounters.actuate.endpoint;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.DeviceAttributes;
import io.github.rdmacounters.core.HostPortCountersSnapshot;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.PortCountersSource;
import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.core.ReadCache;
import io.github.rdmacounters.core.ReadStall;
import io.github.rdmacounters.ethtool.HostNetdevStatistics;
import io.github.rdmacounters.ethtool.NetdevPortStatistics;
import io.github.rdmacounters.netlink.OptionalCounters;
import io.github.rdmacounters.netlink.PortOptionalCounters;
import io.github.rdmacounters.netlink.ProcessQueuePairs;
import io.github.rdmacounters.netlink.QueuePairCounters;
import io.github.rdmacounters.sysfs.FileSystemSysfsTree;
import io.github.rdmacounters.sysfs.NoRdmaDevices;
import io.github.rdmacounters.sysfs.SysfsHostPortCountersSource;

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

	private final @Nullable OptionalCounters optionalCounters;

	private final @Nullable ProcessQueuePairs queuePairs;

	private final @Nullable HostNetdevStatistics ethtool;

	private final @Nullable QueuePairCounters queuePairCounters;

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
		this(registry, host, backend, null, null, null);
	}

	/**
	 * Create an endpoint that also shows, per port, the optional counters and the queue
	 * pairs of this process (RDMA netlink), and the RoCE-relevant driver statistics of
	 * the port's netdev (pause, discards, PHY errors, RDMA bytes).
	 * @param registry the devices and their counter sets
	 * @param host the host's port counters, or {@code null}
	 * @param backend the backend name shown for devices that only have port counters
	 * @param optionalCounters the optional counters, or {@code null}
	 * @param queuePairs the queue pairs of this process, or {@code null}
	 * @param ethtool the netdevs' driver statistics, or {@code null}
	 * @since 0.1.0
	 */
	public RdmaEndpoint(RdmaRegistry registry, @Nullable HostPortCountersSource host, String backend,
			@Nullable OptionalCounters optionalCounters, @Nullable ProcessQueuePairs queuePairs,
			@Nullable HostNetdevStatistics ethtool) {
		this(registry, host, backend, optionalCounters, queuePairs, ethtool, null);
	}

	/**
	 * Create an endpoint that also shows, per port, the optional counters, the queue
	 * pairs of this process and their hardware counters (RDMA netlink), and the
	 * RoCE-relevant driver statistics of the port's netdev.
	 * @param registry the devices and their counter sets
	 * @param host the host's port counters, or {@code null}
	 * @param backend the backend name shown for devices that only have port counters
	 * @param optionalCounters the optional counters, or {@code null}
	 * @param queuePairs the queue pairs of this process, or {@code null}
	 * @param ethtool the netdevs' driver statistics, or {@code null}
	 * @param queuePairCounters the counters of this process's queue pairs, or
	 * {@code null}
	 * @since 0.1.0
	 */
	public RdmaEndpoint(RdmaRegistry registry, @Nullable HostPortCountersSource host, String backend,
			@Nullable OptionalCounters optionalCounters, @Nullable ProcessQueuePairs queuePairs,
			@Nullable HostNetdevStatistics ethtool, @Nullable QueuePairCounters queuePairCounters) {
		this.queuePairCounters = queuePairCounters;
		this.registry = registry;
		this.host = host;
		this.backend = backend;
		this.optionalCounters = optionalCounters;
		this.queuePairs = queuePairs;
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
		ReadStall stall = null;
		if (source != null) {
			HostPortCountersSnapshot host = source.snapshot();
			stall = host.stall();
			for (PortCountersSnapshot device : host.devices()) {
				if (!devices.containsKey(device.deviceName())) {
					devices.put(device.deviceName(), describe(device));
				}
			}
		}
		addPortDetails(devices);
		Map<String, Long> readsStalled = new LinkedHashMap<>();
		Map<String, String> stalled = new LinkedHashMap<>();
		readSources().forEach((name, caches) -> {
			long stalls = 0;
			for (ReadCache<?> cache : caches) {
				stalls += cache.stalls();
				ReadStall stuck = cache.stall();
				if (stuck != null) {
					stalled.merge(name, stuck.describe(), (first, second) -> first + "; " + second);
				}
			}
			readsStalled.put(name, stalls);
		});
		return new RdmaDescriptor(devices, (devices.isEmpty() && stall == null) ? noDevicesReason() : null,
				(stall != null) ? stall.describe() : null, readsStalled, stalled);
	}

	/**
	 * The read caches of each source, as the read self-metrics name the sources.
	 */
	private Map<String, List<ReadCache<?>>> readSources() {
		Map<String, List<ReadCache<?>>> sources = new LinkedHashMap<>();
		if (this.host instanceof SysfsHostPortCountersSource sysfs) {
			sources.put("port_counters", List.of(sysfs.reads()));
		}
		List<ReadCache<?>> sets = new ArrayList<>();
		this.registry.counterSets().forEach((set) -> sets.add(set.reads()));
		if (!sets.isEmpty()) {
			sources.put("flow_counters", sets);
		}
		if (this.ethtool != null) {
			sources.put("ethtool", new ArrayList<>(this.ethtool.reads()));
		}
		if (this.optionalCounters != null) {
			sources.put("optional_counters", List.of(this.optionalCounters.reads()));
		}
		List<ReadCache<?>> queuePairs = new ArrayList<>();
		if (this.queuePairs != null) {
			queuePairs.add(this.queuePairs.reads());
		}
		if (this.queuePairCounters != null) {
			queuePairs.add(this.queuePairCounters.reads());
		}
		if (!queuePairs.isEmpty()) {
			sources.put("queue_pairs", queuePairs);
		}
		return sources;
	}

	private @Nullable String noDevicesReason() {
		if (this.host instanceof SysfsHostPortCountersSource sysfs
				&& sysfs.tree() instanceof FileSystemSysfsTree tree) {
			return NoRdmaDevices.line(tree.root());
		}
		return null;
	}

	/**
	 * Add what RDMA netlink and the netdevs' driver statistics know of each port.
	 */
	private void addPortDetails(Map<String, DeviceDescriptor> devices) {
		if (this.optionalCounters == null && this.queuePairs == null && this.ethtool == null) {
			return;
		}
		Map<String, Map<Integer, Map<String, OptionalCounterDescriptor>>> optional = new LinkedHashMap<>();
		if (this.optionalCounters != null) {
			for (PortOptionalCounters port : this.optionalCounters.snapshot().ports()) {
				Map<String, OptionalCounterDescriptor> counters = new LinkedHashMap<>();
				port.counters().forEach((name, counter) -> counters.put(name, OptionalCounterDescriptor.of(counter)));
				optional.computeIfAbsent(port.device(), (name) -> new TreeMap<>()).put(port.port(), counters);
			}
		}
		ProcessQueuePairs.Snapshot queuePairs = (this.queuePairs != null) ? this.queuePairs.snapshot() : null;
		QueuePairCounters.Snapshot queuePairCounters = (this.queuePairCounters != null)
				? this.queuePairCounters.snapshot() : null;
		devices.replaceAll((name, device) -> {
			Map<Integer, PortDescriptor> ports = new TreeMap<>();
			device.ports().forEach((number, port) -> {
				Map<String, Integer> counts = (queuePairs != null) ? queuePairs.counts(name, number) : Map.of();
				Map<String, NetdevPortStatistics> netdevs = ethtool(name, number);
				ports.put(number,
						port.withDetails(netdevs.isEmpty() ? null : netdevs,
								optional.getOrDefault(name, Map.of()).get(number), counts.isEmpty() ? null : counts,
								(queuePairCounters != null) ? queuePairCounters.port(name, number) : null));
			});
			return device.withPorts(ports);
		});
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
		return DeviceDescriptor.of(snapshot.deviceName(), this.backend, snapshot.isPresent(), reason, null, null,
				snapshot, ports(snapshot), Map.of());
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
			return DeviceDescriptor.of(managed.name(), managed.backend(), false, reason, null, null, snapshot,
					ports(managed, null, snapshot), sets);
		}
		DeviceAttributes attributes = null;
		String error = null;
		try {
			attributes = device.queryDevice();
		}
		catch (RuntimeException ex) {
			error = ex.getMessage();
		}
		return DeviceDescriptor.of(managed.name(), managed.backend(), true, null, attributes, error, snapshot,
				ports(managed, device, snapshot), sets);
	}

	private Map<String, NetdevPortStatistics> ethtool(String device, int port) {
		if (this.ethtool == null) {
			return Map.of();
		}
		try {
			return this.ethtool.port(device, port);
		}
		catch (RuntimeException ex) {
			// a device the host's port counters do not serve has no netdev statistics
			return Map.of();
		}
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

	private static CounterSetDescriptor describe(CounterSet set) {
		return CounterSetDescriptor.of(set, set.read());
	}

}
