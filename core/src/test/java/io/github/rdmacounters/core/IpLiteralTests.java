package io.github.rdmacounters.core;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.fail;

/**
 * Tests of {@link IpPrefix#parse(String)} in a JVM whose name service is a hosts file
 * ({@code -Djdk.net.hosts.file}, set by core's Surefire configuration for every test)
 * that maps the bad literals to {@code 127.0.0.9}: a parser that asked the resolver would
 * get an address and accept the value, and these tests would fail. Java 17 has no
 * resolver SPI to fail the lookup itself; the hosts file also keeps the lookup off the
 * network.
 *
 * @author rdma-counters
 */
class IpLiteralTests {

	private static final String HOSTS = "jdk.net.hosts.file";

	@BeforeAll
	static void everyNameOfTheHostsFileResolves() throws IOException {
		String hosts = System.getProperty(HOSTS);
		if (hosts == null) {
			fail("Run these tests through Maven (core's Surefire configuration sets -D" + HOSTS
					+ "=src/test/resources/ip-literals/hosts), or set that system property in the IDE");
		}
		List<String> names = new ArrayList<>();
		for (String line : Files.readAllLines(Path.of(hosts))) {
			if (!line.isBlank() && !line.startsWith("#")) {
				List<String> tokens = Arrays.asList(line.trim().split("\\s+"));
				names.addAll(tokens.subList(1, tokens.size()));
			}
		}
		assertThat(names).hasSizeGreaterThan(10);
		for (String name : names) {
			// the trap is armed: InetAddress would accept this name, from the hosts file
			// or as a literal of its own (010.1.1.1 is 10.1.1.1 to it)
			assertThat(InetAddress.getByName(name)).as(name).isNotNull();
		}
	}

