package io.github.rdmacounters.netlink;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.core.RdmaOperationException;

/**
 * RDMA netlink's device interface ({@code RDMA_NL_NLDEV}, served by
 * {@code drivers/infiniband/core/nldev.c}): the devices, the hardware counters of a port
 * and which optional ones are enabled, enabling optional counters, and the queue pairs of
 * a device. Reading needs no privilege; {@code RDMA_NLDEV_CMD_STAT_SET} needs
 * {@code CAP_NET_ADMIN} ({@code RDMA_NL_ADMIN_PERM} in {@code nldev_cb_table}).
 * <p>
 * One socket serves every request; after a failure that leaves it in doubt it is closed
 * and the next request opens a new one. Thread-safe: requests are serialised;
 * {@link #close()} does not wait for the request in flight.
 *
 * @author rdma-counters
 */
public final class RdmaNetlink implements NldevClient {

	/** How long to wait for each reply datagram by default. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

	private final Supplier<NetlinkSocket> opener;

	/** The socket; written under this object's lock, read by {@link #close()} too. */
	private volatile @Nullable NetlinkSocket socket;

	private volatile boolean closed;

	RdmaNetlink(Supplier<NetlinkSocket> opener) {
		this.opener = opener;
		this.socket = opener.get();
	}

	/**
	 * Open a {@code NETLINK_RDMA} socket in this thread's network namespace.
	 * @return the client
	 * @throws RdmaOperationException if the socket cannot be opened, e.g. with
	 * {@code EPROTONOSUPPORT} on a kernel without RDMA netlink
	 */
	public static RdmaNetlink open() {
		return open(DEFAULT_TIMEOUT);
	}

	/**
	 * Open a {@code NETLINK_RDMA} socket in this thread's network namespace.
	 * @param timeout how long to wait for each reply datagram
	 * @return the client
	 * @throws RdmaOperationException if the socket cannot be opened
	 */
	public static RdmaNetlink open(Duration timeout) {
		return new RdmaNetlink(() -> NetlinkSocket.open(Netlink.NETLINK_RDMA, "NETLINK_RDMA", timeout));
	}

	/**
	 * List the devices ({@code RDMA_NLDEV_CMD_GET} dump).
	 * @return the devices of this network namespace, by index
	 */
	@Override
	public synchronized List<NldevDevice> devices() {
		NetlinkRequest request = NetlinkRequest.builder(RdmaNldev.type(RdmaNldev.CMD_GET), "RDMA_NLDEV_CMD_GET")
			.build();
		List<NldevDevice> devices = new ArrayList<>();
		for (NetlinkMessage message : socket().dump(request, NetlinkBudget.DEFAULT).messages()) {
			NetlinkAttributes attributes = message.attributes(0);
			NetlinkAttribute guid = attributes.get(RdmaNldev.ATTR_NODE_GUID);
			NetlinkAttribute firmware = attributes.get(RdmaNldev.ATTR_FW_VERSION);
			NetlinkAttribute protocol = attributes.get(RdmaNldev.ATTR_DEV_PROTOCOL);
			devices.add(new NldevDevice(attributes.require(RdmaNldev.ATTR_DEV_INDEX, "RDMA_NLDEV_ATTR_DEV_INDEX").u32(),
					attributes.require(RdmaNldev.ATTR_DEV_NAME, "RDMA_NLDEV_ATTR_DEV_NAME").string(),
					(int) attributes.require(RdmaNldev.ATTR_PORT_INDEX, "RDMA_NLDEV_ATTR_PORT_INDEX").u32(),
					(guid != null) ? guid.u64() : 0, (firmware != null) ? firmware.string() : null,
					(protocol != null) ? protocol.string() : null));
		}
		return devices;
	}

