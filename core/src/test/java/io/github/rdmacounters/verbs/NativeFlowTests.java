package io.github.rdmacounters.verbs;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.IpPrefix;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.MacAddress;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.core.ReadMode;
import io.github.rdmacounters.testsupport.FakeVerbs;
import io.github.rdmacounters.testsupport.FakeVerbsExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for flows: the specs the binding encodes reach native code intact, proven by
 * packets delivered to the fake libibverbs, which decodes the specs and counts a packet
 * in exactly the flows that match it.
 *
 * @author rdma-counters
 */
@ExtendWith(FakeVerbsExtension.class)
class NativeFlowTests {

	private static final MacAddress MAC_A = MacAddress.parse("02:00:5e:10:00:01");

	private static final MacAddress MAC_B = MacAddress.parse("02:00:5e:10:00:02");

	private final FakeVerbs fake = FakeVerbs.get();

	private final NativeBackend backend = this.fake.backend();

	private static InetAddress ip(String text) {
		try {
			return InetAddress.getByName(text);
		}
		catch (java.net.UnknownHostException ex) {
			throw new IllegalArgumentException(ex);
		}
	}

	private static List<Packet> traffic() {
		List<Packet> packets = new ArrayList<>();
		packets.add(Packet.udp(ip("192.168.10.1"), 49152, ip("192.168.10.2"), 4791, 1024));
		packets.add(Packet.udp(ip("192.168.10.1"), 49153, ip("192.168.10.3"), 4791, 512));
		packets.add(Packet.udp(ip("192.168.10.1"), 5353, ip("192.168.11.2"), 53, 90));
		packets.add(Packet.tcp(ip("192.168.10.7"), 33000, ip("192.168.10.2"), 4791, 1500));
		packets.add(Packet.tcp(ip("10.1.2.3"), 22, ip("192.168.10.2"), 40000, 66));
		packets.add(Packet.udp(ip("fd00:1::1"), 49152, ip("fd00:1::2"), 4791, 4096));
		packets.add(Packet.udp(ip("fd00:2::1"), 49152, ip("fd00:1:0:0:8000::2"), 4791, 300));
		packets.add(Packet.tcp(ip("fd00:1::1"), 443, ip("fd00:2::9"), 50000, 1400));
		packets.add(Packet.udp(ip("192.168.10.1"), 49152, ip("192.168.10.2"), 4791, 700).withVlan(100));
		packets.add(Packet.udp(ip("192.168.10.1"), 49152, ip("192.168.10.2"), 4791, 800).withVlan(200));
		packets.add(Packet.udp(ip("192.168.10.1"), 49152, ip("192.168.10.2"), 4791, 900).withMacs(MAC_A, MAC_B));
		packets.add(Packet.udp(ip("192.168.10.1"), 49152, ip("192.168.10.2"), 4791, 950).withMacs(MAC_B, MAC_A));
		packets
			.add(Packet.udp(ip("fd00:1::1"), 49152, ip("fd00:1::2"), 4791, 128).withVlan(100).withMacs(MAC_A, MAC_B));
		return packets;
	}

	private static List<FlowSpec> specs() {
		List<FlowSpec> specs = new ArrayList<>();
		specs.add(FlowSpec.any());
		specs.add(FlowSpec.builder().protocol(L4Protocol.UDP).destinationPort(Packet.ROCE_V2_PORT).build());
		specs.add(FlowSpec.builder().protocol(L4Protocol.TCP).build());
		specs.add(FlowSpec.builder().protocol(L4Protocol.TCP).sourcePort(22).build());
		specs.add(FlowSpec.builder().protocol(L4Protocol.UDP).sourcePort(49153).destinationPort(4791).build());
		specs.add(FlowSpec.builder().destinationIp(IpPrefix.parse("192.168.10.0/24")).build());
		specs.add(FlowSpec.builder().sourceIp(IpPrefix.parse("192.168.10.7")).protocol(L4Protocol.TCP).build());
		specs.add(FlowSpec.builder()
			.sourceIp(IpPrefix.parse("10.0.0.0/8"))
			.destinationIp(IpPrefix.parse("192.168.10.2/32"))
			.build());
		specs.add(FlowSpec.builder().destinationIp(IpPrefix.parse("fd00:1::/64")).build());
		specs.add(FlowSpec.builder().destinationIp(IpPrefix.parse("fd00:1::/65")).build());
		specs.add(FlowSpec.builder()
			.sourceIp(IpPrefix.parse("fd00:1::1/128"))
			.protocol(L4Protocol.TCP)
			.sourcePort(443)
			.build());
		specs.add(FlowSpec.builder()
			.destinationIp(IpPrefix.parse("fd00::/16"))
			.protocol(L4Protocol.UDP)
			.destinationPort(4791)
			.build());
		specs.add(FlowSpec.builder().vlanId(100).build());
		specs.add(FlowSpec.builder().vlanId(200).protocol(L4Protocol.UDP).build());
		specs.add(FlowSpec.builder().sourceMac(MAC_A).build());
		specs.add(FlowSpec.builder().destinationMac(MAC_A).build());
		specs.add(FlowSpec.builder().sourceMac(MAC_A).destinationMac(MAC_B).vlanId(100).build());
		specs.add(FlowSpec.builder().etherType(Packet.ETHERTYPE_IPV6).build());
		specs.add(FlowSpec.builder().etherType(Packet.ETHERTYPE_IPV4).protocol(L4Protocol.UDP).build());
		specs.add(FlowSpec.builder().destinationIp(IpPrefix.parse("0.0.0.0/0")).build());
		return specs;
	}

