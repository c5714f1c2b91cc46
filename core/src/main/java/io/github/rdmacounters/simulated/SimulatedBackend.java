package io.github.rdmacounters.simulated;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
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
import io.github.rdmacounters.sysfs.SysfsHostPortCountersSource;
import io.github.rdmacounters.sysfs.SysfsPortCountersSource;
import io.github.rdmacounters.sysfs.SysfsTree;

/**
 * A pure-Java backend of simulated devices with the semantics of the native backend on
 * mlx5: counter points attached statically ({@code EBUSY} once bound), the same index
 * attached twice aggregates, reading an unbound handle or into too small an array fails
 * with {@code EINVAL} (a larger array keeps its extra slots), the first flow of a handle
 * needs at least one point ({@code EINVAL}) and further flows share it (their packets add
 * up; once every flow is destroyed the handle may be attached to and bound again), flows
 * need managed flow steering, an existing port and a priority of at most 15
 * ({@code ENOMEM}); each port a flow is created on gets one raw packet queue pair, moved
 * to {@code INIT} then {@code RTR} with {@code ibv_modify_qp}; devices whose provider has
 * no flow counters fail {@code ibv_create_counters} with {@code EOPNOTSUPP}. Traffic is
 * steered as mlx5 does (see {@link #deliver}). Objects close once, parents close their
 * children first, and calls after close throw
 * {@link io.github.rdmacounters.core.RdmaClosedException}.
 * <p>
 * Demos drive it through a control API: {@link #deliver} and {@link #deliverRoce} make
 * packets arrive at a port (moving flow counters and port counters), {@link #transmit}
 * sends them (port counters only), {@link #setPortState} takes a link down or up, and
 * {@link #portCounters(String)} reads the device's simulated sysfs tree. A
 * {@link VerbHook} found by {@link ServiceLoader} (core's test support has one) sees
 * every verb and object; without one nothing is recorded. Thread-safe: traffic may be
 * delivered from one thread while others read and close.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public final class SimulatedBackend implements RdmaBackend {

	/**
	 * The backend name.
	 */
	public static final String NAME = "simulated";

	private final Map<String, SimulatedHardware> hardware;

	private final List<SimulatedDeviceSpec> specs;

	private final @Nullable VerbHook hook = ServiceLoader.load(VerbHook.class).findFirst().orElse(null);

	private final Clock clock;

	private final SimulatedSysfsTree sysfsTree;

	private final SimulatedEvents events;

	/**
	 * Create a backend with the given devices and the system clock.
	 * @param devices the devices, with distinct names
	 */
	public SimulatedBackend(List<SimulatedDeviceSpec> devices) {
		this(devices, Clock.systemUTC());
	}

	/**
	 * Create a backend with the given devices.
	 * @param devices the devices, with distinct names
	 * @param clock the clock that stamps counter snapshots and port counter snapshots
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
	}

	/**
	 * Create a backend with one default device, {@code sim_mlx5_0}.
	 * @return the backend
	 * @see SimulatedDeviceSpec#defaults()
	 */
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

	/**
	 * Return the devices that are not removed, in the order given, from the list that
	 * {@code ibv_get_device_list} returned: the caller went through it once.
	 */
	private List<DeviceId> presentDevices() {
		return this.specs.stream()
			.filter((spec) -> !this.events.isGone(spec.name()))
			.map((spec) -> new DeviceId(spec.name(), spec.nodeGuid()))
			.toList();
	}

	/**
	 * Return the specs of the devices.
	 * @return the specs, in the order given
	 */
	public List<SimulatedDeviceSpec> specs() {
		return this.specs;
	}

	/**
	 * Make a packet arrive at a port. If the port is {@code ACTIVE}, its receive counters
	 * move ({@code port_rcv_packets}, {@code port_rcv_data}, unicast or multicast by the
	 * destination MAC). RoCEv2 traffic (UDP 4791) on an Ethernet port of a device with
	 * RoCE enabled is then taken by the RoCE path, as on mlx5, and no flow sees it (use
	 * {@link #deliverRoce} to say which responder counter it moves). Other packets are
	 * steered through the flows installed on that port, by any context, as mlx5's BYPASS
	 * tables do: one table per priority and don't-trap flag (lower priority value first;
	 * at one priority the don't-trap table first), one matching flow per table counts the
	 * packet (the oldest), a don't-trap flow lets it continue to the next table, and a
	 * flow without don't-trap takes it: flows after it do not see it. A port in any other
	 * state drops the packet: nothing counts.
	 * @param device the device name
	 * @param port the port number
	 * @param packet the packet
	 * @return the number of flows that counted the packet
	 * @throws DeviceNotFoundException if there is no such device
	 * @throws IllegalArgumentException if the device has no such port
	 */
	public int deliver(String device, int port, Packet packet) {
		Objects.requireNonNull(packet, "packet");
		return hardware(device).deliver(port, packet);
	}

	/**
	 * Make a RoCEv2 packet of the given operation arrive at a port: like
	 * {@link #deliver}, and on a RoCE port the operation's responder counter in
	 * {@code hw_counters/} moves ({@code rx_write_requests}, {@code rx_read_requests},
	 * {@code rx_atomic_requests}).
	 * @param device the device name
	 * @param port the port number
	 * @param packet the packet, UDP to port 4791
	 * @param operation the RoCE operation
	 * @return the number of flows that counted the packet (0 on a RoCE port)
	 * @throws DeviceNotFoundException if there is no such device
	 * @throws IllegalArgumentException if the device has no such port
	 */
	public int deliverRoce(String device, int port, Packet packet, RoceOperation operation) {
		Objects.requireNonNull(packet, "packet");
		Objects.requireNonNull(operation, "operation");
		return hardware(device).deliver(port, packet, operation);
	}

	/**
	 * Make a port send a packet: its transmit counters move ({@code port_xmit_packets},
	 * {@code port_xmit_data}, unicast or multicast). Steering flows count received
	 * traffic only, so no flow counter moves.
	 * @param device the device name
	 * @param port the port number
	 * @param packet the packet
	 * @return {@code true} if the port is {@code ACTIVE} and sent it
	 * @throws DeviceNotFoundException if there is no such device
	 * @throws IllegalArgumentException if the device has no such port
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
	 * statistics of the device's netdevs ({@link #netdevStatistics()}).
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
	 * Change the logical state of a port; the physical state follows ({@code LinkUp}, or
	 * {@code Disabled} for {@code DOWN}), and leaving {@code ACTIVE} counts a
	 * {@code link_downed}.
	 * @param device the device name
	 * @param port the port number
	 * @param state the new state
	 */
	public void setPortState(String device, int port, PortState state) {
		Objects.requireNonNull(state, "state");
		SimulatedHardware hardware = hardware(device);
		hardware.checkPort(port);
		boolean wasActive = hardware.port(port).state() == PortState.ACTIVE;
		hardware.setPortState(port, state);
		// mlx5 reports the move in and out of ACTIVE (mlx5_ib_handle_event: PORT_ACTIVE,
		// PORT_ERR)
		if (wasActive != (state == PortState.ACTIVE)) {
			this.events.raise(device,
					(state == PortState.ACTIVE) ? DeviceEvent.Type.PORT_ACTIVE : DeviceEvent.Type.PORT_ERR, port);
		}
	}

	/**
	 * Raise an asynchronous event on every open context of a device, as the kernel queues
	 * it on every file of the device: the listeners of each context are called on the
	 * calling thread before this method returns. {@link #setPortState} raises
	 * {@code PORT_ERR} and {@code PORT_ACTIVE} by itself.
	 * @param device the device name
	 * @param type the event; {@link DeviceEvent.Type#DEVICE_FATAL} alone leaves the
	 * contexts usable (see {@link #removeDevice} for a device that goes away)
	 * @param port the port of a port event; ignored for a device event
	 * @return the number of open contexts that got it
	 * @throws DeviceNotFoundException if there is no such device
	 * @throws IllegalArgumentException if a port event names a port the device does not
	 * have
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
	 * Make a device go away, as a firmware reset, driver reload or unplug does: every
	 * open context gets {@code IBV_EVENT_DEVICE_FATAL} and is disassociated (its queries,
	 * creations and counter reads fail with {@code EIO}; destroys and close succeed), and
	 * the device is not listed or openable until {@link #restoreDevice(String)}.
	 * @param device the device name
	 * @return the number of open contexts that got the event
	 * @throws DeviceNotFoundException if there is no such device
	 */
	public int removeDevice(String device) {
		hardware(device);
		return this.events.remove(device);
	}

	/**
	 * Make a removed device present again; contexts opened before stay disassociated.
	 * @param device the device name
	 * @throws DeviceNotFoundException if there is no such device
	 */
	public void restoreDevice(String device) {
		hardware(device);
		this.events.restore(device);
	}

	/**
	 * Return the simulated {@code /sys/class/infiniband} tree of every device, generated
	 * from their live state.
	 * @return the tree
	 */
	public SysfsTree sysfsTree() {
		return this.sysfsTree;
	}

	/**
	 * Return a port counters source over a device's simulated sysfs tree that reads the
	 * tree on every snapshot: no read cache (a time-to-live of zero), so each snapshot
	 * sees the traffic delivered so far. Use {@link #portCounters(String, Duration)} to
	 * reuse snapshots the way a configured application does
	 * ({@code rdma.read-cache-ttl}).
	 * @param device the device name
	 * @return the source, with a read cache time-to-live of {@link Duration#ZERO}
	 * @throws DeviceNotFoundException if there is no such device
	 */
	public SysfsPortCountersSource portCounters(String device) {
		return portCounters(device, Duration.ZERO);
	}

	/**
	 * Return a port counters source over a device's simulated sysfs tree whose snapshots
	 * are stamped, and aged, by this backend's clock.
	 * @param device the device name
	 * @param readCacheTtl how long a snapshot is reused; {@link Duration#ZERO} reads
	 * every time
	 * @return the source
	 * @throws DeviceNotFoundException if there is no such device
	 */
	public SysfsPortCountersSource portCounters(String device, Duration readCacheTtl) {
		hardware(device);
		return new SysfsPortCountersSource(device, this.sysfsTree, readCacheTtl, this.clock);
	}

	/**
	 * Return a port counters source over a device's simulated sysfs tree; the host's
	 * sysfs root plays no part.
	 * @param deviceName the device name
	 * @param sysfsRoot ignored: the simulator has its own tree ({@link #sysfsTree()})
	 * @param readCacheTtl how long a snapshot is reused
	 * @return the source
	 * @throws DeviceNotFoundException if there is no such device
	 */
	@Override
	public PortCountersSource portCounters(String deviceName, Path sysfsRoot, Duration readCacheTtl) {
		return portCounters(deviceName, readCacheTtl);
	}

	SimulatedEvents events() {
		return this.events;
	}

	/**
	 * Return the port counters of every simulated device, read from the simulator's own
	 * tree; the host's sysfs root plays no part.
	 * @param sysfsRoot ignored: the simulator has its own tree ({@link #sysfsTree()})
	 * @param deviceFilter which devices are read
	 * @param counterFilter which counter files are read
	 * @param readCacheTtl how long a snapshot is reused
	 * @return the source
	 */
	@Override
	public HostPortCountersSource hostPortCounters(Path sysfsRoot, Predicate<String> deviceFilter,
			Predicate<String> counterFilter, Duration readCacheTtl) {
		return new SysfsHostPortCountersSource(this.sysfsTree, deviceFilter, counterFilter, readCacheTtl, this.clock);
	}

	@Nullable VerbHook hook() {
		return this.hook;
	}

	/**
	 * Let the hook see a verb about to run, and fail it.
	 * @param verb the C verb name
	 */
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