	/**
	 * Return the device of a name.
	 * @param name the device name, e.g. {@code mlx5_0}
	 * @return the device
	 * @throws IllegalArgumentException if this network namespace has no such device
	 */
	public synchronized NldevDevice device(String name) {
		List<NldevDevice> devices = devices();
		for (NldevDevice device : devices) {
			if (device.name().equals(name)) {
				return device;
			}
		}
		throw new IllegalArgumentException("RDMA netlink knows no device '" + name + "' in this network namespace; "
				+ "it has " + devices.stream().map(NldevDevice::name).collect(Collectors.joining(", ", "[", "]")));
	}

	/**
	 * List the hardware counters of a port and which optional ones are enabled
	 * ({@code RDMA_NLDEV_CMD_STAT_GET_STATUS}, Linux 5.16 and later).
	 * @param device the device
	 * @param port the port, from 1
	 * @return the counters, by index
	 */
	@Override
	public synchronized List<HwCounterStatus> counterStatus(NldevDevice device, int port) {
		NetlinkRequest request = portRequest(RdmaNldev.CMD_STAT_GET_STATUS, "RDMA_NLDEV_CMD_STAT_GET_STATUS", device,
				port)
			.build();
		List<HwCounterStatus> counters = new ArrayList<>();
		for (NetlinkAttribute entry : hwCounterEntries(single(request), request)) {
			NetlinkAttributes attributes = entry.nested();
			NetlinkAttribute dynamic = attributes.get(RdmaNldev.ATTR_STAT_HWCOUNTER_DYNAMIC);
			counters
				.add(new HwCounterStatus(
						attributes
							.require(RdmaNldev.ATTR_STAT_HWCOUNTER_ENTRY_NAME,
									"RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME")
							.string(),
						attributes.require(RdmaNldev.ATTR_STAT_HWCOUNTER_INDEX, "RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX")
							.u32(),
						dynamic != null, dynamic == null || dynamic.u8() != 0));
		}
		return counters;
	}

	/**
	 * Read the hardware counters of a port ({@code RDMA_NLDEV_CMD_STAT_GET}); optional
	 * counters that are not enabled are left out, as the kernel skips them.
	 * @param device the device
	 * @param port the port, from 1
	 * @return the values by counter name, in the kernel's order; values of 2<sup>63</sup>
	 * and more are negative (read them as unsigned)
	 */
	@Override
	public synchronized Map<String, Long> portCounters(NldevDevice device, int port) {
		NetlinkRequest request = portRequest(RdmaNldev.CMD_STAT_GET, "RDMA_NLDEV_CMD_STAT_GET", device, port).build();
		Map<String, Long> values = new LinkedHashMap<>();
		for (NetlinkAttribute entry : hwCounterEntries(single(request), request)) {
			NetlinkAttributes attributes = entry.nested();
			values.put(
					attributes
						.require(RdmaNldev.ATTR_STAT_HWCOUNTER_ENTRY_NAME, "RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME")
						.string(),
					attributes
						.require(RdmaNldev.ATTR_STAT_HWCOUNTER_ENTRY_VALUE,
								"RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE")
						.u64());
		}
		return Collections.unmodifiableMap(values);
	}

	/**
	 * Enable exactly these optional counters of a port ({@code RDMA_NLDEV_CMD_STAT_SET}):
	 * the kernel disables every optional counter not named
	 * ({@code nldev_stat_set_counter_dynamic_doit}), so pass the ones already enabled
	 * that should stay so, or use {@link #enableOptionalCounters}. Needs
	 * {@code CAP_NET_ADMIN}.
	 * @param device the device
	 * @param port the port, from 1
	 * @param names the optional counters to enable; empty disables them all
	 * @throws IllegalArgumentException if a name is not an optional counter of the port
	 * @throws RdmaOperationException if the kernel refuses, e.g. {@code EPERM} without
	 * {@code CAP_NET_ADMIN}
	 */
	public synchronized void setOptionalCounters(NldevDevice device, int port, Collection<String> names) {
		List<HwCounterStatus> status = counterStatus(device, port);
		checkOptional(device, port, names, status);
		statSet(device, port, names, status);
	}

