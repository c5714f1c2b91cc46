package io.github.rdmacounters.simulated;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.netlink.NldevQpCounter;
import io.github.rdmacounters.netlink.RdmaNldev;

/**
 * One simulated adapter, shared by every context opened on it: port states, port counters
 * and steering flows, all guarded by this object's monitor.
 */
final class SimulatedHardware {

	/**
	 * {@code MLX5_IB_FLOW_LAST_PRIO}; {@code mlx5_ib_create_flow} gives ENOMEM beyond.
	 */
	static final int LAST_PRIORITY = 15;

	/** mlx5 RoCE port {@code hw_counters/}; only the responder request counters move. */
	static final List<String> HW_COUNTERS = List.of("duplicate_request", "implied_nak_seq_err", "local_ack_timeout_err",
			"np_cnp_sent", "np_ecn_marked_roce_packets", "out_of_buffer", "out_of_sequence", "packet_seq_err",
			"req_cqe_error", "req_cqe_flush_error", "req_remote_access_errors", "req_remote_invalid_request",
			"resp_cqe_error", "resp_cqe_flush_error", "resp_local_length_error", "resp_remote_access_errors",
			"rnr_nak_retry_err", "rp_cnp_handled", "rp_cnp_ignored", "rx_atomic_requests", "rx_read_requests",
			"rx_write_requests");

	/** IB PMA counters ({@code counters/}), sorted as {@code ls} lists them. */
	static final List<String> PMA_COUNTERS = List.of("VL15_dropped", "excessive_buffer_overrun_errors", "link_downed",
			"link_error_recovery", "local_link_integrity_errors", "multicast_rcv_packets", "multicast_xmit_packets",
			"port_rcv_constraint_errors", "port_rcv_data", "port_rcv_errors", "port_rcv_packets",
			"port_rcv_remote_physical_errors", "port_rcv_switch_relay_errors", "port_xmit_constraint_errors",
			"port_xmit_data", "port_xmit_discards", "port_xmit_packets", "port_xmit_wait", "symbol_error",
			"unicast_rcv_packets", "unicast_xmit_packets");

	/**
	 * mlx5's optional counters of a RoCE port ({@code optional counters} of
	 * {@code drivers/infiniband/hw/mlx5/counters.c}): congestion control and RDMA
	 * traffic.
	 */
	static final List<String> OPTIONAL_COUNTERS = List.of("cc_rx_ce_pkts", "cc_rx_cnp_pkts", "cc_tx_cnp_pkts",
			"rdma_tx_packets", "rdma_tx_bytes", "rdma_rx_packets", "rdma_rx_bytes");

	// ib_prio_to_core_prio (mlx5 fs.c): don't-trap rules of user priority p go to table
	// 2p, trapping ones to 2p + 1; within a table, creation order
	private static final Comparator<SimulatedFlow> STEERING_ORDER = Comparator.comparingInt(SimulatedHardware::table)
		.thenComparingLong(SimulatedFlow::sequence);

	private final SimulatedDeviceSpec spec;

	private final SimulatedPortSpec[] ports;

	private final PortCounters[] counters;

	private final List<SimulatedFlow> flows = new ArrayList<>();

	private long flowSequence;

	/** The raw packet queue pairs of the open contexts, with their port and number. */
	private final Map<Object, long[]> queuePairs = new java.util.LinkedHashMap<>();

	private long nextQueuePairNumber = 0x100;

	/** The counters queue pairs are bound to, by id. */
	private final Map<Long, QpCounter> qpCounters = new java.util.LinkedHashMap<>();

	/** Each port's counter mode and auto-mode mask. */
	private final Map<Integer, int[]> counterModes = new HashMap<>();

	private long nextCounterId = 1;

	SimulatedHardware(SimulatedDeviceSpec spec) {
		this.spec = spec;
		this.ports = spec.ports().toArray(new SimulatedPortSpec[0]);
		this.counters = new PortCounters[this.ports.length];
		for (int i = 0; i < this.counters.length; i++) {
			this.counters[i] = new PortCounters();
		}
	}