	@Test
	void everySpecKindCountsExactlyThePacketsFlowSpecMatches() {
		// RoCE disabled: UDP 4791 is then plain Ethernet traffic the flows see. One flow
		// at a time, since overlapping flows of one priority count a packet once.
		this.fake.device("mlx5_0").roceEnabled(false).add();
		List<Packet> traffic = traffic();
		try (RdmaDevice device = this.backend.open("mlx5_0")) {
			for (FlowSpec spec : specs()) {
				Counters counters = device.createCounters();
				counters.attach(CounterType.PACKETS, 0);
				counters.attach(CounterType.BYTES, 1);
				device.createFlow(1, spec, counters);
				for (Packet packet : traffic) {
					assertThat(this.fake.deliver("mlx5_0", 1, packet)).as("%s counting %s", spec, packet)
						.isEqualTo(spec.matches(packet) ? 1 : 0);
				}
				List<Packet> matching = traffic.stream().filter(spec::matches).toList();
				long bytes = matching.stream().mapToLong(Packet::length).sum();
				assertThat(counters.read(ReadMode.FRESH).values()).as(spec.describe())
					.containsExactly(matching.size(), bytes);
				counters.close();
			}
		}
	}

	@Test
	void specsArriveInKernelOrderWithPriorityPortAndDontTrap() {
		this.fake.device("mlx5_0").ports(2).add();
		try (RdmaDevice device = this.backend.open("mlx5_0")) {
			Counters a = device.createCounters();
			a.attach(CounterType.PACKETS, 0);
			device.createFlow(2,
					FlowSpec.builder()
						.destinationIp(IpPrefix.parse("192.168.10.0/24"))
						.protocol(L4Protocol.UDP)
						.destinationPort(4791)
						.priority(7)
						.build(),
					a);
			Counters b = device.createCounters();
			b.attach(CounterType.PACKETS, 0);
			device.createFlow(1,
					FlowSpec.builder()
						.sourceIp(IpPrefix.parse("fd00::/8"))
						.protocol(L4Protocol.TCP)
						.dontTrap(false)
						.build(),
					b);
			Counters c = device.createCounters();
			c.attach(CounterType.BYTES, 0);
			device.createFlow(1, FlowSpec.builder().vlanId(5).build(), c);
			assertThat(this.fake.flows()).containsExactly("mlx5_0 port 2 priority 7 flags 0x2 specs eth,ipv4,udp,count",
					"mlx5_0 port 1 priority 0 flags 0x0 specs eth,ipv6,tcp,count",
					"mlx5_0 port 1 priority 0 flags 0x2 specs eth,count");
		}
	}