	/**
	 * Enable optional counters of a port and keep those already enabled, by another tool
	 * or an earlier call: the port's status is read, and the union is set only if a
	 * counter is missing from it. Another tool that changes the set between the read and
	 * the set can still lose its change. Needs {@code CAP_NET_ADMIN} when something is to
	 * change.
	 * @param device the device
	 * @param port the port, from 1
	 * @param names the optional counters that must be enabled
	 * @return the counters this call enabled, in the order given; empty if all were
	 * enabled already, and then nothing was sent
	 * @throws IllegalArgumentException if a name is not an optional counter of the port
	 * @throws RdmaOperationException if the kernel refuses, e.g. {@code EPERM} without
	 * {@code CAP_NET_ADMIN}
	 */
	@Override
	public synchronized List<String> enableOptionalCounters(NldevDevice device, int port, Collection<String> names) {
		List<HwCounterStatus> status = counterStatus(device, port);
		checkOptional(device, port, names, status);
		Set<String> enabled = new LinkedHashSet<>();
		status.stream()
			.filter((counter) -> counter.optional() && counter.enabled())
			.forEach((counter) -> enabled.add(counter.name()));
		List<String> added = names.stream().distinct().filter((name) -> !enabled.contains(name)).toList();
		if (!added.isEmpty()) {
			enabled.addAll(added);
			statSet(device, port, enabled, status);
		}
		return added;
	}

	private static void checkOptional(NldevDevice device, int port, Collection<String> names,
			List<HwCounterStatus> status) {
		Set<String> optional = new LinkedHashSet<>();
		status.stream().filter(HwCounterStatus::optional).forEach((counter) -> optional.add(counter.name()));
		for (String name : names) {
			if (!optional.contains(name)) {
				throw new IllegalArgumentException("'" + name + "' is not an optional counter of " + device.name()
						+ " port " + port + "; its optional counters are " + optional);
			}
		}
	}

	private void statSet(NldevDevice device, int port, Collection<String> names, List<HwCounterStatus> status) {
		Map<String, Long> indexes = new LinkedHashMap<>();
		status.forEach((counter) -> indexes.put(counter.name(), counter.index()));
		NetlinkRequest request = portRequest(RdmaNldev.CMD_STAT_SET, "RDMA_NLDEV_CMD_STAT_SET", device, port)
			.nested(RdmaNldev.ATTR_STAT_HWCOUNTERS,
					(nest) -> names.forEach((name) -> nest.u32(RdmaNldev.ATTR_STAT_HWCOUNTER_INDEX, indexes.get(name))))
			.build();
		try {
			socket().exchange(request);
		}
		catch (RdmaOperationException ex) {
			if (ex.errno() == Errno.EPERM) {
				throw new RdmaOperationException(request.description(), ex.errno(),
						"setting optional counters needs CAP_NET_ADMIN; an operator can run instead: rdma statistic "
								+ "set link " + device.name() + "/" + port + " optional-counters "
								+ String.join(",", names));
			}
			throw ex;
		}
	}

	/**
	 * List the queue pairs of a device ({@code RDMA_NLDEV_CMD_RES_QP_GET} dump).
	 * @param device the device
	 * @param budget the most the dump may send
	 * @return the queue pairs the reader may see, in the kernel's order
	 * @throws NetlinkBudgetExceededException if the dump is larger than the budget
	 */
	@Override
	public synchronized List<NldevQueuePair> queuePairs(NldevDevice device, NetlinkBudget budget) {
		NetlinkRequest request = NetlinkRequest
			.builder(RdmaNldev.type(RdmaNldev.CMD_RES_QP_GET), "RDMA_NLDEV_CMD_RES_QP_GET of " + device.name())
			.u32(RdmaNldev.ATTR_DEV_INDEX, device.index())
			.build();
		List<NldevQueuePair> queuePairs = new ArrayList<>();
		for (NetlinkMessage message : socket().dump(request, budget).messages()) {
			NetlinkAttribute table = message.attributes(0).get(RdmaNldev.ATTR_RES_QP);
			if (table == null) {
				continue;
			}
			for (NetlinkAttribute entry : table.nested().getAll(RdmaNldev.ATTR_RES_QP_ENTRY)) {
				queuePairs.add(queuePair(entry.nested()));
			}
		}
		return queuePairs;
	}