	SimulatedDeviceSpec spec() {
		return this.spec;
	}

	String name() {
		return this.spec.name();
	}

	int portCount() {
		return this.ports.length;
	}

	boolean hasPort(int port) {
		return port >= 1 && port <= this.ports.length;
	}

	void checkPort(int port) {
		if (!hasPort(port)) {
			throw new IllegalArgumentException(
					"Simulated device " + name() + " has ports 1 to " + this.ports.length + ", not " + port);
		}
	}

	synchronized SimulatedPortSpec port(int port) {
		return this.ports[port - 1];
	}

	synchronized PortAttributes portAttributes(int port) {
		return this.ports[port - 1].toAttributes(port);
	}

	synchronized void setPortState(int port, PortState state) {
		checkPort(port);
		SimulatedPortSpec current = this.ports[port - 1];
		if (current.state() == PortState.ACTIVE && state != PortState.ACTIVE) {
			this.counters[port - 1].linkDowned++;
		}
		this.ports[port - 1] = current.withState(state);
	}

	synchronized void install(SimulatedFlow flow) {
		flow.assignSequence(++this.flowSequence);
		this.flows.add(flow);
		this.flows.sort(STEERING_ORDER);
	}

	synchronized void remove(SimulatedFlow flow) {
		this.flows.remove(flow);
	}

	private static int table(SimulatedFlow flow) {
		return 2 * flow.spec().priority() + (flow.spec().dontTrap() ? 0 : 1);
	}

	// RoCE on an Ethernet port with RoCE enabled (devlink enable_roce) takes the RoCE
	// path
	// before Ethernet steering: RoCEv2 (UDP 4791) and RoCEv1 (Ethernet type 0x8915)
	// alike.
	// Linux commit 0de60af64953 (net/mlx5_core: enable/disable RoCE): only on a port not
	// enabled for RoCE are incoming RoCE packets plain Ethernet packets to the NIC
	private boolean takenByRoce(int port, Packet packet) {
		return this.spec.roceEnabled() && this.ports[port - 1].linkLayer() == LinkLayer.ETHERNET
				&& (packet.etherType() == Packet.ETHERTYPE_ROCE_V1
						|| (packet.ipProtocol() == L4Protocol.UDP.ipProtocol()
								&& packet.destinationPort() == Packet.ROCE_V2_PORT));
	}

	synchronized int deliver(int port, Packet packet) {
		return deliver(port, packet, RoceOperation.SEND);
	}

	// One match per table, as in an mlx5 flow table; a trapping rule ends the walk
	synchronized int deliver(int port, Packet packet, RoceOperation operation) {
		checkPort(port);
		if (this.ports[port - 1].state() != PortState.ACTIVE) {
			return 0;
		}
		PortCounters portCounters = this.counters[port - 1];
		portCounters.rcvBytes += packet.length();
		portCounters.rcvPackets++;
		if (isMulticast(packet)) {
			portCounters.multicastRcvPackets++;
		}
		else {
			portCounters.unicastRcvPackets++;
		}
		if (takenByRoce(port, packet)) {
			portCounters.ethtool("rx", true, packet, isMulticast(packet));
			portCounters.optional("rdma_rx_packets", 1);
			portCounters.optional("rdma_rx_bytes", packet.length());
			if (portCounters.congested) {
				// the receive buffer of the lossless priority is full: the port pauses
				// its
				// peer
				portCounters.add("tx_prio" + SimulatedNetdevStatistics.PFC_PRIORITY + "_pause", 1);
				// and the switch marked the packet CE; as notification point the port
				// answers with a CNP
				portCounters.optional("cc_rx_ce_pkts", 1);
				portCounters.optional("cc_tx_cnp_pkts", 1);
			}
			String hwCounter = operation.hwCounter();
			if (hwCounter != null) {
				portCounters.hw.merge(hwCounter, 1L, Long::sum);
			}
			return 0;
		}
		portCounters.ethtool("rx", false, packet, isMulticast(packet));
		int counted = 0;
		int matchedTable = -1;
		for (SimulatedFlow flow : this.flows) {
			int table = table(flow);
			if (flow.port() != port || table == matchedTable || !flow.spec().matches(packet)) {
				continue;
			}
			flow.count(packet);
			counted++;
			matchedTable = table;
			if (!flow.spec().dontTrap()) {
				break;
			}
		}
		return counted;
	}

