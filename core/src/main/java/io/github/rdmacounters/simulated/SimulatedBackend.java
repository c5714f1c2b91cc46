package io.github.rdmacounters.simulated;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.DeviceEvent;
import io.github.rdmacounters.core.DeviceId;
import io.github.rdmacounters.core.DeviceNotFoundException;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.PortCountersSource;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.ethtool.NetdevStatistics;
import io.github.rdmacounters.ethtool.StatisticsReader;
import io.github.rdmacounters.netlink.NldevMonitor;
import io.github.rdmacounters.netlink.NldevMonitorEvent;
import io.github.rdmacounters.sysfs.SysfsHostPortCountersSource;
import io.github.rdmacounters.sysfs.SysfsPortCountersSource;
import io.github.rdmacounters.sysfs.SysfsTree;

/**
 * A pure-Java backend of simulated devices that behave as the native backend on mlx5:
 * same errno for the same misuse, same steering, same close order.
 * <p>
 * Demos drive it with {@link #deliver}, {@link #deliverRoce}, {@link #transmit} and
 * {@link #setPortState}. A {@link VerbHook} found by {@link ServiceLoader} sees every
 * verb and object. Thread-safe.
 *
 * @since 0.1.0
 */
public final class SimulatedBackend implements RdmaBackend {

	/** The backend name. */
	public static final String NAME = "simulated";

	private final Map<String, SimulatedHardware> hardware;

	private final List<SimulatedDeviceSpec> specs;

	private final @Nullable VerbHook hook = ServiceLoader.load(VerbHook.class).findFirst().orElse(null);

	private final Clock clock;

	private final SimulatedSysfsTree sysfsTree;

	private final SimulatedEvents events;

	/** The listeners of the simulated RDMA netlink monitor. */
	private final List<NldevMonitor.Listener> monitors = new CopyOnWriteArrayList<>();

	/** The RDMA netlink index of each device's current registration. */
	private final Map<String, Long> nldevIndexes = new java.util.concurrent.ConcurrentHashMap<>();

	private final java.util.concurrent.atomic.AtomicLong nextNldevIndex = new java.util.concurrent.atomic.AtomicLong();

	/** Create a backend with the given devices, with distinct names. */
	public SimulatedBackend(List<SimulatedDeviceSpec> devices) {
		this(devices, Clock.systemUTC());
	}

	/**
	 * Create a backend with the given devices and the clock that stamps their snapshots.
	 */
	public SimulatedBackend(List<SimulatedDeviceSpec> devices, Clock clock) {
		Map<String, SimulatedHardware> byName = new LinkedHashMap<>();
		for (SimulatedDeviceSpec spec : devices) {
			if (byName.put(spec.name(), new SimulatedHardware(spec)) != null) {
				throw new IllegalArgumentException("Two simulated devices are named '" + spec.name() + "'");
			}
		}
		this.hardware = Map.copyOf(byName);
		this.specs = List.copyOf(devices);
		this.clock = clock;
		this.sysfsTree = new SimulatedSysfsTree(this.hardware);
		this.events = new SimulatedEvents(clock);
		this.hardware.keySet().forEach(this::register);
	}

	// assign_name (drivers/infiniband/core/device.c): every registration a new index
	private void register(String device) {
		this.nldevIndexes.put(device, this.nextNldevIndex.getAndIncrement());
	}

	long nldevIndex(String device) {
		return this.nldevIndexes.get(device);
	}

	List<SimulatedHardware> presentHardware() {
		return this.specs.stream()
			.filter((spec) -> !this.events.isGone(spec.name()))
			.map((spec) -> this.hardware.get(spec.name()))
			.toList();
	}

	/**
	 * Return what RDMA netlink answers about the simulated devices: their optional
	 * counters (a RoCE port of a device with flow counters has mlx5's, which count its
	 * RoCE traffic and, while it is congested, ECN marks and CNPs; see
	 * {@link #setCongested}) and their queue pairs. A device that was removed and
	 * restored is registered under a new index with its optional counters disabled, as
	 * after a driver reload.
	 * @return the client; closing it does nothing
	 */
	public io.github.rdmacounters.netlink.NldevClient nldev() {
		return new SimulatedNldev(this);
	}