	private static NldevQueuePair queuePair(NetlinkAttributes attributes) {
		NetlinkAttribute port = attributes.get(RdmaNldev.ATTR_PORT_INDEX);
		NetlinkAttribute pid = attributes.get(RdmaNldev.ATTR_RES_PID);
		NetlinkAttribute owner = attributes.get(RdmaNldev.ATTR_RES_KERN_NAME);
		return new NldevQueuePair((port != null) ? (int) port.u32() : 0,
				attributes.require(RdmaNldev.ATTR_RES_LQPN, "RDMA_NLDEV_ATTR_RES_LQPN").u32(),
				attributes.require(RdmaNldev.ATTR_RES_TYPE, "RDMA_NLDEV_ATTR_RES_TYPE").u8(),
				attributes.require(RdmaNldev.ATTR_RES_STATE, "RDMA_NLDEV_ATTR_RES_STATE").u8(),
				(pid != null) ? pid.u32() : null, (owner != null) ? owner.string() : null);
	}

	/**
	 * Return how a port binds queue pairs to counters: {@code RDMA_NLDEV_CMD_STAT_GET}
	 * with {@code RDMA_NLDEV_ATTR_STAT_RES} of queue pairs and a
	 * {@code RDMA_NLDEV_ATTR_STAT_MODE}, which {@code stat_get_doit_qp} requires.
	 * @param device the device
	 * @param port the port, from 1
	 * @return the mode
	 */
	@Override
	public synchronized NldevCounterMode queuePairCounterMode(NldevDevice device, int port) {
		NetlinkRequest request = portRequest(RdmaNldev.CMD_STAT_GET, "RDMA_NLDEV_CMD_STAT_GET mode", device, port)
			.u32(RdmaNldev.ATTR_STAT_RES, RdmaNldev.ATTR_RES_QP)
			.u32(RdmaNldev.ATTR_STAT_MODE, RdmaNldev.COUNTER_MODE_NONE)
			.build();
		NetlinkAttributes attributes = single(request).attributes(0);
		NetlinkAttribute mask = attributes.get(RdmaNldev.ATTR_STAT_AUTO_MODE_MASK);
		return new NldevCounterMode(
				(int) attributes.require(RdmaNldev.ATTR_STAT_MODE, "RDMA_NLDEV_ATTR_STAT_MODE").u32(),
				(mask != null) ? (int) mask.u32() : 0);
	}

	/**
	 * Switch a port to auto mode ({@code nldev_stat_set_mode_doit},
	 * {@code rdma_counter_set_auto_mode}). Needs {@code CAP_NET_ADMIN}.
	 * @param device the device
	 * @param port the port, from 1
	 * @param mask the auto-mode mask
	 */
	@Override
	public synchronized void setQueuePairAutoMode(NldevDevice device, int port, int mask) {
		socket().exchange(portRequest(RdmaNldev.CMD_STAT_SET, "RDMA_NLDEV_CMD_STAT_SET auto mode", device, port)
			.u32(RdmaNldev.ATTR_STAT_RES, RdmaNldev.ATTR_RES_QP)
			.u32(RdmaNldev.ATTR_STAT_MODE, RdmaNldev.COUNTER_MODE_AUTO)
			.u32(RdmaNldev.ATTR_STAT_AUTO_MODE_MASK, mask)
			.build());
	}