	synchronized boolean transmit(int port, Packet packet) {
		checkPort(port);
		if (this.ports[port - 1].state() != PortState.ACTIVE) {
			return false;
		}
		PortCounters portCounters = this.counters[port - 1];
		portCounters.xmitBytes += packet.length();
		portCounters.xmitPackets++;
		if (isMulticast(packet)) {
			portCounters.multicastXmitPackets++;
		}
		else {
			portCounters.unicastXmitPackets++;
		}
		boolean roce = takenByRoce(port, packet);
		portCounters.ethtool("tx", roce, packet, isMulticast(packet));
		if (roce) {
			portCounters.optional("rdma_tx_packets", 1);
			portCounters.optional("rdma_tx_bytes", packet.length());
		}
		if (roce && portCounters.congested) {
			// the receiver saw the packet CE-marked and notifies this reaction point
			portCounters.optional("cc_rx_cnp_pkts", 1);
			// the peer cannot absorb the traffic: it pauses the lossless priority
			String prefix = "rx_prio" + SimulatedNetdevStatistics.PFC_PRIORITY + "_pause";
			portCounters.add(prefix, 1);
			portCounters.add(prefix + "_duration", SimulatedNetdevStatistics.PAUSE_MICROS);
		}
		return true;
	}

	private static boolean isMulticast(Packet packet) {
		return (packet.destinationMac().octets()[0] & 1) != 0;
	}

	// Data counters in 4-byte words, as sysfs shows them
	synchronized @Nullable Long pmaCounter(int port, String name) {
		PortCounters c = this.counters[port - 1];
		return switch (name) {
			case "link_downed" -> c.linkDowned;
			case "multicast_rcv_packets" -> c.multicastRcvPackets;
			case "multicast_xmit_packets" -> c.multicastXmitPackets;
			case "port_rcv_data" -> c.rcvBytes / 4;
			case "port_rcv_packets" -> c.rcvPackets;
			case "port_xmit_data" -> c.xmitBytes / 4;
			case "port_xmit_packets" -> c.xmitPackets;
			case "unicast_rcv_packets" -> c.unicastRcvPackets;
			case "unicast_xmit_packets" -> c.unicastXmitPackets;
			default -> PMA_COUNTERS.contains(name) ? 0L : null;
		};
	}

	/**
	 * Make a port congested or not: while it is, each RoCE packet it receives makes it
	 * send a PFC pause frame, and each RoCE packet it sends meets one from the network;
	 * leaving congestion is a transition from Xoff to Xon.
	 * @param port the port number
	 * @param congested whether it is congested
	 */
	synchronized void setCongested(int port, boolean congested) {
		checkPort(port);
		PortCounters portCounters = this.counters[port - 1];
		if (portCounters.congested && !congested) {
			portCounters.add("rx_prio" + SimulatedNetdevStatistics.PFC_PRIORITY + "_pause_transition", 1);
		}
		portCounters.congested = congested;
	}

	/**
	 * Return the values of a port's netdev statistics, in the order of
	 * {@link SimulatedNetdevStatistics#NAMES}.
	 * @param port the port number
	 * @return the values
	 */
	synchronized long[] netdevStatistics(int port) {
		PortCounters portCounters = this.counters[port - 1];
		Map<String, Long> moved = new HashMap<>(portCounters.ethtool);
		moved.put("link_down_events_phy", portCounters.linkDowned);
		return SimulatedNetdevStatistics.values(moved);
	}

