package io.github.rdmacounters.core;

import java.net.InetAddress;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class FlowSpecTests {

	private static InetAddress ip(String text) throws Exception {
		return InetAddress.getByName(text);
	}

	@Test
	void udpDestinationPortMatchesOnlyThatPortAndProtocol() throws Exception {
		FlowSpec roce = FlowSpec.builder().protocol(L4Protocol.UDP).destinationPort(4791).build();
		assertThat(roce.matches(Packet.udp(ip("10.0.0.1"), 50000, ip("10.0.0.2"), 4791, 1024))).isTrue();
		assertThat(roce.matches(Packet.udp(ip("fd00::1"), 50000, ip("fd00::2"), 4791, 1024))).isTrue();
		assertThat(roce.matches(Packet.udp(ip("10.0.0.1"), 50000, ip("10.0.0.2"), 4792, 1024))).isFalse();
		assertThat(roce.matches(Packet.tcp(ip("10.0.0.1"), 50000, ip("10.0.0.2"), 4791, 1024))).isFalse();
	}

	@Test
	void ipv4PrefixImpliesEtherTypeAndMatchesByPrefix() throws Exception {
		FlowSpec spec = FlowSpec.builder().destinationIp(IpPrefix.parse("192.168.10.0/24")).build();
		assertThat(spec.etherType()).isEqualTo(Packet.ETHERTYPE_IPV4);
		assertThat(spec.ipVersion()).isEqualTo(4);
		assertThat(spec.matches(Packet.tcp(ip("10.0.0.1"), 1, ip("192.168.10.77"), 2, 64))).isTrue();
		assertThat(spec.matches(Packet.tcp(ip("10.0.0.1"), 1, ip("192.168.11.77"), 2, 64))).isFalse();
		assertThat(spec.matches(Packet.tcp(ip("fd00::1"), 1, ip("fd00::2"), 2, 64))).isFalse();
	}

	@Test
	void ipv6PrefixMatchesByPrefix() throws Exception {
		FlowSpec spec = FlowSpec.builder().sourceIp(IpPrefix.parse("fd00:1::/32")).build();
		assertThat(spec.etherType()).isEqualTo(Packet.ETHERTYPE_IPV6);
		assertThat(spec.matches(Packet.udp(ip("fd00:1:ffff::9"), 1, ip("fd00::2"), 2, 64))).isTrue();
		assertThat(spec.matches(Packet.udp(ip("fd00:2::9"), 1, ip("fd00::2"), 2, 64))).isFalse();
	}

	@Test
	void macAndVlanMustBothMatch() throws Exception {
		MacAddress mac = MacAddress.parse("0c:42:a1:00:00:01");
		FlowSpec spec = FlowSpec.builder().destinationMac(mac).vlanId(100).build();
		Packet packet = Packet.udp(ip("10.0.0.1"), 1, ip("10.0.0.2"), 2, 64)
			.withMacs(MacAddress.parse("02:00:00:00:00:09"), mac);
		assertThat(spec.matches(packet)).isFalse();
		assertThat(spec.matches(packet.withVlan(100))).isTrue();
		assertThat(spec.matches(packet.withVlan(101))).isFalse();
	}

	@Test
	void anyMatchesEveryPacketAndDescribesItself() throws Exception {
		assertThat(FlowSpec.any().matches(Packet.udp(ip("10.0.0.1"), 1, ip("10.0.0.2"), 2, 64))).isTrue();
		assertThat(FlowSpec.any().describe()).isEqualTo("any");
		assertThat(FlowSpec.any().dontTrap()).isTrue();
	}

	@Test
	void describeListsTheFieldsAsWritten() {
		FlowSpec spec = FlowSpec.builder()
			.sourceIp(IpPrefix.parse("10.0.0.0/8"))
			.protocol(L4Protocol.UDP)
			.destinationPort(4791)
			.build();
		assertThat(spec.describe()).isEqualTo("src 10.0.0.0/8 udp dst-port 4791");
	}

	@Test
	void portsWithoutProtocolAreRejectedNamingTheProtocolField() {
		assertThatExceptionOfType(FlowSpec.InvalidFieldException.class)
			.isThrownBy(() -> FlowSpec.builder().destinationPort(80).build())
			.withMessage("protocol must be tcp or udp when a port is matched (destinationPort 80)")
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo("protocol"));
	}

	@Test
	void mixedIpFamiliesAreRejectedNamingTheDestination() {
		assertThatExceptionOfType(FlowSpec.InvalidFieldException.class)
			.isThrownBy(() -> FlowSpec.builder()
				.sourceIp(IpPrefix.parse("10.0.0.0/8"))
				.destinationIp(IpPrefix.parse("fd00::/8"))
				.build())
			.withMessage("destinationIp must be of the same IP family as sourceIp (10.0.0.0/8): both IPv4 or both IPv6"
					+ ", but was fd00::/8")
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo("destinationIp"));
	}

	@Test
	void etherTypeContradictingPrefixIsRejectedNamingTheEtherType() {
		assertThatExceptionOfType(FlowSpec.InvalidFieldException.class)
			.isThrownBy(() -> FlowSpec.builder().etherType(0x86DD).sourceIp(IpPrefix.parse("10.0.0.1")).build())
			.withMessage(
					"etherType must match the IPv4 prefix 10.0.0.1/32: leave it unset or use 0x0800, but was 0x86dd")
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo("etherType"));
	}

	@Test
	void outOfRangeValuesNameTheField() {
		assertThatIllegalArgumentException().isThrownBy(() -> FlowSpec.builder().vlanId(4096))
			.withMessage("vlanId must be 0 to 4094, but was 4096");
		assertThatIllegalArgumentException().isThrownBy(() -> FlowSpec.builder().destinationPort(70000))
			.withMessage("destinationPort must be 1 to 65535, but was 70000");
		assertThatIllegalArgumentException().isThrownBy(() -> FlowSpec.builder().priority(-1))
			.withMessage("priority must be 0 to 65535, but was -1");
	}

	@Test
	void prefixesWithHostBitsAreRefusedNamingTheNetworkAndTheHost() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> FlowSpec.builder().destinationIp(IpPrefix.parse("10.0.0.1/24")))
			.withMessage("destinationIp has host bits set beyond its /24 prefix: write the network 10.0.0.0/24, "
					+ "or 10.0.0.1/32 for that one address; mlx5 refuses a flow whose value has bits outside its "
					+ "mask (check_valid_spec, EINVAL), but was 10.0.0.1/24");
		assertThatIllegalArgumentException().isThrownBy(() -> FlowSpec.builder().sourceIp(IpPrefix.parse("fd00::1/64")))
			.withMessageStartingWith("sourceIp has host bits set beyond its /64 prefix: write the network "
					+ "fd00::/64, or fd00::1/128 for that one address");
		String flow = "rdma.counter-sets.web.flow";
		assertThatExceptionOfType(InvalidRdmaConfigurationException.class)
			.isThrownBy(() -> FlowSpec.builder(flow).sourceIp(IpPrefix.parse("192.168.10.7/24")).build())
			.satisfies((ex) -> assertThat(ex.problems()).singleElement()
				.satisfies((problem) -> assertThat(problem.property()).isEqualTo(flow + ".source-ip")));
	}

	@Test
	void prefixesWithoutHostBitsAreKept() {
		for (String prefix : new String[] { "10.0.0.0/24", "10.0.0.1/32", "0.0.0.0/0", "fd00::/64", "fd00::1/128",
				"192.168.1.128/25" }) {
			assertThat(FlowSpec.builder().destinationIp(IpPrefix.parse(prefix)).build().destinationIp())
				.hasToString(prefix);
		}
	}

	@Test
	void equalSpecsAreEqual() {
		FlowSpec a = FlowSpec.builder().protocol(L4Protocol.TCP).destinationPort(443).build();
		FlowSpec b = FlowSpec.builder().protocol(L4Protocol.TCP).destinationPort(443).build();
		assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
		assertThat(a)
			.isNotEqualTo(FlowSpec.builder().protocol(L4Protocol.TCP).destinationPort(443).dontTrap(false).build());
	}

	@Test
	void builderForAPropertyReportsEveryFieldAtFaultUnderItsProperty() {
		String flow = "rdma.counter-sets.web.flow";
		assertThatExceptionOfType(InvalidRdmaConfigurationException.class)
			.isThrownBy(() -> FlowSpec.builder(flow).vlanId(5000).sourcePort(70000).priority(-1).build())
			.satisfies((ex) -> assertThat(ex.problems()).containsExactly(
					new InvalidRdmaConfigurationException.Problem(flow + ".vlan-id", 5000, "must be 0 to 4094"),
					new InvalidRdmaConfigurationException.Problem(flow + ".source-port", 70000, "must be 1 to 65535"),
					new InvalidRdmaConfigurationException.Problem(flow + ".priority", -1,
							CounterSetPlacement.PRIORITY_RULE)));
	}

	@Test
	void counterSetPriorityIsOneOfMlx5sUserPrioritiesWhateverItsValue() {
		// the same rule for 16 (which the placement refuses) as for 65536 and -1
		String flow = "rdma.counter-sets.web.flow";
		for (int priority : new int[] { -1, 16, 65535, 65536 }) {
			assertThatExceptionOfType(InvalidRdmaConfigurationException.class)
				.isThrownBy(() -> FlowSpec.builder(flow).priority(priority).build())
				.satisfies((ex) -> assertThat(ex.problems()).singleElement()
					.satisfies((problem) -> assertThat(problem.requirement()).startsWith("must be 0 to 15:")));
		}
		assertThat(FlowSpec.builder(flow).priority(15).build().priority()).isEqualTo(15);
		// the API keeps the verbs' u16, for the provider to refuse
		assertThat(FlowSpec.builder().priority(16).build().priority()).isEqualTo(16);
	}

	@Test
	void portZeroIsRefusedSayingHowToCountEveryPort() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> FlowSpec.builder().protocol(L4Protocol.TCP).destinationPort(0))
			.withMessageStartingWith("destinationPort must be 1 to 65535: port 0 is reserved in TCP and UDP")
			.withMessageContaining("to count every port, leave destinationPort out");
		String flow = "rdma.counter-sets.web.flow";
		assertThatExceptionOfType(InvalidRdmaConfigurationException.class)
			.isThrownBy(() -> FlowSpec.builder(flow).protocol(L4Protocol.UDP).sourcePort(0).build())
			.satisfies((ex) -> assertThat(ex.problems()).singleElement().satisfies((problem) -> {
				assertThat(problem.property()).isEqualTo(flow + ".source-port");
				assertThat(problem.requirement()).contains("leave " + flow + ".source-port out");
			}));
		assertThat(FlowSpec.builder().protocol(L4Protocol.UDP).sourcePort(1).build().sourcePort()).isEqualTo(1);
	}

	@Test
	void groupSourceMacIsRefusedPointingToTheDestination() {
		for (String mac : new String[] { "ff:ff:ff:ff:ff:ff", "01:00:5e:00:00:01", "33:33:00:00:00:01" }) {
			assertThatIllegalArgumentException().isThrownBy(() -> FlowSpec.builder().sourceMac(MacAddress.parse(mac)))
				.withMessageStartingWith("sourceMac is a group (multicast or broadcast) address")
				.withMessageContaining("destinationMac")
				.withMessageEndingWith("but was " + mac);
		}
		// individual addresses, locally administered ones too
		for (String mac : new String[] { "02:00:5e:10:00:01", "00:00:00:00:00:00", "fe:ff:ff:ff:ff:ff" }) {
			assertThat(FlowSpec.builder().sourceMac(MacAddress.parse(mac)).build().sourceMac()).hasToString(mac);
		}
	}

	@Test
	void loopbackPrefixesAreRefusedEitherWay() {
		for (String prefix : new String[] { "127.0.0.1", "127.0.0.0/8", "127.1.0.0/16", "::1" }) {
			assertThatIllegalArgumentException().isThrownBy(() -> FlowSpec.builder().sourceIp(IpPrefix.parse(prefix)))
				.withMessageStartingWith("sourceIp is a loopback prefix")
				.withMessageContaining("never reaches the NIC");
			assertThatIllegalArgumentException()
				.isThrownBy(() -> FlowSpec.builder().destinationIp(IpPrefix.parse(prefix)))
				.withMessageStartingWith("destinationIp is a loopback prefix");
		}
		// wider prefixes that hold other addresses too
		for (String prefix : new String[] { "0.0.0.0/0", "64.0.0.0/2", "::/0", "::/127" }) {
			assertThat(FlowSpec.builder().destinationIp(IpPrefix.parse(prefix)).build().destinationIp())
				.isEqualTo(IpPrefix.parse(prefix));
		}
	}

	@Test
	void unspecifiedDestinationIsRefusedSayingHowToCountEveryDestination() {
		for (String address : new String[] { "0.0.0.0", "::" }) {
			assertThatIllegalArgumentException()
				.isThrownBy(() -> FlowSpec.builder().destinationIp(IpPrefix.parse(address)))
				.withMessageStartingWith("destinationIp is the unspecified address")
				.withMessageContaining("leave destinationIp out");
			// a DHCP client's source before it has an address
			assertThat(FlowSpec.builder().sourceIp(IpPrefix.parse(address)).build().sourceIp())
				.isEqualTo(IpPrefix.parse(address));
		}
	}

	@Test
	void limitedBroadcastIsADestinationOnly() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> FlowSpec.builder().sourceIp(IpPrefix.parse("255.255.255.255")))
			.withMessageStartingWith("sourceIp is the limited broadcast address");
		assertThat(FlowSpec.builder().destinationIp(IpPrefix.parse("255.255.255.255")).build().destinationIp())
			.hasToString("255.255.255.255/32");
	}

	@Test
	void reservedVlanIdIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> FlowSpec.builder().vlanId(4095))
			.withMessageStartingWith("vlanId must be 0 to 4094: VLAN id 4095 is reserved (IEEE 802.1Q)");
		assertThatExceptionOfType(InvalidRdmaConfigurationException.class)
			.isThrownBy(() -> FlowSpec.builder("rdma.counter-sets.v.flow").vlanId(4095).build())
			.satisfies((ex) -> assertThat(ex.problems()).hasSize(1));
		assertThat(FlowSpec.builder().vlanId(4094).build().vlanId()).isEqualTo(4094);
		assertThat(FlowSpec.builder().vlanId(0).build().vlanId()).isZero();
	}

	@Test
	void multicastSourcePrefixIsRefusedPointingToTheDestination() {
		for (String prefix : new String[] { "224.0.0.1", "239.0.0.0/8", "224.0.0.0/4", "ff02::1", "ff00::/8" }) {
			assertThatIllegalArgumentException().isThrownBy(() -> FlowSpec.builder().sourceIp(IpPrefix.parse(prefix)))
				.withMessageStartingWith("sourceIp is a multicast prefix")
				.withMessageContaining("destinationIp");
			assertThat(FlowSpec.builder().destinationIp(IpPrefix.parse(prefix)).build().destinationIp())
				.isEqualTo(IpPrefix.parse(prefix));
		}
		// prefixes that also hold unicast senders
		for (String prefix : new String[] { "0.0.0.0/0", "192.0.0.0/2", "::/0", "fe00::/7", "223.255.255.255" }) {
			assertThat(FlowSpec.builder().sourceIp(IpPrefix.parse(prefix)).build().sourceIp())
				.isEqualTo(IpPrefix.parse(prefix));
		}
	}

	@Test
	void builderForAPropertyReportsAPortWithoutProtocolOnThePortWritten() {
		assertThatExceptionOfType(InvalidRdmaConfigurationException.class)
			.isThrownBy(() -> FlowSpec.builder("f").destinationPort(4791).build())
			.satisfies((ex) -> assertThat(ex.problems())
				.containsExactly(new InvalidRdmaConfigurationException.Problem("f.destination-port", 4791,
						"needs f.protocol (tcp or udp): a port is matched only within a protocol")));
		assertThatExceptionOfType(InvalidRdmaConfigurationException.class)
			.isThrownBy(() -> FlowSpec.builder("f")
				.sourceIp(IpPrefix.parse("10.0.0.0/8"))
				.destinationIp(IpPrefix.parse("fd00::/8"))
				.build())
			.satisfies((ex) -> assertThat(ex.problems()).singleElement()
				.satisfies((problem) -> assertThat(problem.property()).isEqualTo("f.destination-ip"))
				.satisfies((problem) -> assertThat(problem.requirement()).contains("as f.source-ip (10.0.0.0/8)")));
	}

	@Test
	void vlanTagTypesAreRefusedAsTheEtherTypeNamingTheVlanId() {
		for (int tag : new int[] { 0x8100, 0x88A8, 0x9100 }) {
			assertThatExceptionOfType(InvalidRdmaConfigurationException.class)
				.isThrownBy(() -> FlowSpec.builder("f").etherType(tag).vlanId(10).build())
				.satisfies((ex) -> assertThat(ex.problems()).singleElement().satisfies((problem) -> {
					assertThat(problem.property()).isEqualTo("f.ether-type");
					assertThat(problem.value()).isEqualTo(String.format("0x%04x", tag));
					assertThat(problem.requirement()).contains("VLAN tag type", "match a VLAN with f.vlan-id");
				}));
		}
	}

	@Test
	void etherTypesBelow0x0600AreRefusedAsIeee8023Lengths() {
		for (int length : new int[] { 0, 46, 1500, 0x05FF }) {
			assertThatExceptionOfType(InvalidRdmaConfigurationException.class)
				.isThrownBy(() -> FlowSpec.builder("f").etherType(length).build())
				.satisfies((ex) -> assertThat(ex.problems()).singleElement().satisfies((problem) -> {
					assertThat(problem.property()).isEqualTo("f.ether-type");
					assertThat(problem.value()).isEqualTo(String.format("0x%04x", length));
					assertThat(problem.requirement()).contains("not an Ethernet type", "IEEE 802.3", "start at 0x0600");
				}));
		}
		assertThatExceptionOfType(FlowSpec.InvalidFieldException.class)
			.isThrownBy(() -> FlowSpec.builder().etherType(1500).build())
			.withMessageContaining("etherType");
		assertThat(FlowSpec.builder().etherType(0x0600).build().etherType()).isEqualTo(0x0600);
		assertThat(FlowSpec.builder().etherType(0x0806).build().etherType()).isEqualTo(0x0806);
	}

	@Test
	void protocolOrPortsUnderANonIpEtherTypeAreRefused() {
		assertThatExceptionOfType(InvalidRdmaConfigurationException.class)
			.isThrownBy(
					() -> FlowSpec.builder("f").etherType(0x8915).protocol(L4Protocol.UDP).destinationPort(80).build())
			.satisfies((ex) -> assertThat(ex.problems()).singleElement().satisfies((problem) -> {
				assertThat(problem.property()).isEqualTo("f.ether-type");
				assertThat(problem.value()).isEqualTo("0x8915");
				assertThat(problem.requirement()).contains("is not IP (0x0800 or 0x86dd)", "f.protocol");
			}));
		assertThat(FlowSpec.builder("f")
			.etherType(0x86DD)
			.protocol(L4Protocol.TCP)
			.destinationPort(80)
			.build()
			.etherType()).isEqualTo(0x86DD);
		assertThat(FlowSpec.builder("f").etherType(0x8915).build().etherType()).isEqualTo(0x8915);
	}

}