	/**
	 * Bind a queue pair to a new counter ({@code rdma_counter_bind_qpn_alloc}) or to an
	 * existing one ({@code rdma_counter_bind_qpn}); the reply names the counter. Needs
	 * {@code CAP_NET_ADMIN}.
	 * @param device the device
	 * @param port the queue pair's port
	 * @param lqpn the queue pair
	 * @param counterId the counter, or {@code null} for a new one
	 * @return the counter's id
	 */
	@Override
	public synchronized long bindQueuePair(NldevDevice device, int port, long lqpn, @Nullable Long counterId) {
		NetlinkRequest.Builder builder = portRequest(RdmaNldev.CMD_STAT_SET,
				"RDMA_NLDEV_CMD_STAT_SET bind of QP " + lqpn, device, port)
			.u32(RdmaNldev.ATTR_STAT_RES, RdmaNldev.ATTR_RES_QP)
			.u32(RdmaNldev.ATTR_STAT_MODE, RdmaNldev.COUNTER_MODE_MANUAL)
			.u32(RdmaNldev.ATTR_RES_LQPN, lqpn);
		if (counterId != null) {
			builder.u32(RdmaNldev.ATTR_STAT_COUNTER_ID, counterId);
		}
		NetlinkRequest request = builder.build();
		return single(request).attributes(0)
			.require(RdmaNldev.ATTR_STAT_COUNTER_ID, "RDMA_NLDEV_ATTR_STAT_COUNTER_ID")
			.u32();
	}

	/**
	 * Unbind a queue pair from a counter ({@code nldev_stat_del_doit},
	 * {@code rdma_counter_unbind_qpn}). Needs {@code CAP_NET_ADMIN}.
	 * @param device the device
	 * @param port the queue pair's port
	 * @param lqpn the queue pair
	 * @param counterId the counter it is bound to
	 */
	@Override
	public synchronized void unbindQueuePair(NldevDevice device, int port, long lqpn, long counterId) {
		socket().exchange(portRequest(RdmaNldev.CMD_STAT_DEL, "RDMA_NLDEV_CMD_STAT_DEL of QP " + lqpn, device, port)
			.u32(RdmaNldev.ATTR_STAT_RES, RdmaNldev.ATTR_RES_QP)
			.u32(RdmaNldev.ATTR_STAT_COUNTER_ID, counterId)
			.u32(RdmaNldev.ATTR_RES_LQPN, lqpn)
			.build());
	}

	/**
	 * List the queue pair counters of a device ({@code nldev_stat_get_dumpit}, which runs
	 * {@code res_get_common_dumpit} over the device's counters with
	 * {@code fill_res_counter_entry}; each is queried first,
	 * {@code rdma_counter_query_stats}).
	 * @param device the device
	 * @param budget the most the dump may send
	 * @return the counters, in the kernel's order
	 * @throws NetlinkBudgetExceededException if the dump is larger than the budget
	 */
	@Override
	public synchronized List<NldevQpCounter> queuePairCounters(NldevDevice device, NetlinkBudget budget) {
		NetlinkRequest request = NetlinkRequest
			.builder(RdmaNldev.type(RdmaNldev.CMD_STAT_GET), "RDMA_NLDEV_CMD_STAT_GET dump of " + device.name())
			.u32(RdmaNldev.ATTR_DEV_INDEX, device.index())
			.u32(RdmaNldev.ATTR_STAT_RES, RdmaNldev.ATTR_RES_QP)
			.build();
		List<NldevQpCounter> counters = new ArrayList<>();
		for (NetlinkMessage message : socket().dump(request, budget).messages()) {
			NetlinkAttribute table = message.attributes(0).get(RdmaNldev.ATTR_STAT_COUNTER);
			if (table == null) {
				continue;
			}
			for (NetlinkAttribute entry : table.nested().getAll(RdmaNldev.ATTR_STAT_COUNTER_ENTRY)) {
				counters.add(qpCounter(entry.nested()));
			}
		}
		return counters;
	}