	synchronized long hwCounter(int port, String name) {
		return this.counters[port - 1].hw.getOrDefault(name, 0L);
	}

	/**
	 * Return whether a port has optional counters: a RoCE port of a device with flow
	 * counters.
	 */
	boolean hasOptionalCounters(int port) {
		return hasHwCounters() && this.spec.roceEnabled() && port(port).linkLayer() == LinkLayer.ETHERNET;
	}

	/** Return the enabled optional counters of a port with their values. */
	synchronized Map<String, Long> optionalCounters(int port) {
		return new HashMap<>(this.counters[port - 1].optional);
	}

	/**
	 * Enable exactly these optional counters: one that was not enabled starts from 0, as
	 * mlx5 creates its flow counter when it is enabled ({@code mlx5_ib_modify_stat}); one
	 * not named is disabled and loses its value.
	 */
	synchronized void setOptionalCounters(int port, java.util.Collection<String> names) {
		Map<String, Long> optional = this.counters[port - 1].optional;
		optional.keySet().retainAll(names);
		names.forEach((name) -> optional.putIfAbsent(name, 0L));
	}

	/** Disable every optional counter, as a driver reload does. */
	synchronized void resetOptionalCounters() {
		for (PortCounters portCounters : this.counters) {
			portCounters.optional.clear();
		}
	}

	synchronized void queuePairCreated(Object queuePair, int port) {
		long lqpn = this.nextQueuePairNumber++;
		this.queuePairs.put(queuePair, new long[] { port, lqpn });
		// moved to INIT with its port: rdma_counter_bind_qp_auto in auto mode
		int[] mode = this.counterModes.computeIfAbsent(port, (key) -> new int[2]);
		if (mode[0] == RdmaNldev.COUNTER_MODE_AUTO) {
			QpCounter shared = this.qpCounters.values()
				.stream()
				.filter((counter) -> counter.port == port && counter.mode == RdmaNldev.COUNTER_MODE_AUTO)
				.findFirst()
				.orElse(null);
			if (shared != null) {
				shared.lqpns.add(lqpn);
			}
			else {
				allocate(port, lqpn, RdmaNldev.COUNTER_MODE_AUTO);
			}
		}
	}

	synchronized void queuePairDestroyed(Object queuePair) {
		long[] removed = this.queuePairs.remove(queuePair);
		if (removed != null) {
			// ib_destroy_qp_user unbinds it; counter_release frees a counter left empty
			unbind(removed[1]);
		}
	}

	/** The port's counter mode and auto-mode mask ({@code rdma_counter_get_mode}). */
	synchronized int[] counterMode(int port) {
		return this.counterModes.computeIfAbsent(port, (key) -> new int[2]).clone();
	}

	/** {@code rdma_counter_set_auto_mode}: refused (EBUSY) while counters are bound. */
	synchronized void setAutoMode(int port, int mask) {
		int[] mode = this.counterModes.computeIfAbsent(port, (key) -> new int[2]);
		if (mode[0] == RdmaNldev.COUNTER_MODE_AUTO && mode[1] == mask) {
			return;
		}
		if (this.qpCounters.values().stream().anyMatch((counter) -> counter.port == port)) {
			throw new RdmaOperationException("RDMA_NLDEV_CMD_STAT_SET auto mode", Errno.EBUSY);
		}
		mode[0] = (mask != 0) ? RdmaNldev.COUNTER_MODE_AUTO : RdmaNldev.COUNTER_MODE_NONE;
		mode[1] = mask;
	}