	@ParameterizedTest(name = "{0} is {1}")
	@CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
			0.0.0.0                     | 0.0.0.0/32
			255.255.255.255/32          | 255.255.255.255/32
			10.0.0.0/8                  | 10.0.0.0/8
			192.168.10.0/24             | 192.168.10.0/24
			10.0.0.1/0                  | 10.0.0.1/0
			::                          | ::/128
			::/0                        | ::/0
			::1                         | ::1/128
			fd00::/64                   | fd00::/64
			FD00:0:0:0:0:0:0:1          | fd00::1/128
			0fd0:00:000:0000::1/16      | fd0::1/16
			2001:db8::1:0:0:1           | 2001:db8::1:0:0:1/128
			1:2:3:4:5:6:7:8             | 1:2:3:4:5:6:7:8/128
			1::                         | 1::/128
			::8                         | ::8/128
			1:2:3:4:5:6:7::             | 1:2:3:4:5:6:7:0/128
			::2:3:4:5:6:7:8             | 0:2:3:4:5:6:7:8/128
			::ffff:0:0/80               | ::ffff:0:0/80
			::10.0.0.1                  | ::a00:1/128
			1:2:3:4:5:6:10.0.0.1        | 1:2:3:4:5:6:a00:1/128
			1::255.255.255.255          | 1::ffff:ffff/128
			fe80::1/10                  | fe80::1/10
			""")
	void literalsAreParsed(String text, String expected) {
		assertThat(IpPrefix.parse(text)).hasToString(expected);
	}

	@Test
	void familiesAreAsWrittenAlsoForAMappedIpv4Address() {
		assertThat(IpPrefix.parse("10.0.0.1").address()).isInstanceOf(Inet4Address.class);
		assertThat(IpLiterals.parse("::ffff:10.0.0.1")).isInstanceOf(Inet6Address.class);
		assertThat(((Inet6Address) IpPrefix.parse("fe80::1").address()).getScopeId()).isZero();
	}

	@ParameterizedTest(name = "''{0}'' is refused, suggesting {1}")
	@CsvSource(delimiter = '|', textBlock = """
			::ffff:10.0.0.1             | 10.0.0.1/32
			::ffff:10.0.0.1/128         | 10.0.0.1/32
			::ffff:10.0.0.0/120         | 10.0.0.0/24
			::FFFF:a00:1/96             | 10.0.0.1/0
			0:0:0:0:0:ffff:192.168.1.0/121 | 192.168.1.0/25
			""")
	void ipv4MappedPrefixesAreRefusedWithTheIpv4PrefixToWrite(String text, String ipv4) {
		assertThatIllegalArgumentException().isThrownBy(() -> IpPrefix.parse(text))
			.withMessage("'" + text + "' is an IPv4-mapped IPv6 prefix, which IPv4 traffic never matches: the NIC "
					+ "matches IPv4 packets by their IPv4 header; write the IPv4 prefix " + ipv4);
	}

	@ParameterizedTest(name = "''{0}'': {1}")
	@CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
			""                          | the address is empty
			/24                         | the address is empty
			" 10.0.0.1"                 | contains whitespace
			"10.0.0.1 "                 | contains whitespace
			"10. 0.0.1"                 | contains whitespace
			300.1.1.1                   | octet '300' is above 255
			300.1.1.1/32                | octet '300' is above 255
			256.0.0.1                   | octet '256' is above 255
			1234.1.1.1                  | octet '1234' is above 255
			1.2.3                       | 4 dot-separated octets, not 3
			1.2.3.4.5                   | 4 dot-separated octets, not 5
			4294967295                  | 4 dot-separated octets, not 1
			1..2.3                      | octet 2 is empty
			1.2.3.4.                    | 4 dot-separated octets, not 5
			.1.2.3                      | octet 1 is empty
			010.1.1.1                   | octet '010' has a leading zero
			10.01.1.1                   | octet '01' has a leading zero
			0x0a.0.0.1                  | not an IPv4 or IPv6 literal (host names are not resolved)
			example.org                 | not an IPv4 or IPv6 literal (host names are not resolved)
			rdma.example/24             | not an IPv4 or IPv6 literal (host names are not resolved)
			mlx5_0                      | not an IPv4 or IPv6 literal (host names are not resolved)
			host-a                      | not an IPv4 or IPv6 literal (host names are not resolved)
			localhost/8                 | not an IPv4 or IPv6 literal (host names are not resolved)
			１０.0.0.1                   | not an IPv4 or IPv6 literal (host names are not resolved)
			:::                         | ':::' is not allowed
			1:::2                       | ':::' is not allowed
			1::2::3                     | '::' may appear only once
			1:2:3:4:5:6:7:8:9           | without '::' has 8 groups, not 9
			1:2:3:4:5:6:7               | without '::' has 8 groups, not 7
			1:2                         | without '::' has 8 groups, not 2
			1:2:3:4::5:6:7:8            | at most 7 groups besides it, not 8
			::1:2:3:4:5:6:7:8           | at most 7 groups besides it, not 8
			1:2:3:4:5:6:7:1.2.3.4       | without '::' has 8 groups, not 9
			12345::                     | group '12345' has more than 4 hex digits
			fg00::                      | group 'fg00' is not hexadecimal
			fd00::-1                    | group '-1' is not hexadecimal
			:1::                        | a single ':' cannot start or end
			1::2:                       | a single ':' cannot start or end
			:                           | a single ':' cannot start or end
			1:2:3:4:5:6:7:8:            | a single ':' cannot start or end
			::1.2.3                     | 4 dot-separated octets, not 3
			::300.1.1.1                 | octet '300' is above 255
			::01.1.1.1                  | octet '01' has a leading zero
			1.2.3.4::                   | a dotted quad may only end an IPv6 address
			::1.2.3.4:5                 | a dotted quad may only end an IPv6 address
			fe80::1%eth0                | zone ids
			fe80::1%1/64                | zone ids
			10.0.0.0/33                 | Prefix length of 10.0.0.0 must be 0 to 32, but was 33
			fd00::/129                  | Prefix length of fd00:: must be 0 to 128, but was 129
			10.0.0.0/1000000000000      | Prefix length of 10.0.0.0 must be 0 to 32, but was 1000000000000
			10.0.0.0/                   | has no valid prefix length after '/': expected 0 to 32
			10.0.0.0/-1                 | has no valid prefix length after '/': expected 0 to 32
			10.0.0.0/+8                 | has no valid prefix length after '/': expected 0 to 32
			10.0.0.0/8/8                | has no valid prefix length after '/': expected 0 to 32
			10.0.0.0/0x8                | has no valid prefix length after '/': expected 0 to 32
			"10.0.0.0/ 8"               | has no valid prefix length after '/': expected 0 to 32
			fd00::/six                  | has no valid prefix length after '/': expected 0 to 128, e.g. fd00::/64
			""")
	void everythingElseIsRefusedNamingTheValueAsWritten(String text, String reason) {
		assertThatIllegalArgumentException().isThrownBy(() -> IpPrefix.parse(text))
			.withMessageContaining(reason)
			.satisfies((ex) -> {
				if (!ex.getMessage().startsWith("Prefix length")) {
					assertThat(ex.getMessage()).startsWith("'" + text + "' ");
				}
			});
	}

	@Test
	void controlWhitespaceIsRefusedToo() {
		assertThatIllegalArgumentException().isThrownBy(() -> IpPrefix.parse("fd00::1\t"))
			.withMessageContaining("contains whitespace");
		assertThatIllegalArgumentException().isThrownBy(() -> IpPrefix.parse("10.0.0.1\n"))
			.withMessageContaining("contains whitespace");
	}

	@Test
	void aRefusedAddressSaysWhatIsExpected() {
		assertThatIllegalArgumentException().isThrownBy(() -> IpPrefix.parse("300.1.1.1/32"))
			.withMessage("'300.1.1.1/32' is not an IP address or prefix: octet '300' is above 255; "
					+ "expected e.g. 192.168.10.0/24 or fd00::/64 (no host names)");
	}

}
