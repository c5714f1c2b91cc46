package io.github.rdmacounters.simulated;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.core.PortState;

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

	// UDP 4791 on an Ethernet port with RoCE enabled (devlink enable_roce) takes the RoCE
	// path before Ethernet steering
	private boolean takenByRoce(int port, Packet packet) {
		return this.spec.roceEnabled() && this.ports[port - 1].linkLayer() == LinkLayer.ETHERNET
				&& packet.ipProtocol() == L4Protocol.UDP.ipProtocol()
				&& packet.destinationPort() == Packet.ROCE_V2_PORT;
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
		this.queuePairs.put(queuePair, new long[] { port, this.nextQueuePairNumber++ });
	}

	synchronized void queuePairDestroyed(Object queuePair) {
		this.queuePairs.remove(queuePair);
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