	/**
	 * {@code rdma_counter_bind_qpn_alloc} or {@code rdma_counter_bind_qpn}: ENOENT for a
	 * queue pair or counter that is not there, EINVAL in auto mode or for a queue pair
	 * bound already.
	 */
	synchronized long bind(int port, long lqpn, @Nullable Long counterId) {
		String request = "RDMA_NLDEV_CMD_STAT_SET bind of QP " + lqpn;
		if (counterMode(port)[0] == RdmaNldev.COUNTER_MODE_AUTO) {
			throw new RdmaOperationException(request, Errno.EINVAL);
		}
		long[] queuePair = this.queuePairs.values().stream().filter((qp) -> qp[1] == lqpn).findFirst().orElse(null);
		if (queuePair == null) {
			throw new RdmaOperationException(request, Errno.ENOENT);
		}
		boolean bound = this.qpCounters.values().stream().anyMatch((counter) -> counter.lqpns.contains(lqpn));
		if (counterId == null) {
			if (queuePair[0] != port || bound) {
				throw new RdmaOperationException(request, bound ? Errno.ENOMEM : Errno.EINVAL);
			}
			return allocate(port, lqpn, RdmaNldev.COUNTER_MODE_MANUAL).id;
		}
		QpCounter counter = this.qpCounters.get(counterId);
		if (counter == null) {
			throw new RdmaOperationException(request, Errno.ENOENT);
		}
		if (counter.port != queuePair[0] || bound) {
			throw new RdmaOperationException(request, Errno.EINVAL);
		}
		counter.lqpns.add(lqpn);
		return counter.id;
	}

	/** {@code rdma_counter_unbind_qpn}. */
	synchronized void unbind(int port, long lqpn, long counterId) {
		String request = "RDMA_NLDEV_CMD_STAT_DEL of QP " + lqpn;
		if (this.queuePairs.values().stream().noneMatch((qp) -> qp[1] == lqpn)) {
			throw new RdmaOperationException(request, Errno.ENOENT);
		}
		QpCounter counter = this.qpCounters.get(counterId);
		if (counter == null || !counter.lqpns.contains(lqpn) || counterMode(port)[0] != RdmaNldev.COUNTER_MODE_MANUAL) {
			throw new RdmaOperationException(request, Errno.EINVAL);
		}
		unbind(lqpn);
	}

	/** The counters and their values; the queue pairs carry no traffic of their own. */
	synchronized List<NldevQpCounter> qpCounters() {
		List<NldevQpCounter> counters = new ArrayList<>();
		for (QpCounter counter : this.qpCounters.values()) {
			Map<String, Long> values = new java.util.LinkedHashMap<>();
			HW_COUNTERS.forEach((name) -> values.put(name, 0L));
			counter.optional.forEach((name) -> values.put(name, 0L));
			counters.add(new NldevQpCounter(counter.port, counter.id, counter.mode,
					(counter.mode == RdmaNldev.COUNTER_MODE_AUTO) ? ProcessHandle.current().pid() : null,
					new ArrayList<>(counter.lqpns), values));
		}
		return counters;
	}

	// alloc_and_bind: the port's statistics, with the enabled optional counters as a
	// 6.15 kernel binds them (bind_opcnt)
	private QpCounter allocate(int port, long lqpn, int mode) {
		QpCounter counter = new QpCounter(this.nextCounterId++, port, mode,
				new ArrayList<>(this.counters[port - 1].optional.keySet()));
		counter.lqpns.add(lqpn);
		this.qpCounters.put(counter.id, counter);
		if (mode == RdmaNldev.COUNTER_MODE_MANUAL) {
			this.counterModes.computeIfAbsent(port, (key) -> new int[2])[0] = RdmaNldev.COUNTER_MODE_MANUAL;
		}
		return counter;
	}