	/** Create a backend with one default device, {@code sim_mlx5_0}. */
	public static SimulatedBackend withDefaultDevice() {
		return new SimulatedBackend(List.of(SimulatedDeviceSpec.defaults()));
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public List<DeviceId> devices() {
		beforeVerb("ibv_get_device_list");
		return presentDevices();
	}

	@Override
	public RdmaDevice open(String deviceName) {
		Objects.requireNonNull(deviceName, "deviceName");
		beforeVerb("ibv_get_device_list");
		SimulatedHardware device = this.hardware.get(deviceName);
		if (device == null || this.events.isGone(deviceName)) {
			throw new DeviceNotFoundException(deviceName, presentDevices().stream().map(DeviceId::name).toList());
		}
		beforeVerb("ibv_open_device");
		SimulatedDevice opened = new SimulatedDevice(this, device);
		track(opened);
		this.events.opened(opened);
		return opened;
	}

	// The devices not removed, as ibv_get_device_list lists them
	private List<DeviceId> presentDevices() {
		return this.specs.stream()
			.filter((spec) -> !this.events.isGone(spec.name()))
			.map((spec) -> new DeviceId(spec.name(), spec.nodeGuid()))
			.toList();
	}

	public List<SimulatedDeviceSpec> specs() {
		return this.specs;
	}

	/**
	 * Make a packet arrive at an {@code ACTIVE} port: its receive counters move, then the
	 * packet is steered as mlx5's BYPASS tables do (priority order, don't-trap first, one
	 * counting flow per table). RoCEv2 on a RoCE port takes the RoCE path and no flow
	 * sees it.
	 * @return the number of flows that counted the packet
	 */
	public int deliver(String device, int port, Packet packet) {
		Objects.requireNonNull(packet, "packet");
		return hardware(device).deliver(port, packet);
	}

	/**
	 * Make a RoCEv2 packet arrive at a port, moving the operation's responder counter in
	 * {@code hw_counters/}.
	 * @return the number of flows that counted the packet (0 on a RoCE port)
	 */
	public int deliverRoce(String device, int port, Packet packet, RoceOperation operation) {
		Objects.requireNonNull(packet, "packet");
		Objects.requireNonNull(operation, "operation");
		return hardware(device).deliver(port, packet, operation);
	}

	/**
	 * Make a port send a packet: only port counters move, flows count received traffic.
	 * @return {@code true} if the port is {@code ACTIVE} and sent it
	 */
	public boolean transmit(String device, int port, Packet packet) {
		Objects.requireNonNull(packet, "packet");
		return hardware(device).transmit(port, packet);
	}

	/**
	 * Make a port congested or not, as a RoCE port with PFC on priority 3 sees it: while
	 * it is, each RoCE packet delivered to it makes it send a pause frame
	 * ({@code tx_prio3_pause}) and each RoCE packet it transmits meets a pause from the
	 * network ({@code rx_prio3_pause}, {@code rx_prio3_pause_duration}); the end of the
	 * congestion counts a transition ({@code rx_prio3_pause_transition}). Seen in the
	 * statistics of the device's netdevs ({@link #netdevStatistics()}). Each RoCE packet
	 * delivered also arrives ECN-marked and is answered with a CNP
	 * ({@code cc_rx_ce_pkts}, {@code cc_tx_cnp_pkts}), each one transmitted draws a CNP
	 * ({@code cc_rx_cnp_pkts}): the optional counters of {@link #nldev()}, while enabled.
	 * @param device the device name
	 * @param port the port number
	 * @param congested whether the port is congested
	 * @throws DeviceNotFoundException if there is no such device
	 * @throws IllegalArgumentException if the device has no such port
	 */
	public void setCongested(String device, int port, boolean congested) {
		hardware(device).setCongested(port, congested);
	}

	/**
	 * Return a reader of the driver statistics of the simulated devices' netdevs
	 * ({@link SimulatedDeviceSpec#netdevs()}): the {@code i}-th netdev of a device is its
	 * port {@code i + 1} (the last port for extra netdevs), with a subset of mlx5's
	 * statistics that {@link #deliver}, {@link #deliverRoce}, {@link #transmit} and
	 * {@link #setCongested} move. A name no simulated device has fails with
	 * {@code ENODEV}, as the kernel answers for an interface it does not know.
	 * @return the reader
	 */
	public StatisticsReader netdevStatistics() {
		return (netdev) -> {
			for (SimulatedHardware device : this.hardware.values()) {
				int index = device.spec().netdevs().indexOf(netdev);
				if (index >= 0) {
					int port = Math.min(index + 1, device.portCount());
					return new NetdevStatistics(netdev, SimulatedNetdevStatistics.NAMES, device.netdevStatistics(port));
				}
			}
			throw new RdmaOperationException("ioctl(SIOCETHTOOL, ETHTOOL_GSSET_INFO) on " + netdev, Errno.ENODEV,
					"no simulated device has this netdev");
		};
	}

	/**
	 * Change the state of a port; leaving {@code ACTIVE} counts a {@code link_downed}.
	 */
	public void setPortState(String device, int port, PortState state) {
		Objects.requireNonNull(state, "state");
		SimulatedHardware hardware = hardware(device);
		hardware.checkPort(port);
		boolean wasActive = hardware.port(port).state() == PortState.ACTIVE;
		hardware.setPortState(port, state);
		// mlx5_ib_handle_event reports moves in and out of ACTIVE
		if (wasActive != (state == PortState.ACTIVE)) {
			this.events.raise(device,
					(state == PortState.ACTIVE) ? DeviceEvent.Type.PORT_ACTIVE : DeviceEvent.Type.PORT_ERR, port);
		}
	}

	/**
	 * Raise an asynchronous event on every open context of the device, on the calling
	 * thread, as the kernel queues it on every file of the device.
	 * @param port the port of a port event; ignored for a device event
	 * @return the number of open contexts that got it
	 */
	public int raiseEvent(String device, DeviceEvent.Type type, int port) {
		Objects.requireNonNull(type, "type");
		SimulatedHardware hardware = hardware(device);
		if (type.isPortEvent()) {
			hardware.checkPort(port);
		}
		return this.events.raise(device, type, port);
	}

	/**
	 * Make a device go away (firmware reset, driver reload): open contexts get
	 * {@code DEVICE_FATAL} and fail with {@code EIO} but close cleanly; the device is not
	 * listed until {@link #restoreDevice(String)}.
	 * @return the number of open contexts that got the event
	 */
	public int removeDevice(String device) {
		hardware(device);
		boolean present = !this.events.isGone(device);
		int contexts = this.events.remove(device);
		if (present) {
			// __ib_unregister_device: the clients are removed (uverbs raises
			// DEVICE_FATAL),
			// then the monitor's event
			notifyMonitors(NldevMonitorEvent.Type.UNREGISTER, device);
		}
		return contexts;
	}

	/** Make a removed device present again; contexts opened before stay disassociated. */
	public void restoreDevice(String device) {
		SimulatedHardware hardware = hardware(device);
		if (this.events.isGone(device)) {
			// a new registration: optional counters do not survive it
			hardware.resetOptionalCounters();
			hardware.resetQpCounters();
			register(device);
			this.events.restore(device);
			notifyMonitors(NldevMonitorEvent.Type.REGISTER, device);
			return;
		}
		this.events.restore(device);
	}

	/**
	 * Follow the simulated RDMA netlink monitor: {@link #removeDevice} sends
	 * {@code RDMA_UNREGISTER_EVENT} and {@link #restoreDevice}
	 * {@code RDMA_REGISTER_EVENT} under the device's new index, on the calling thread, as
	 * the kernel multicasts them when a driver unregisters and registers a device.
	 * @param listener receives the events
	 * @return what stops them
	 */
	public AutoCloseable monitor(NldevMonitor.Listener listener) {
		this.monitors.add(listener);
		return () -> this.monitors.remove(listener);
	}

	private void notifyMonitors(NldevMonitorEvent.Type type, String device) {
		NldevMonitorEvent event = new NldevMonitorEvent(type, nldevIndex(device), device, 0, null, null,
				this.clock.instant());
		for (NldevMonitor.Listener listener : this.monitors) {
			try {
				listener.onEvent(event);
			}
			catch (RuntimeException ex) {
				System.getLogger(SimulatedBackend.class.getName())
					.log(System.Logger.Level.WARNING, "RDMA monitor listener " + listener + " failed on " + event, ex);
			}
		}
	}

	/** Return the simulated {@code /sys/class/infiniband} tree of every device. */
	public SysfsTree sysfsTree() {
		return this.sysfsTree;
	}

	/**
	 * Return a port counters source over a device's simulated tree without read cache.
	 */
	public SysfsPortCountersSource portCounters(String device) {
		return portCounters(device, Duration.ZERO);
	}

	/** Return a port counters source over a device's simulated tree. */
	public SysfsPortCountersSource portCounters(String device, Duration readCacheTtl) {
		hardware(device);
		return new SysfsPortCountersSource(device, this.sysfsTree, readCacheTtl, this.clock);
	}

	@Override
	public PortCountersSource portCounters(String deviceName, Path sysfsRoot, Duration readCacheTtl) {
		return portCounters(deviceName, readCacheTtl);
	}

	SimulatedEvents events() {
		return this.events;
	}

	@Override
	public HostPortCountersSource hostPortCounters(Path sysfsRoot, Predicate<String> deviceFilter,
			Predicate<String> counterFilter, Duration readCacheTtl) {
		return new SysfsHostPortCountersSource(this.sysfsTree, deviceFilter, counterFilter, readCacheTtl, this.clock);
	}

	@Override
	public HostPortCountersSource hostPortCounters(Path sysfsRoot, Predicate<String> deviceFilter,
			Predicate<String> counterFilter, Duration readCacheTtl, Duration readDeadline) {
		return new SysfsHostPortCountersSource(this.sysfsTree, deviceFilter, counterFilter, readCacheTtl, this.clock,
				readDeadline);
	}

	@Nullable VerbHook hook() {
		return this.hook;
	}

	void beforeVerb(String verb) {
		VerbHook current = this.hook;
		if (current != null) {
			current.beforeVerb(verb);
		}
	}

	Clock clock() {
		return this.clock;
	}

	void track(Object object) {
		VerbHook current = this.hook;
		if (current != null) {
			current.allocated(object);
		}
	}

	void untrack(Object object) {
		VerbHook current = this.hook;
		if (current != null) {
			current.freed(object);
		}
	}

	private SimulatedHardware hardware(String device) {
		SimulatedHardware found = this.hardware.get(device);
		if (found == null) {
			throw new DeviceNotFoundException(device, deviceNames());
		}
		return found;
	}

	private List<String> deviceNames() {
		return this.specs.stream().map(SimulatedDeviceSpec::name).toList();
	}

	@Override
	public String toString() {
		return "SimulatedBackend " + deviceNames();
	}

}