	@Test
	void createFlowOnBadPortIsRejected() {
		this.fake.device("mlx5_0").add();
		try (RdmaDevice device = this.backend.open("mlx5_0")) {
			Counters counters = device.createCounters();
			counters.attach(CounterType.PACKETS, 0);
			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> device.createFlow(0, FlowSpec.any(), counters));
			assertThatExceptionOfType(RdmaOperationException.class)
				.isThrownBy(() -> device.createFlow(3, FlowSpec.any(), counters))
				.withMessageStartingWith("ibv_modify_qp failed: EINVAL (22)")
				.withMessageContaining("port 3 to INIT");
			assertThat(this.fake.liveDescription()).as("nothing of the failed queue pair is left")
				.isEqualTo("context, counters");
		}
	}

	@Test
	void rawPacketQueuePairWithoutCapNetRawFailsWithEpermAndLeaksNothing() {
		this.fake.device("mlx5_0").add();
		this.fake.failNext("ibv_create_qp", Errno.EPERM);
		try (RdmaDevice device = this.backend.open("mlx5_0")) {
			Counters counters = device.createCounters();
			counters.attach(CounterType.PACKETS, 0);
			assertThatExceptionOfType(RdmaOperationException.class)
				.isThrownBy(() -> device.createFlow(1, FlowSpec.any(), counters))
				.withMessageStartingWith("ibv_create_qp failed: EPERM (1) Operation not permitted")
				.withMessageContaining("raw packet queue pairs and steering rules need CAP_NET_RAW");
			counters.close();
			assertThat(this.fake.liveObjects()).as("only the context is alive").isEqualTo(1);
			Counters retry = device.createCounters();
			retry.attach(CounterType.PACKETS, 0);
			assertThat(device.createFlow(1, FlowSpec.any(), retry).isClosed()).isFalse();
		}
	}

	@Test
	void protectionDomainAndCompletionQueueFailuresReportTheirVerb() {
		this.fake.device("mlx5_0").add();
		try (RdmaDevice device = this.backend.open("mlx5_0")) {
			Counters counters = device.createCounters();
			counters.attach(CounterType.PACKETS, 0);
			this.fake.failNext("ibv_alloc_pd", Errno.ENOMEM);
			assertThatExceptionOfType(RdmaOperationException.class)
				.isThrownBy(() -> device.createFlow(1, FlowSpec.any(), counters))
				.withMessageStartingWith("ibv_alloc_pd failed: ENOMEM (12)");
			this.fake.failNext("ibv_create_cq", Errno.ENOMEM);
			assertThatExceptionOfType(RdmaOperationException.class)
				.isThrownBy(() -> device.createFlow(1, FlowSpec.any(), counters))
				.withMessageStartingWith("ibv_create_cq failed: ENOMEM (12)");
			this.fake.failNext("ibv_create_flow", Errno.ENXIO);
			assertThatExceptionOfType(RdmaOperationException.class)
				.isThrownBy(() -> device.createFlow(1, FlowSpec.any(), counters))
				.withMessageStartingWith("ibv_create_flow failed: ENXIO (6) No such device or address");
			assertThat(counters.isBound()).isFalse();
			device.createFlow(1, FlowSpec.any(), counters);
			assertThat(counters.isBound()).isTrue();
		}
	}

	@Test
	void flowsOfEachPortHangOnTheirOwnQueuePairMovedToRtrOnThatPort() throws Exception {
		this.fake.device("mlx5_0").ports(2).add();
		try (RdmaDevice device = this.backend.open("mlx5_0")) {
			Counters first = device.createCounters();
			first.attach(CounterType.PACKETS, 0);
			Counters second = device.createCounters();
			second.attach(CounterType.PACKETS, 0);
			Counters third = device.createCounters();
			third.attach(CounterType.PACKETS, 0);
			device.createFlow(1, FlowSpec.any(), first);
			device.createFlow(2, FlowSpec.any(), second);
			device.createFlow(2, FlowSpec.builder().protocol(L4Protocol.UDP).priority(1).build(), third);
			assertThat(this.fake.liveDescription())
				.isEqualTo("context, counters, counters, counters, pd, cq, qp, flow, qp, flow, flow");
			Packet packet = Packet.udp(ip("192.168.10.1"), 49152, ip("192.168.10.2"), 4789, 100);
			assertThat(this.fake.deliver("mlx5_0", 1, packet)).isEqualTo(1);
			// two tables: the flows of port 2 differ in priority
			assertThat(this.fake.deliver("mlx5_0", 2, packet)).isEqualTo(2);
			assertThat(first.read(ReadMode.FRESH).get(0)).isEqualTo(1);
			assertThat(second.read(ReadMode.FRESH).get(0)).isEqualTo(1);
			assertThat(third.read(ReadMode.FRESH).get(0)).isEqualTo(1);
		}
	}

}