	private void unbind(long lqpn) {
		for (java.util.Iterator<QpCounter> it = this.qpCounters.values().iterator(); it.hasNext();) {
			QpCounter counter = it.next();
			if (counter.lqpns.remove(lqpn) && counter.lqpns.isEmpty()) {
				it.remove();
				int[] mode = this.counterModes.computeIfAbsent(counter.port, (key) -> new int[2]);
				if (mode[0] == RdmaNldev.COUNTER_MODE_MANUAL
						&& this.qpCounters.values().stream().noneMatch((other) -> other.port == counter.port)) {
					mode[0] = RdmaNldev.COUNTER_MODE_NONE;
				}
			}
		}
	}

	/** Forget the counters and modes, as a driver reload does. */
	synchronized void resetQpCounters() {
		this.qpCounters.clear();
		this.counterModes.clear();
	}

	/**
	 * Return the live queue pairs as the kernel's resource tracker lists them: raw packet
	 * queue pairs in RTR, owned by this process.
	 */
	synchronized List<io.github.rdmacounters.netlink.NldevQueuePair> queuePairs() {
		long pid = ProcessHandle.current().pid();
		List<io.github.rdmacounters.netlink.NldevQueuePair> list = new ArrayList<>();
		// enum ib_qp_type IB_QPT_RAW_PACKET = 8, enum ib_qp_state IB_QPS_RTR = 2
		this.queuePairs.values()
			.forEach((qp) -> list
				.add(new io.github.rdmacounters.netlink.NldevQueuePair((int) qp[0], qp[1], 8, 2, pid, null)));
		return list;
	}

	// mlx5 only, modelled as "flow counters supported"
	boolean hasHwCounters() {
		return this.spec.countersSupported();
	}

	/** A counter queue pairs are bound to. */
	private static final class QpCounter {

		final long id;

		final int port;

		final int mode;

		final List<String> optional;

		final List<Long> lqpns = new ArrayList<>();

		QpCounter(long id, int port, int mode, List<String> optional) {
			this.id = id;
			this.port = port;
			this.mode = mode;
			this.optional = optional;
		}

	}

	// Bytes kept exactly, shown in words
	private static final class PortCounters {

		long rcvBytes;

		long rcvPackets;

		long unicastRcvPackets;

		long multicastRcvPackets;

		long xmitBytes;

		long xmitPackets;

		long unicastXmitPackets;

		long multicastXmitPackets;

		long linkDowned;

		boolean congested;

		final Map<String, Long> hw = new HashMap<>();

		/** The netdev statistics that moved, by ethtool name. */
		final Map<String, Long> ethtool = new HashMap<>();

		/** The enabled optional counters and their values. */
		final Map<String, Long> optional = new HashMap<>();

		void optional(String name, long amount) {
			this.optional.computeIfPresent(name, (key, value) -> value + amount);
		}

		void add(String name, long amount) {
			this.ethtool.merge(name, amount, Long::sum);
		}

		/**
		 * Count a packet in the netdev statistics: RoCE traffic is the vport's RDMA
		 * traffic on the lossless priority, and the netdev does not see it; other traffic
		 * is the netdev's on priority 0; the physical port counts both.
		 */
		void ethtool(String direction, boolean roce, Packet packet, boolean multicast) {
			long length = packet.length();
			String cast = multicast ? "multicast" : "unicast";
			add(direction + "_packets_phy", 1);
			add(direction + "_bytes_phy", length);
			if (multicast) {
				add(direction + "_multicast_phy", 1);
			}
			int priority = roce ? SimulatedNetdevStatistics.PFC_PRIORITY : 0;
			add(direction + "_prio" + priority + "_packets", 1);
			add(direction + "_prio" + priority + "_bytes", length);
			if (roce) {
				add(direction + "_vport_rdma_" + cast + "_packets", 1);
				add(direction + "_vport_rdma_" + cast + "_bytes", length);
			}
			else {
				add(direction + "_vport_" + cast + "_packets", 1);
				add(direction + "_vport_" + cast + "_bytes", length);
				add(direction + "_packets", 1);
				add(direction + "_bytes", length);
			}
		}

	}

}
