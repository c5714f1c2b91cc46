package io.github.rdmacounters.simulated;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.IpPrefix;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.MacAddress;
import io.github.rdmacounters.core.Packet;

/**
 * Synthetic traffic for simulated devices: on a daemon thread, every tick delivers to
 * each stream's device and port the packets its rate owes, each one built to match the
 * stream's flow spec, through {@link SimulatedBackend#deliver(String, int, Packet)} like
 * any other traffic. So the counters of an application on the simulated backend move
 * without code of its own. Closing it stops the thread.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public final class SyntheticTraffic implements AutoCloseable {

	private static final int VXLAN_PORT = 4789;

	private static final MacAddress SOURCE_MAC = new MacAddress(0x02_00_5e_10_00_01L);

	private static final MacAddress DESTINATION_MAC = new MacAddress(0x02_00_5e_10_00_02L);

	private final SimulatedBackend backend;

	private final List<Stream> streams;

	private final double[] owed;

	private final double tickSeconds;

	private final ScheduledExecutorService executor;

	private SyntheticTraffic(SimulatedBackend backend, List<Stream> streams, Duration interval) {
		this.backend = backend;
		this.streams = List.copyOf(streams);
		this.owed = new double[this.streams.size()];
		this.tickSeconds = interval.toNanos() / 1e9;
		this.executor = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "rdma-synthetic-traffic");
			thread.setDaemon(true);
			return thread;
		});
	}

	/**
	 * Start delivering traffic.
	 * @param backend the simulated backend
	 * @param streams what to deliver, each to its device and port
	 * @param interval how often to deliver what the rates owe, at least 1ms
	 * @return the running traffic, to close when done
	 * @throws IllegalArgumentException if the interval is shorter than 1ms
	 */
	public static SyntheticTraffic start(SimulatedBackend backend, List<Stream> streams, Duration interval) {
		if (interval.compareTo(Duration.ofMillis(1)) < 0) {
			throw new IllegalArgumentException("interval must be at least 1ms, but was " + interval);
		}
		SyntheticTraffic traffic = new SyntheticTraffic(backend, streams, interval);
		long nanos = interval.toNanos();
		traffic.executor.scheduleAtFixedRate(traffic::tick, nanos, nanos, TimeUnit.NANOSECONDS);
		return traffic;
	}

	/**
	 * Return the streams this traffic delivers.
	 * @return the streams
	 */
	public List<Stream> streams() {
		return this.streams;
	}

	/**
	 * Deliver what one tick owes each stream. Called by the traffic's thread.
	 */
	void tick() {
		for (int i = 0; i < this.streams.size(); i++) {
			Stream stream = this.streams.get(i);
			this.owed[i] += stream.packetsPerSecond() * this.tickSeconds;
			int count = (int) this.owed[i];
			this.owed[i] -= count;
			Packet packet = matching(stream.spec(), stream.packetSize());
			for (int n = 0; n < count; n++) {
				try {
					this.backend.deliver(stream.device(), stream.port(), packet);
				}
				catch (RuntimeException ex) {
					// a closed or unknown device: nothing to count, the next tick tries
					// again
					break;
				}
			}
		}
	}

	/**
	 * Build a packet that the spec matches: its fields where it sets them, otherwise a
	 * UDP packet between two private addresses of the spec's family.
	 * @param spec the flow spec
	 * @param length the frame length in bytes
	 * @return the packet
	 */
	public static Packet matching(FlowSpec spec, int length) {
		Integer etherType = spec.etherType();
		MacAddress sourceMac = (spec.sourceMac() != null) ? spec.sourceMac() : SOURCE_MAC;
		MacAddress destinationMac = (spec.destinationMac() != null) ? spec.destinationMac() : DESTINATION_MAC;
		boolean ipv6 = spec.ipVersion() == 6 || (etherType != null && etherType == Packet.ETHERTYPE_IPV6);
		if (etherType != null && etherType != Packet.ETHERTYPE_IPV4 && etherType != Packet.ETHERTYPE_IPV6) {
			return new Packet(sourceMac, destinationMac, spec.vlanId(), etherType, null, null, 0, 0, 0, length);
		}
		InetAddress source = address(spec.sourceIp(), ipv6 ? "fd00::1" : "10.0.0.1");
		InetAddress destination = address(spec.destinationIp(), ipv6 ? "fd00::2" : "10.0.0.2");
		L4Protocol protocol = (spec.protocol() != null) ? spec.protocol() : L4Protocol.UDP;
		int sourcePort = (spec.sourcePort() != null) ? spec.sourcePort() : 49152;
		// Not RoCEv2 (4791): on a RoCE port the HCA takes that traffic and no flow sees
		// it
		int destinationPort = (spec.destinationPort() != null) ? spec.destinationPort() : VXLAN_PORT;
		return new Packet(sourceMac, destinationMac, spec.vlanId(),
				ipv6 ? Packet.ETHERTYPE_IPV6 : Packet.ETHERTYPE_IPV4, source, destination, protocol.ipProtocol(),
				sourcePort, destinationPort, length);
	}

	private static InetAddress address(@Nullable IpPrefix prefix, String fallback) {
		return ((prefix != null) ? prefix : IpPrefix.parse(fallback)).address();
	}

	/**
	 * Stop delivering and wait for a tick in progress to finish. Idempotent.
	 */
	@Override
	public void close() {
		this.executor.shutdownNow();
		try {
			this.executor.awaitTermination(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Return whether the traffic has been closed.
	 * @return {@code true} after {@link #close()}
	 */
	public boolean isClosed() {
		return this.executor.isShutdown();
	}

	/**
	 * One stream of packets that match a flow spec, to one port of one device.
	 *
	 * @param device the simulated device to deliver to
	 * @param name a name for the stream, e.g. the counter set it feeds
	 * @param port the port to deliver to
	 * @param spec what the packets must match
	 * @param packetsPerSecond the rate, at least 0
	 * @param packetSize the frame length of each packet in bytes, 60 to 9000
	 */
	public record Stream(String device, String name, int port, FlowSpec spec, double packetsPerSecond, int packetSize) {

		/** The shortest frame: the Ethernet minimum without the frame check sequence. */
		public static final int MIN_PACKET_SIZE = 60;

		/** The longest frame: a jumbo frame. */
		public static final int MAX_PACKET_SIZE = 9000;

		/** The highest rate of one stream: each packet is one call into the simulator. */
		public static final double MAX_PACKETS_PER_SECOND = 1_000_000;

		public Stream {
			if (packetsPerSecond < 0 || Double.isNaN(packetsPerSecond) || packetsPerSecond > MAX_PACKETS_PER_SECOND) {
				throw new IllegalArgumentException("packetsPerSecond must be 0 to " + (long) MAX_PACKETS_PER_SECOND
						+ ", but was " + packetsPerSecond);
			}
			if (packetSize < MIN_PACKET_SIZE || packetSize > MAX_PACKET_SIZE) {
				throw new IllegalArgumentException(
						"packetSize must be " + MIN_PACKET_SIZE + " to " + MAX_PACKET_SIZE + ", but was " + packetSize);
			}
		}

	}

}
