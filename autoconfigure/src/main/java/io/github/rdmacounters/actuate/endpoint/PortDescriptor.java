package io.github.rdmacounters.actuate.endpoint;

import java.math.BigInteger;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.DeviceEventTracker;
import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.core.PortEventState;
import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.core.Presence;
import io.github.rdmacounters.ethtool.NetdevPortStatistics;

/**
 * One port: its state as the device reports it, and its sysfs counters where a source
 * exists. A {@code null} component is left out of the JSON; components are in
 * alphabetical order, the order the JSON shows them in.
 *
 * @param activeMtu the active MTU in bytes
 * @param counters the port counters from sysfs by name; {@code null} without a port
 * counters source
 * @param error why the port could not be queried
 * @param ethtool the RoCE-relevant driver statistics ({@code ethtool -S}) of the port's
 * netdevs by netdev: pause, discards, PHY errors, RDMA traffic and any pause storm;
 * {@code null} if the port has no netdev
 * @param events the asynchronous events of the port so far by type, e.g.
 * {@code port_err}; {@code null} if the device does not report events
 * @param linkLayer {@code InfiniBand} or {@code Ethernet}
 * @param missingCounterFiles the counter files read before that are gone, e.g.
 * {@code [hw_counters/out_of_buffer]}
 * @param optionalCounters the optional counters of the port by kernel name (RDMA
 * netlink); {@code null} if the port has none
 * @param physicalState the physical state, e.g. {@code LinkUp}
 * @param present whether the port's directory was found in the last read
 * @param queuePairCounters the hardware counters of this process's queue pairs on the
 * port (counter binding, RDMA netlink) by queue pair type, e.g. {@code RC}, or type and
 * number, e.g. {@code RC/418}, then counter name; {@code null} if none is bound
 * @param queuePairs the queue pairs this process has on the port by {@code TYPE/STATE},
 * e.g. {@code RC/RTS} (RDMA netlink); {@code null} if it has none
 * @param rate the rate, e.g. {@code 100 Gb/sec (4X EDR)}
 * @param refusedCounterFiles the counter files whose read the kernel refused, each with
 * its errno, e.g. {@code {"counters/port_rcv_data": "EINVAL"}}: read again only after a
 * backoff of 1 minute doubling to 30 minutes, unreadable meanwhile
 * @param state the logical state, e.g. {@code ACTIVE}
 * @param stateChangedAt when the state last changed, as the device's events reported
 * @param unreadableCounters the counter files that could not be read
 * @since 0.1.0
 * @author rdma-counters
 */
public record PortDescriptor(@Nullable Integer activeMtu, @Nullable Map<String, Number> counters,
		@Nullable String error, @Nullable Map<String, NetdevPortStatistics> ethtool, @Nullable Map<String, Long> events,
		@Nullable String linkLayer, @Nullable List<String> missingCounterFiles,
		@Nullable Map<String, OptionalCounterDescriptor> optionalCounters, @Nullable String physicalState,
		@Nullable Boolean present, @Nullable Map<String, Map<String, Number>> queuePairCounters,
		@Nullable Map<String, Integer> queuePairs, @Nullable String rate,
		@Nullable Map<String, String> refusedCounterFiles, @Nullable String state, @Nullable Instant stateChangedAt,
		@Nullable List<String> unreadableCounters) {

	static PortDescriptor of(@Nullable PortAttributes attributes, @Nullable String error, @Nullable PortStatus status) {
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
		if (status == null) {
			return new PortDescriptor(mtu, null, error, null, null, linkLayer, null, null, physicalState, null, null,
					null, rate, null, state, null, null);
		}
		return new PortDescriptor(mtu, unsigned(status.counters()), error, null, null, linkLayer,
				status.missing().isEmpty() ? null : status.missing(), null, physicalState,
				status.presence() == Presence.PRESENT, null, null, rate,
				status.refused().isEmpty() ? null : status.refused(), state, null,
				status.unreadable().isEmpty() ? null : List.copyOf(status.unreadable()));
	}

	/**
	 * Show the counters with their unsigned 64-bit values: 2^63 and above as a
	 * {@link BigInteger}, not as the negative {@code long} they are held in.
	 */
	private static Map<String, Number> unsigned(Map<String, Long> counters) {
		Map<String, Number> values = new TreeMap<>();
		counters.forEach(
				(name, value) -> values.put(name, (value >= 0) ? value : new BigInteger(Long.toUnsignedString(value))));
		return Collections.unmodifiableMap(values);
	}

	/**
	 * Apply what the device's events taught: the state the last PORT_ACTIVE or PORT_ERR
	 * set while it stands for the port's (no query ended since; a query after it wins),
	 * when the state last changed, and the event counts of the port.
	 */
	PortDescriptor withEvents(@Nullable DeviceEventTracker tracker, @Nullable PortEventState standing, int port) {
		if (tracker == null) {
			return this;
		}
		PortEventState lastChange = tracker.portState(port);
		Map<String, Long> counts = new TreeMap<>();
		tracker.counts().getOrDefault(port, Map.of()).forEach((type, count) -> counts.put(type.tagValue(), count));
		return new PortDescriptor(this.activeMtu, this.counters, this.error, this.ethtool,
				Collections.unmodifiableMap(counts), this.linkLayer, this.missingCounterFiles, this.optionalCounters,
				(standing != null && !standing.isActive()) ? null : this.physicalState, this.present,
				this.queuePairCounters, this.queuePairs, this.rate, this.refusedCounterFiles,
				(standing != null) ? standing.state().name() : this.state,
				(lastChange != null) ? lastChange.changedAt() : null, this.unreadableCounters);
	}

	/**
	 * Add the driver statistics of the port's netdevs, and what RDMA netlink knows of the
	 * port: its optional counters, the queue pairs of this process and their counters.
	 */
	PortDescriptor withDetails(@Nullable Map<String, NetdevPortStatistics> ethtool,
			@Nullable Map<String, OptionalCounterDescriptor> optionalCounters,
			@Nullable Map<String, Integer> queuePairs, @Nullable Map<String, Map<String, Long>> queuePairCounters) {
		Map<String, Map<String, Number>> counters = null;
		if (queuePairCounters != null && !queuePairCounters.isEmpty()) {
			counters = new TreeMap<>();
			for (Map.Entry<String, Map<String, Long>> group : queuePairCounters.entrySet()) {
				counters.put(group.getKey(), unsigned(group.getValue()));
			}
			counters = Collections.unmodifiableMap(counters);
		}
		return new PortDescriptor(this.activeMtu, this.counters, this.error, ethtool, this.events, this.linkLayer,
				this.missingCounterFiles, optionalCounters, this.physicalState, this.present, counters, queuePairs,
				this.rate, this.refusedCounterFiles, this.state, this.stateChangedAt, this.unreadableCounters);
	}

}