	private static NldevQpCounter qpCounter(NetlinkAttributes attributes) {
		NetlinkAttribute pid = attributes.get(RdmaNldev.ATTR_RES_PID);
		List<Long> lqpns = new ArrayList<>();
		NetlinkAttribute queuePairs = attributes.get(RdmaNldev.ATTR_RES_QP);
		if (queuePairs != null) {
			for (NetlinkAttribute entry : queuePairs.nested().getAll(RdmaNldev.ATTR_RES_QP_ENTRY)) {
				lqpns.add(entry.nested().require(RdmaNldev.ATTR_RES_LQPN, "RDMA_NLDEV_ATTR_RES_LQPN").u32());
			}
		}
		Map<String, Long> values = new LinkedHashMap<>();
		NetlinkAttribute table = attributes.get(RdmaNldev.ATTR_STAT_HWCOUNTERS);
		if (table != null) {
			for (NetlinkAttribute entry : table.nested().getAll(RdmaNldev.ATTR_STAT_HWCOUNTER_ENTRY)) {
				NetlinkAttributes counter = entry.nested();
				values.put(
						counter
							.require(RdmaNldev.ATTR_STAT_HWCOUNTER_ENTRY_NAME,
									"RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME")
							.string(),
						counter
							.require(RdmaNldev.ATTR_STAT_HWCOUNTER_ENTRY_VALUE,
									"RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE")
							.u64());
			}
		}
		return new NldevQpCounter(
				(int) attributes.require(RdmaNldev.ATTR_PORT_INDEX, "RDMA_NLDEV_ATTR_PORT_INDEX").u32(),
				attributes.require(RdmaNldev.ATTR_STAT_COUNTER_ID, "RDMA_NLDEV_ATTR_STAT_COUNTER_ID").u32(),
				(int) attributes.require(RdmaNldev.ATTR_STAT_MODE, "RDMA_NLDEV_ATTR_STAT_MODE").u32(),
				(pid != null) ? pid.u32() : null, lqpns, values);
	}

	private static NetlinkRequest.Builder portRequest(int command, String name, NldevDevice device, int port) {
		return NetlinkRequest.builder(RdmaNldev.type(command), name + " of " + device.name() + " port " + port)
			.u32(RdmaNldev.ATTR_DEV_INDEX, device.index())
			.u32(RdmaNldev.ATTR_PORT_INDEX, port);
	}

	private NetlinkMessage single(NetlinkRequest request) {
		List<NetlinkMessage> replies = socket().exchange(request);
		if (replies.size() != 1) {
			throw new NetlinkProtocolException(
					"The kernel answered " + request + " with " + replies.size() + " messages instead of one");
		}
		return replies.get(0);
	}

	private static List<NetlinkAttribute> hwCounterEntries(NetlinkMessage message, NetlinkRequest request) {
		NetlinkAttribute table = message.attributes(0).get(RdmaNldev.ATTR_STAT_HWCOUNTERS);
		if (table == null) {
			throw new NetlinkProtocolException("The reply to " + request + " has no RDMA_NLDEV_ATTR_STAT_HWCOUNTERS");
		}
		return table.nested().getAll(RdmaNldev.ATTR_STAT_HWCOUNTER_ENTRY);
	}

	private NetlinkSocket socket() {
		if (this.closed) {
			throw new RdmaClosedException("RDMA netlink");
		}
		NetlinkSocket current = this.socket;
		if (current == null || current.isClosed()) {
			current = this.opener.get();
			this.socket = current;
			if (this.closed) {
				// closed while it opened: close() may not have seen the new socket
				current.close();
				throw new RdmaClosedException("RDMA netlink");
			}
		}
		return current;
	}

	/**
	 * Close the socket; later requests fail. Never waits for a request in flight, which
	 * may wait on a device that does not answer: the socket's descriptor is closed when
	 * that request leaves it ({@link NetlinkSocket#close()}).
	 */
	@Override
	public void close() {
		this.closed = true;
		NetlinkSocket current = this.socket;
		if (current != null) {
			current.close();
		}
	}

}
