package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ByteArrayResource;

import io.github.rdmacounters.autoconfigure.ethtool.RdmaEthtoolAutoConfiguration;
import io.github.rdmacounters.autoconfigure.event.RdmaEventsAutoConfiguration;
import io.github.rdmacounters.autoconfigure.health.RdmaHealthContributorAutoConfiguration;
import io.github.rdmacounters.autoconfigure.netlink.RdmaQueuePairsAutoConfiguration;
import io.github.rdmacounters.autoconfigure.observation.RdmaObservationsAutoConfiguration;
import io.github.rdmacounters.autoconfigure.simulated.RdmaSimulatedTrafficAutoConfiguration;
import io.github.rdmacounters.autoconfigure.ui.RdmaUiAutoConfiguration;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.sysfs.HostSysfs;
import io.github.rdmacounters.testsupport.FakeVerbs;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bad-input matrix: each case is configuration a user could write (in a property file
 * or a YAML document, or as an environment variable), run on the simulated backend and on
 * the native backend over the fake libibverbs where the property applies. Every case is
 * classified: clear when startup fails and the failure analysis that Spring Boot prints
 * names the property as written, shows the value as written and says what is allowed, or,
 * for a setting that has no effect, when startup logs one warning that does; unclear when
 * the message lacks one of those; silent when startup goes on without a word; a crash
 * when a JVM error ends it. Every case must be clear, and no message may carry Spring
 * Boot's generic texts ({@code Failed to convert}, {@code No enum constant}, ...) in
 * place of what is allowed.
 *
 * @author rdma-counters
 */
class BadInputMatrixTests {

	private static final FakeVerbs fake = FakeVerbs.get();

	private static final Path REGULAR_FILE = regularFile();

	/** A sysfs tree of mlx5_0 with its network interface, and mlx5_1. */
	private static final HostSysfs SYSFS = FakeDeviceSets.sysfs(temporaryDirectory());

	private static final String FLOW = "rdma.counter-sets.roce.flow.";

	private static final String SET = "rdma.counter-sets.roce.";

	private static final String REFUSED = "is not a key of";

	private static final String NOT_A_LIST = "not a list: write";

	private static final String NO_VALUE = "must have a value";

	private static final String SIMULATED_IGNORED = "has no effect on the native backend";

	private static final String NATIVE_IGNORED = "has no effect on the simulated backend";

	private static final String LIST = "is a map by name, not a list";

	private static final String NO_SINGLE_VALUE = "it cannot be a single value or a list item";

	private static final String NOT_BOOLEAN = "must be true or false";

	private static final String DURATION = "must be a duration: a whole number and its unit";

	private static final String NOT_A_SET_NAME = "a counter set name must start with a letter";

	private static final String SET_NAME_65 = "s" + "e".repeat(64);

	private static final String SET_NAME_5000 = "s" + "e".repeat(4999);

	private static final String DEVICE_NAME_64 = "mlx5_" + "0".repeat(59);

	/** Boot's generic texts, which say neither what is allowed nor where. */
	private static final List<String> BOOT_GENERIC = List.of("Failed to convert", "failed to convert",
			"NumberFormatException", "For input string", "were left unbound", "No enum constant",
			"Failed to bind properties", "IllegalArgumentException", "IllegalStateException");

	private static final Map<Outcome, Integer> tally = new EnumMap<>(Outcome.class);

	private static final List<String> notClear = new ArrayList<>();

	private static final Map<String, Integer> kinds = new LinkedHashMap<>();

	@BeforeEach
	void oneFakeDevice() {
		fake.reset();
		fake.device("mlx5_0").add();
	}

	@AfterAll
	static void resetFakeAndReportTheOutcomes() {
		fake.reset();
		System.out.println("Bad-input matrix outcomes: " + tally + " of " + kinds
				+ notClear.stream().map((line) -> "\n  " + line).reduce("", String::concat));
	}

	static Stream<Arguments> cases() {
		List<Arguments> cases = new ArrayList<>();
		for (Backend backend : Backend.values()) {
			for (Case common : common()) {
				cases.add(Arguments.of(backend, common));
			}
		}
		for (Case simulated : simulatedOnly()) {
			cases.add(Arguments.of(Backend.SIMULATED, simulated));
		}
		for (Case simulated : heldOutSimulated()) {
			cases.add(Arguments.of(Backend.SIMULATED, simulated));
		}
		for (Case names : queuePairCounterNames()) {
			cases.add(Arguments.of(Backend.SIMULATED, names));
			// on the native backend the host's counters are the fake sysfs tree's
			cases.add(Arguments.of(Backend.NATIVE, names.copyWith("rdma.port-counters.sysfs-root=" + SYSFS.root())));
		}
		for (Case nativeCase : nativeOnly()) {
			cases.add(Arguments.of(Backend.NATIVE, nativeCase));
		}
		return cases.stream();
	}

	private static List<Case> common() {
		List<Case> cases = new ArrayList<>();
		cases.addAll(general());
		cases.addAll(whereSetsCount());
		cases.addAll(setContents());
		cases.addAll(flows());
		cases.addAll(setNames());
		cases.addAll(unknownAndRemoved());
		cases.addAll(environmentVariables());
		cases.addAll(switches());
		cases.addAll(namesAsWritten());
		cases.addAll(shapes());
		cases.addAll(hostNames());
		cases.addAll(moreEnvironmentVariables());
		cases.addAll(observations());
		cases.addAll(heldOut());
		cases.addAll(heldOutSecondRound());
		cases.addAll(heldOutThirdRound());
		return cases;
	}

	/**
	 * Values that bound and built a flow that counts nothing, a range stated two ways,
	 * and names written twice in a list.
	 */
	private static List<Case> heldOutThirdRound() {
		List<Case> cases = new ArrayList<>();
		// mlx5's 16 user priorities, whatever the value
		cases.add(new Case(FLOW + "priority", "16", "0 to 15", "ENOMEM"));
		cases.add(new Case(FLOW + "priority", "abc", "must be a whole number", "0 to 15"));
		// port 0 matches only port 0, which TCP and UDP reserve
		cases.add(new Case(FLOW + "destination-port", "0", "1 to 65535", "to count every port")
			.with(FLOW + "protocol=tcp"));
		cases.add(new Case(FLOW + "source-port", "0", "1 to 65535", "to count every port").with(FLOW + "protocol=udp"));
		// no frame or packet is sent from a group address
		for (String mac : List.of("ff:ff:ff:ff:ff:ff", "01:00:5e:00:00:fb", "33:33:00:00:00:01")) {
			cases.add(new Case(FLOW + "source-mac", mac, "group (multicast or broadcast) address",
					FLOW + "destination-mac"));
		}
		for (String ip : List.of("224.0.0.251", "239.1.0.0/16", "ff02::fb")) {
			cases.add(new Case(FLOW + "source-ip", ip, "multicast", FLOW + "destination-ip"));
		}
		// an IPv6 address as a URL writes it
		cases.add(new Case(FLOW + "source-ip", "[fd00::1]", "without the brackets", "e.g. fd00::1"));
		cases.add(new Case(FLOW + "destination-ip", "[fd00::]/64", "without the brackets", "e.g. fd00::/64"));
		cases.add(Case.environment("RDMA_COUNTERSETS_X_FLOW_SOURCEMAC", "ff:ff:ff:ff:ff:ff",
				"group (multicast or broadcast) address"));
		// addresses no packet on the NIC carries
		for (String ip : List.of("127.0.0.1", "127.0.0.0/8", "::1")) {
			cases.add(new Case(FLOW + "destination-ip", ip, "loopback", "never reaches the NIC"));
		}
		cases.add(new Case(FLOW + "source-ip", "127.0.0.1", "loopback", "never reaches the NIC"));
		cases.add(new Case(FLOW + "destination-ip", "0.0.0.0", "unspecified address",
				"leave " + FLOW + "destination-ip out"));
		cases.add(new Case(FLOW + "destination-ip", "::", "unspecified address"));
		cases.add(new Case(FLOW + "source-ip", "255.255.255.255", "limited broadcast", FLOW + "destination-ip"));
		cases.add(new Case(FLOW + "vlan-id", "4095", "0 to 4094", "reserved").with(FLOW + "protocol=tcp"));
		// a placeholder that nothing resolved, which Boot's binder keeps as written
		cases.add(new Case(FLOW + "destination-port", "${NVME_PORT}", "placeholder", "define NVME_PORT", "1 to 65535")
			.with(FLOW + "protocol=tcp"));
		cases.add(new Case("rdma.read-deadline", "${RDMA_DEADLINE}", "placeholder", "${RDMA_DEADLINE:<value>}"));
		// a name twice in a list
		cases.add(new Case("rdma.optional-counters.enable", "cc_rx_ce_pkts,cc_rx_ce_pkts", "more than once").warns());
		cases.add(
				new Case("rdma.port-counters.include", "port_rcv_data,port_*,port_rcv_data", "more than once").warns());
		cases.add(new Case("rdma.port-counters.devices.include", "*mlx5_0,*mlx5_0", "more than once").warns());
		cases.add(new Case("rdma.ethtool.exclude", "tx_pause,rx_pause,tx_pause", "more than once").warns());
		cases.add(new Case("rdma.observations.names", "checkpoint,checkpoint", "more than once").warns()
			.with("rdma.observations.enabled=true")
			.with("rdma.observations.sets=roce")
			.with(FLOW + "protocol=tcp")
			.withMeters());
		return cases;
	}

	/**
	 * Bad inputs beyond the cases listed in the issues, as a tester writes them: wrong
	 * types, numbers out of range or past a long, empty and blank values, lists for
	 * scalars and maps, typos at every level, odd durations and addresses.
	 */
	private static List<Case> heldOut() {
		String huge = "99999999999999999999";
		List<Case> cases = new ArrayList<>();
		// durations: odd units, whitespace, ISO-8601, out of range
		for (String duration : List.of("1 h", "1.5s", huge + "ms", "soon", "1s,2s", "1sec")) {
			Map<String, String> ranges = Map.of("rdma.read-cache-ttl", "100ms to 10m", "rdma.read-deadline",
					"10ms to 5s", "rdma.events.reopen-backoff.initial", "at least 1ms and at most 1h",
					"rdma.events.reopen-backoff.max", "at most 1h");
			ranges.forEach((property, range) -> cases.add(new Case(property, duration, DURATION, range)));
			cases.add(new Case("rdma.ethtool.pause-storm.window", duration, DURATION, "positive and at most 1h"));
			cases
				.add(new Case("rdma.ui.poll-interval", duration, DURATION, "250ms to 1h").with("rdma.ui.enabled=true"));
		}
		for (String duration : List.of("P1D", "-0s", "0")) {
			cases.add(new Case("rdma.read-cache-ttl", duration, "100ms to 10m"));
			cases.add(new Case("rdma.read-deadline", duration, "10ms to 5s"));
			cases.add(new Case("rdma.events.reopen-backoff.initial", duration, "1ms", "1h"));
			cases.add(new Case("rdma.ui.poll-interval", duration, "250ms to 1h").with("rdma.ui.enabled=true"));
			cases.add(new Case("rdma.ethtool.pause-storm.window", duration, "positive and at most 1h"));
		}
		// a number alone, which Boot would bind as milliseconds
		for (String number : List.of("300", "5", "+2", "-5", "1000")) {
			cases.add(new Case("rdma.read-cache-ttl", number, "with its unit", "100ms to 10m"));
			cases.add(new Case("rdma.events.reopen-backoff.max", number, "with its unit", "at most 1h"));
			cases.add(new Case("rdma.ethtool.pause-storm.window", number, "with its unit", "positive and at most 1h"));
		}
		cases.add(new Case("rdma.read-deadline", "500", "with its unit, e.g. 500ms or 500s", "10ms to 5s"));
		cases.add(new Case("rdma.ui.poll-interval", "2", "with its unit", "250ms to 1h").with("rdma.ui.enabled=true"));
		cases.add(new Case("rdma.simulated.traffic.interval", "100", "with its unit")
			.with("rdma.simulated.traffic.enabled=true"));
		cases.add(Case.yaml("rdma.read-cache-ttl", "300", "rdma:\n  read-cache-ttl: 300", "with its unit",
				"100ms to 10m"));
		cases.add(new Case("rdma.read-cache-ttl", "PT0.001S", "100ms to 10m"));
		cases.add(new Case("rdma.ui.poll-interval", "PT0.001S", "250ms to 1h").with("rdma.ui.enabled=true"));
		cases.add(new Case("rdma.events.reopen-backoff.max", "P1D", "at most 1h"));
		cases.add(new Case("rdma.events.reopen-backoff.max", "0", "at least rdma.events.reopen-backoff.initial"));
		cases.add(new Case("rdma.events.reopen-backoff.max", "", NO_VALUE));
		cases.add(new Case("rdma.read-cache-ttl", "", NO_VALUE, "100ms to 10m"));
		cases.add(new Case("rdma.read-deadline", "", NO_VALUE));
		cases.add(new Case("rdma.ui.poll-interval", "", NO_VALUE, "a duration").with("rdma.ui.enabled=true"));
		// booleans
		for (String bool : List.of("rdma.fail-on-unavailable", "rdma.port-counters.enabled", "rdma.events.enabled",
				"rdma.events.monitor.enabled", "rdma.ethtool.enabled", "rdma.optional-counters.enabled",
				"rdma.queue-pairs.enabled", "rdma.queue-pairs.counters.per-queue-pair", "rdma.observations.enabled",
				FLOW + "dont-trap")) {
			cases.add(new Case(bool, "maybe", "true or false"));
			cases.add(new Case(bool, "", "true or false"));
		}
		cases.add(new Case("rdma.enabled", "", "true or false"));
		cases.add(new Case("rdma.ui.enabled", "", "true or false"));
		cases.add(new Case("rdma.enabled[0]", "true", NOT_A_LIST, "true or false"));
		// enums
		cases.add(new Case("rdma.backend", "nat", "native or simulated"));
		cases.add(new Case("rdma.backend", "native,simulated", "native or simulated"));
		cases.add(new Case("rdma.events.port-down-readiness", "", NO_VALUE, "none or refuse-traffic"));
		cases.add(new Case("rdma.events.port-down-readiness", "refuse_trafic", "none or refuse-traffic"));
		cases.add(new Case("rdma.queue-pairs.counters.binding", "sometimes", "manual", "auto", "none"));
		cases.add(new Case("rdma.queue-pairs.counters.binding", "", NO_VALUE, "manual"));
		cases.add(new Case("rdma.queue-pairs.counters.binding[0]", "auto", NOT_A_LIST, "manual"));
		cases.add(new Case(SET + "read-mode", "cached", "fresh or prefer-cached"));
		cases.add(new Case(FLOW + "protocol", "6", "tcp or udp"));
		cases.add(new Case(FLOW + "protocol", "tcp,udp", "tcp or udp"));
		cases.add(new Case(FLOW + "protocol", "icmp", "tcp or udp"));
		cases.add(new Case(FLOW + "protocol[0]", "udp", NOT_A_LIST));
		// whole numbers of a set
		for (String number : List.of("1.5", "1e3", huge, "", "+", "0x")) {
			cases.add(new Case(SET + "port", number, "1 to 255"));
			cases.add(new Case(FLOW + "vlan-id", number, "0 to 4094"));
			cases.add(new Case(FLOW + "priority", number, "0 to 15"));
			cases.add(new Case(FLOW + "destination-port", number, "1 to 65535").with(FLOW + "protocol=tcp"));
			cases.add(new Case(SET + "counters.packets", number, "0 to 255"));
		}
		cases.add(new Case(FLOW + "source-port", "abc", "1 to 65535").with(FLOW + "protocol=udp"));
		cases.add(new Case(FLOW + "destination-port", "4420-4430", "1 to 65535").with(FLOW + "protocol=tcp"));
		cases.add(new Case(FLOW + "destination-port", "4420,4421", "1 to 65535").with(FLOW + "protocol=tcp"));
		cases.add(new Case(FLOW + "ether-type", "ipv4", "0 to 65535"));
		cases.add(new Case(FLOW + "ether-type", "-1", "0 to 65535"));
		cases.add(new Case(FLOW + "ether-type", huge, "0 to 65535"));
		cases.add(new Case(FLOW + "ether-type", "0xZZ", "0 to 65535"));
		// a value at rdma itself, which Boot ignores, and a feature's group written as
		// its switch
		cases.add(new Case("rdma", "false", "not a single value", "RDMA counters stay on", "rdma.enabled=false"));
		cases.add(Case.yaml("rdma", "false", "rdma: false", "not a single value", "rdma.enabled=false"));
		cases.add(Case.environment("RDMA", "false", "not a single value", "rdma.enabled=false").warns());
		cases.add(Case.yaml("rdma.ethtool", "false", "rdma:\n  ethtool: false", "to switch it off",
				"rdma.ethtool.enabled=false"));
		cases.add(Case.yaml("rdma.port-counters", "off", "rdma:\n  port-counters: off", "to switch it off",
				"rdma.port-counters.enabled=false"));
		// a list of sets with a name key, as other tools write them
		cases.add(Case.yaml("rdma.counter-sets[0].name", "nvme",
				"rdma:\n  counter-sets:\n    - name: nvme\n      flow:\n        protocol: tcp",
				"is a map by name, not a list", "rdma.counter-sets.nvme.flow.protocol=tcp"));
		// a space inside a number, which Spring's NumberUtils drops before it parses
		cases.add(new Case(FLOW + "destination-port", "44 20", "a space inside the number", "reading 4420")
			.with(FLOW + "protocol=tcp"));
		cases.add(new Case(SET + "port", "1 0", "a space inside the number", "reading 10").with(FLOW + "protocol=tcp"));
		cases.add(new Case(FLOW + "ether-type", "0x08 00", "a space inside the number", "reading 0x0800"));
		cases.add(new Case("rdma.ethtool.pause-storm.pause-share", "0. 2", "a space inside the number", "reading 0.2"));
		cases.add(Case.yaml(FLOW + "destination-port", "44 20", tcpSetOf("44 20"), "a space inside the number",
				"reading 4420"));
		cases.add(Case.environment("RDMA_COUNTERSETS_ROCE_FLOW_DESTINATIONPORT", "44 20", "a space inside the number",
				"reading 4420"));
		// below 0x0600 the field is an IEEE 802.3 frame's length, no protocol's type
		cases.add(new Case(FLOW + "ether-type", "1500", "not an Ethernet type", "start at 0x0600"));
		cases.add(new Case(FLOW + "ether-type", "0x05ff", "not an Ethernet type", "start at 0x0600"));
		cases.add(new Case(FLOW + "ether-type", "0", "not an Ethernet type", "start at 0x0600"));
		// a YAML 1.1 boolean word where a number, a duration or names belong
		String tcpSet = "rdma:\n  counter-sets:\n    roce:\n      flow:\n        protocol: tcp\n";
		cases.add(Case.yaml(FLOW + "destination-port", "off", tcpSet + "        destination-port: off",
				"as the boolean false", "a whole number", "1 to 65535"));
		cases.add(Case.yaml(FLOW + "priority", "yes", tcpSet + "        priority: yes", "as the boolean true",
				"a whole number", "0 to 15"));
		cases.add(Case.yaml(SET + "counters.packets", "on", tcpSet + "      counters:\n        packets: on",
				"as the boolean true", "a whole number", "0 to 255"));
		cases.add(Case.yaml("rdma.read-deadline", "on", "rdma:\n  read-deadline: on", "as the boolean true",
				"a duration", "10ms to 5s"));
		cases.add(Case.yaml("rdma.ethtool.pause-storm.pause-share", "on",
				"rdma:\n  ethtool:\n    pause-storm:\n      pause-share: on", "as the boolean true", "a number",
				"at most 1"));
		cases.add(Case.yaml("rdma.ethtool.include", "off", "rdma:\n  ethtool:\n    include: off",
				"as the boolean false", "quote it ('off')"));
		cases.add(Case.yaml("rdma.port-counters.include", "no", "rdma:\n  port-counters:\n    include: no",
				"as the boolean false", "quote it ('no')"));
		cases.add(Case.yaml("rdma.optional-counters.enable", "on", "rdma:\n  optional-counters:\n    enable: on",
				"as the boolean true", "quote it ('on')"));
		cases.add(new Case(SET + "port[0]", "1", NOT_A_LIST));
		cases.add(new Case(SET + "counters.pkts", "0", "packets or bytes"));
		cases.add(new Case(SET + "counters[0]", "packets", NOT_A_LIST, "packets, bytes"));
		cases.add(new Case(SET + "counters.packets.index", "0", "packets"));
		// addresses
		for (String mac : List.of("0200.5e10.0001", "02:00:5e:10:00:01:ff", "", "02:00:5e:10:00:0g", "2:0:5e:10:0:1x",
				"02:00:5e:10:00:01/48")) {
			cases.add(new Case(FLOW + "source-mac", mac, "six hex octets"));
		}
		for (String ip : List.of("10.0.0.1/", "10.0.0.1/-1", "10.0.0.1/abc", "10.0.0.1/32/1", "10.0.0.1/" + huge)) {
			cases.add(new Case(FLOW + "source-ip", ip, "0 to 32"));
		}
		cases.add(new Case(FLOW + "source-ip", "::ffff:10.0.0.1", "write the IPv4 prefix 10.0.0.1/32"));
		for (String ip : List.of("/24", "fd00::1%eth0", "fd00:::1", "0x0a000001", "167772161", "10.1", "fe80::1%1",
				"2001:db8::g/64", "10.0.0.0 /8", "ip6-localhost")) {
			cases.add(new Case(FLOW + "source-ip", ip, "no host names"));
		}
		cases.add(new Case(FLOW + "destination-ip", "2001:db8::/-1", "0 to 128"));
		// strings and names
		cases.add(new Case(SET + "netdev", ".", "a network interface name such as ens1f0np0"));
		cases.add(new Case(SET + "netdev", "eth0:1", "a network interface name such as ens1f0np0"));
		cases.add(new Case(SET + "netdev", "ens 1", "a network interface name such as ens1f0np0"));
		cases.add(new Case(SET + "device", "mlx5_0,mlx5_1", "was not found").with(FLOW + "protocol=udp")
			.reportedAs("rdma.counter-sets.roce", "mlx5_0,mlx5_1"));
		cases.add(new Case(SET + "device[0]", "mlx5_0", NOT_A_LIST));
		cases.add(new Case("rdma.counter-sets.-roce.flow.protocol", "udp", NOT_A_SET_NAME)
			.reportedAs("rdma.counter-sets.-roce", "-roce"));
		cases.add(new Case("rdma.counter-sets.ro\u200bce.flow.protocol", "udp", NOT_A_SET_NAME)
			.reportedAs("rdma.counter-sets.ro\u200bce", "ro\u200bce"));
		cases.add(new Case("rdma.counter-sets.a.b.flow.protocol", "udp", "is not a counter set property"));
		cases.add(new Case("rdma.devices.mlx5_0.fail-on-unavailable", "yes please", "true or false"));
		cases.add(new Case("rdma.ui.path", "rdma-ui", "/").with("rdma.ui.enabled=true"));
		cases.add(new Case("rdma.ui.path", "", "start with '/'").with("rdma.ui.enabled=true"));
		cases.add(new Case("rdma.ui.path", "/rdma ui", "/").with("rdma.ui.enabled=true"));
		cases.add(new Case("rdma.ui.path", "/", "/").with("rdma.ui.enabled=true"));
		cases.add(new Case("rdma.ui.path", "/a?b", "/").with("rdma.ui.enabled=true"));
		cases.add(new Case("rdma.ui.path[0]", "/x", "/").with("rdma.ui.enabled=true"));
		// globs
		for (String glob : List.of("port_[", "**/x", "port\\_x", "port_rcv_data{,x}", "a,,b")) {
			String item = glob.startsWith("a,") ? "[1]" : "[0]";
			String value = glob.startsWith("a,") ? "" : glob.split(",")[0];
			String allowed = glob.startsWith("a,") ? "not blank" : "'*' (any run) and '?'";
			cases.add(new Case("rdma.port-counters.include", glob, allowed)
				.reportedAs("rdma.port-counters.include" + item, value));
			cases.add(new Case("rdma.ethtool.include", glob, allowed).reportedAs("rdma.ethtool.include" + item, value));
			cases.add(new Case("rdma.port-counters.devices.exclude", glob, allowed)
				.reportedAs("rdma.port-counters.devices.exclude" + item, value));
		}
		cases.add(new Case("rdma.ethtool.exclude", "rx_[", "'*'").reportedAs("rdma.ethtool.exclude[0]"));
		cases.add(new Case("rdma.ethtool.include.foo", "bar", "has no key 'foo'"));
		cases.add(new Case("rdma.observations.names.a", "b", "has no key 'a'"));
		cases.add(new Case("rdma.port-counters.devices.include.x", "mlx5_0", "has no key 'x'"));
		// pause share
		for (String share : List.of("-0.1", "1.5", "0", "NaN", "Infinity")) {
			cases.add(new Case("rdma.ethtool.pause-storm.pause-share", share, "above 0", "at most 1"));
		}
		for (String share : List.of("abc", "20%", "")) {
			cases.add(new Case("rdma.ethtool.pause-storm.pause-share", share, "a number", "above 0 and at most 1"));
		}
		// optional counters and queue pairs
		cases.add(new Case("rdma.optional-counters.enable", "cc_rx_ce_pkts,,cc_rx_cnp_pkts", "not blank")
			.reportedAs("rdma.optional-counters.enable[1]", ""));
		cases.add(new Case("rdma.optional-counters.enable", "cc/rx", "the name of an optional counter")
			.reportedAs("rdma.optional-counters.enable[0]"));
		cases.add(new Case("rdma.optional-counters.devices.mlx5_0.enable", "cc rx", "the name of an optional counter")
			.reportedAs("rdma.optional-counters.devices.mlx5_0.enable[0]"));
		cases.add(new Case("rdma.optional-counters.devices[0].enable", "cc_rx_ce_pkts", LIST)
			.reportedAs("rdma.optional-counters.devices[0]", "[0]"));
		cases.add(new Case("rdma.optional-counters.devices.mlx5/0.enable", "cc_rx_ce_pkts",
				"an RDMA device name such as mlx5_0")
			.reportedAs("rdma.optional-counters.devices.mlx5/0", "mlx5/0"));
		cases.add(new Case("rdma.optional-counters.devices.mlx5_0", "cc_rx_ce_pkts", "is a group of keys (enable)"));
		cases.add(new Case("rdma.optional-counters.devices.mlx5_0.enabled", "true", REFUSED, "did you mean"));
		cases.add(new Case("rdma.optional-counters", "on", "is a group of keys"));
		cases.add(new Case("rdma.queue-pairs", "on", "is a group of keys"));
		cases.add(new Case("rdma.queue-pairs.counters", "auto", "is a group of keys"));
		cases.add(new Case("rdma.ethtool.pause-storm", "1m", "is a group of keys"));
		cases.add(new Case("rdma.ethtool", "on", "is a group of keys"));
		cases.add(new Case("rdma.observations", "on", "is a group of keys"));
		cases.add(new Case("rdma.events.monitor", "on", "is a group of keys"));
		cases.add(new Case(SET + "flow[0].protocol", "udp", "is a group of keys"));
		cases.add(new Case("rdma.ui[0].enabled", "true", "not a list"));
		cases.add(new Case("rdma.events.reopen-backoff[0].initial", "1s", "not a list"));
		// unknown keys, with and without typos, at every level
		for (String key : List.of("rdma.observation.enabled", "rdma.observations.enable", "rdma.observations.nmes",
				"rdma.queue-pair.enabled", "rdma.queue-pairs.counter.binding", "rdma.queue-pairs.counters.bindng",
				"rdma.ethtool.pause-strom.window", "rdma.ethtool.pause-storm.windw", "rdma.ethtool.incude",
				"rdma.optional-counter.enable", "rdma.optional-counters.enabl", "rdma.events.monitor.enable",
				"rdma.event.enabled", "rdma.events.reopen-backoff.min", "rdma.ui.pol-interval", "rdma.u.enabled",
				"rdma.port-counters.devices.includ", "rdma.port-counter.enabled", "rdma.native.libary",
				"rdma.read-cache-tll", "rdma.read-dedline", "rdma.fail-on-unavailble", "rdma.xyz")) {
			cases.add(new Case(key, "true", REFUSED));
		}
		cases.add(new Case(FLOW + "protocl", "udp", "did you mean flow.protocol?"));
		cases.add(new Case(FLOW + "vlan", "10", "did you mean flow.vlan-id?"));
		// the short words of tc flower, ethtool's n-tuple filters and iptables
		cases.add(new Case(FLOW + "dst-ip", "10.0.0.0/8", "did you mean flow.destination-ip?"));
		cases.add(new Case(FLOW + "dest-port", "4420", "did you mean flow.destination-port?")
			.with(FLOW + "protocol=tcp"));
		cases.add(new Case(FLOW + "src_port", "4420", "did you mean flow.source-port?").with(FLOW + "protocol=tcp"));
		cases.add(new Case(FLOW + "dport", "4420", "did you mean flow.destination-port?").with(FLOW + "protocol=tcp"));
		cases.add(new Case(FLOW + "ip-proto", "tcp", "did you mean flow.protocol?"));
		cases.add(new Case(FLOW + "eth-type", "0x0806", "did you mean flow.ether-type?"));
		// a flow key without flow., and a counter type under counter
		cases.add(new Case(SET + "protocol", "tcp", "did you mean flow.protocol?"));
		cases
			.add(new Case(SET + "dst-port", "4420", "did you mean flow.destination-port?").with(FLOW + "protocol=tcp"));
		cases.add(new Case(SET + "priorty", "1", "did you mean flow.priority?").with(FLOW + "protocol=tcp"));
		cases.add(new Case(SET + "counter.packets", "0", "did you mean counters.packets?").with(FLOW + "protocol=tcp"));
		cases.add(new Case(FLOW + "destination-port.value", "1", "flow.destination-port"));
		cases.add(new Case(FLOW + "protocol.x", "udp", "flow.protocol"));
		// environment variables
		cases.add(Case.environment("RDMA_COUNTERSETS_X_PORT", "abc", "1 to 255"));
		cases.add(Case.environment("RDMA_COUNTERSETS_X_PORT", huge, "1 to 255"));
		cases.add(Case.environment("RDMA_COUNTERSETS_X_FLOW_DESTINATIONPORT", huge, "1 to 65535"));
		cases.add(Case.environment("RDMA_COUNTERSETS_X_FLOW_SOURCEIP", "10.0.0.0/33", "0 to 32"));
		cases.add(Case.environment("RDMA_COUNTERSETS_X_FLOW_DONTTRAP", "maybe", "true or false"));
		cases.add(Case.environment("RDMA_COUNTERSETS_X_COUNTERS_PAKETS", "0", "packets or bytes"));
		cases.add(Case.environment("RDMA_READCACHETTL", "soon", DURATION));
		cases.add(Case.environment("RDMA_READCACHETTL", "1.5s", DURATION));
		cases.add(Case.environment("RDMA_READCACHETTL", " 1s ", DURATION));
		cases.add(Case.environment("RDMA_READDEADLINE", "0", "10ms to 5s"));
		cases.add(Case.environment("RDMA_EVENTS_PORTDOWNREADINESS", "sometimes", "none or refuse-traffic"));
		cases.add(Case.environment("RDMA_UI_POLLINTERVAL", "abc", DURATION));
		cases.add(Case.environment("RDMA_ETHTOOL_PAUSESTORM_PAUSESHARE", "abc", "a number"));
		cases.add(Case.environment("RDMA_ETHTOOL_PAUSESTORM_WINDOW", "P1D", "at most 1h"));
		cases.add(Case.environment("RDMA_QUEUEPAIRS_COUNTERS_BINDING", "sometimes", "manual"));
		cases.add(Case.environment("RDMA_OBSERVATIONS_ENABLED", "maybe", "true or false"));
		cases.add(Case.environment("RDMA_DEVICES_MLX5_0_FAILONUNAVAILABLE", "maybe", "SPRING_APPLICATION_JSON"));
		cases.add(Case.environment("RDMA_PORTCOUNTERS_INCLUDE", "port_[", "'*' (any run) and '?'",
				"RDMA_PORTCOUNTERS_INCLUDE"));
		cases.add(Case.environment("RDMA_FAILONUNAVAILABLE", "maybe", "true or false"));
		// settings with no effect
		cases.add(new Case("rdma.ethtool.include", "rx_*", "has no effect", "rdma.ethtool.enabled=false")
			.with("rdma.ethtool.enabled=false")
			.warns());
		cases.add(new Case("rdma.ethtool.pause-storm.window", "5m", "has no effect", "rdma.ethtool.enabled=false")
			.with("rdma.ethtool.enabled=false")
			.warns());
		cases.add(new Case("rdma.optional-counters.enable", "cc_rx_ce_pkts", "has no effect",
				"rdma.optional-counters.enabled=false")
			.with("rdma.optional-counters.enabled=false")
			.warns());
		cases.add(new Case("rdma.events.port-down-readiness", "refuse-traffic", "has no effect",
				"rdma.events.enabled=false")
			.with("rdma.events.enabled=false")
			.warns());
		cases.add(
				new Case("rdma.queue-pairs.counters.binding", "auto", "has no effect", "rdma.queue-pairs.enabled=false")
					.warns());
		return cases;
	}

	/** A second round of held-out inputs, tried after the first was made clear. */
	private static List<Case> heldOutSecondRound() {
		List<Case> cases = new ArrayList<>();
		cases.add(new Case(FLOW + "source-ip", "10.0.0.1/32,10.0.0.2/32", "must be one value, not a list"));
		cases.add(new Case(FLOW + "protocol", "\uff55\uff44\uff50", "tcp or udp"));
		cases.add(new Case(FLOW + "priority", "1e2", "0 to 15"));
		cases.add(new Case(FLOW + "vlan-id", "0x1000", "0 to 4094"));
		cases.add(new Case(FLOW + "destination-mac", "02:00:5e:10:00:01,02:00:5e:10:00:02",
				"must be one value, not a list"));
		cases.add(new Case("rdma.ethtool.pause-storm.pause-share", "0,5", "a number"));
		cases.add(new Case("rdma.read-cache-ttl", "1d", "100ms to 10m"));
		cases.add(new Case("rdma.read-deadline", "1m", "10ms to 5s"));
		cases.add(new Case("rdma.events.reopen-backoff.initial", "1h", "at least rdma.events.reopen-backoff.initial")
			.with("rdma.events.reopen-backoff.max=30s")
			.reportedAs("rdma.events.reopen-backoff.max", "30s"));
		cases.add(new Case("rdma.ui.path", "/rdma-ui/../x", "no '.' or '..' segment").with("rdma.ui.enabled=true"));
		cases.add(new Case("rdma.ui.path", "/rdma\u00fc", "/").with("rdma.ui.enabled=true"));
		cases.add(new Case("rdma.observations.sets[0].name", "roce", "observations"));
		cases.add(new Case("rdma.port-counters.include[0].name", "port_*", "port-counters.include"));
		cases.add(new Case("rdma.devices.mlx5_0", "", "is a group of keys (fail-on-unavailable)"));
		cases.add(new Case("rdma.devices..fail-on-unavailable", "false", "nothing between the dots",
				"rdma.devices.mlx5_0.fail-on-unavailable"));
		cases.add(new Case("rdma.counter-sets..port", "1", "nothing between the dots", "rdma.counter-sets.roce.port"));
		cases.add(new Case("rdma.simulated.devices..ports", "2", "nothing between the dots",
				"rdma.simulated.devices.sim_mlx5_0.ports"));
		cases.add(new Case(SET + "flow", "", "'flow' of a counter set is a group of keys"));
		cases.add(new Case("rdma.events.monitor.enabled[0]", "true", NOT_A_LIST));
		cases.add(new Case("rdma.ui.poll-interval", "1,5s", DURATION).with("rdma.ui.enabled=true"));
		cases.add(Case.environment("RDMA_COUNTERSETS_X_COUNTERS_PACKETS", "abc", "0 to 255"));
		cases.add(Case.environment("RDMA_EVENTS_REOPENBACKOFF_INITIAL", "1 h", DURATION));
		cases.add(Case.environment("RDMA_UI_PATH", "rdma", "/").with("rdma.ui.enabled=true"));
		cases.add(Case.environment("RDMA_COUNTERSETS_X_NETDEV", "eth0:1", "a network interface name"));
		cases.add(Case.environment("RDMA_COUNTERSETS_X_FLOW_SOURCEMAC", "zz", "six hex octets"));
		cases.add(Case.environment("RDMA_OBSERVATIONS_NAMES", "a,,b", "not blank", "RDMA_OBSERVATIONS_NAMES")
			.with("rdma.observations.enabled=true")
			.reportedAs("rdma.observations.names[1]", ""));
		cases.add(Case.environment("RDMA_ETHTOOL_INCLUDE", "rx_[", "'*'"));
		cases.add(Case.environment("RDMA_OPTIONALCOUNTERS_ENABLE", "a,,b", "not blank", "RDMA_OPTIONALCOUNTERS_ENABLE")
			.reportedAs("rdma.optional-counters.enable[1]", ""));
		cases.add(Case.yaml("rdma.backend", "", "rdma:\n  backend: ~", NO_VALUE, "native or simulated"));
		cases.add(Case.yaml("rdma.counter-sets.roce.flow.protocol[0]", "udp",
				"rdma:\n  counter-sets:\n    roce:\n      flow:\n        protocol: [udp, tcp]", NOT_A_LIST));
		cases.add(Case.yaml("rdma.counter-sets[0]", "[0]", "rdma:\n  counter-sets:\n    - device: mlx5_0", LIST));
		cases.add(Case.yaml("rdma.events.enabled", "maybe", "rdma:\n  events:\n    enabled: maybe", NOT_BOOLEAN));
		cases.add(Case.yaml("rdma.ui.poll-interval", "", "rdma:\n  ui:\n    enabled: true\n    poll-interval:",
				NO_VALUE));
		cases.add(Case.yaml("rdma.optional-counters.devices.mlx5_0.enable[0].name", "x",
				"rdma:\n  optional-counters:\n    devices:\n      mlx5_0:\n        enable:\n          - name: x",
				"optional-counters"));
		// YAML 1.1 (SnakeYAML) reads a leading zero as octal and colons as base 60
		cases.add(Case.yaml("rdma.counter-sets.x.flow.destination-port", "04420",
				"rdma:\n  counter-sets:\n    x:\n      flow:\n        protocol: tcp\n        destination-port: 04420",
				"an octal number, 2320", "decimal"));
		cases.add(Case.yaml("rdma.read-cache-ttl", "1:30", "rdma:\n  read-cache-ttl: 1:30", "base 60", "90"));
		// a YAML decimal number, which Spring's NumberUtils cuts to a whole one
		cases.add(Case.yaml("rdma.counter-sets.x.flow.destination-port", "4791.5",
				"rdma:\n  counter-sets:\n    x:\n      flow:\n        protocol: udp\n        destination-port: 4791.5",
				"must be a whole number", "1 to 65535", "keep only 4791"));
		cases.add(Case.yaml("rdma.counter-sets.x.port", "1.0",
				"rdma:\n  counter-sets:\n    x:\n      port: 1.0\n      flow:\n        protocol: udp",
				"must be a whole number", "1 to 255"));
		// two spellings of one name, whose keys Boot binds to both
		cases.add(new Case("rdma.counter-sets.ROCE.flow.destination-port", "4420", "names the same entry as",
				"rdma.counter-sets.roce", "the same way everywhere")
			.with("rdma.counter-sets.roce.flow.protocol=tcp")
			.reportedAs("rdma.counter-sets.ROCE", "ROCE"));
		cases.add(new Case("rdma.counter-sets.nvmetcp.flow.protocol", "tcp", "names the same entry as",
				"rdma.counter-sets.nvme-tcp")
			.with("rdma.counter-sets.nvme-tcp.flow.protocol=udp")
			.reportedAs("rdma.counter-sets.nvmetcp", "nvmetcp"));
		cases.add(new Case("rdma.devices.MLX5_0.fail-on-unavailable", "false", "names the same entry as",
				"rdma.devices.mlx5_0")
			.with("rdma.devices.mlx5_0.fail-on-unavailable=true")
			.reportedAs("rdma.devices.MLX5_0", "MLX5_0"));
		// digits of other scripts, which Integer.valueOf reads without a word
		cases.add(new Case("rdma.counter-sets.x.flow.destination-port", "\uff14\uff14\uff12\uff10", "digits 0 to 9")
			.with("rdma.counter-sets.x.flow.protocol=tcp"));
		cases.add(new Case("rdma.counter-sets.x.port", "\u0661", "digits 0 to 9"));
		cases.add(new Case("rdma.counter-sets.x.flow.ether-type", "0x\uff10800", "digits 0 to 9"));
		// YAML 1.1 forms: a boolean word for a name, a binary number, a float in exponent
		// form
		cases.add(Case.yaml("rdma.counter-sets.x.device", "yes",
				"rdma:\n  counter-sets:\n    x:\n      device: yes\n      flow:\n        protocol: udp",
				"as the boolean true", "quote it"));
		cases.add(Case.yaml("rdma.ui.path", "no", "rdma:\n  ui:\n    enabled: true\n    path: no",
				"as the boolean false", "quote it"));
		cases.add(Case.yaml("rdma.counter-sets.x.flow.destination-port", "0b1",
				"rdma:\n  counter-sets:\n    x:\n      flow:\n        protocol: tcp\n        destination-port: 0b1",
				"a binary number, 1", "decimal"));
		cases.add(Case.yaml("rdma.counter-sets.x.flow.destination-port", "4.42e3",
				"rdma:\n  counter-sets:\n    x:\n      flow:\n        protocol: tcp\n        destination-port: 4.42e3",
				"must be a whole number", "keep only 4420"));
		cases.add(Case.yaml("rdma.ethtool.pause-storm.pause-share", ".inf",
				"rdma:\n  ethtool:\n    pause-storm:\n      pause-share: .inf", "above 0 and at most 1"));
		// an empty variable, which binds as nothing and Boot does not report for the
		// environment
		cases.add(Case.environment("RDMA_COUNTERSETS_X_FLOW_PROTOCOL", "", NO_VALUE, "tcp or udp"));
		cases.add(Case.environment("RDMA_READCACHETTL", "", NO_VALUE, "a duration"));
		cases.add(Case.environment("RDMA_COUNTERSETS_X_FLOW_DESTINATIONPORT", "", NO_VALUE, "a number"));
		cases.add(Case.environment("RDMA_COUNTERSETS_X_FLOW_SOURCEPORT", " ", "must be a whole number", "1 to 65535"));
		cases.add(new Case("rdma.queue-pairs.counters.per-queue-pair", "true", "has no effect")
			.with("rdma.queue-pairs.enabled=true")
			.with("rdma.queue-pairs.counters.binding=none")
			.warns());
		return cases;
	}

	/** Bad inputs beyond the listed ones, of the simulator's settings. */
	private static List<Case> heldOutSimulated() {
		String huge = "99999999999999999999";
		String device = "rdma.simulated.devices.sim_a.";
		String traffic = "rdma.simulated.traffic.";
		List<Case> cases = new ArrayList<>();
		for (String number : List.of("abc", "1.5", huge, "", "-1")) {
			cases.add(new Case(device + "ports", number, "1 to 255"));
			cases.add(new Case(traffic + "packet-size", number, "60 to 9000").with(traffic + "enabled=true"));
			cases.add(new Case(traffic + "sets.roce.packet-size", number, "60 to 9000").with(FLOW + "protocol=udp")
				.with(traffic + "enabled=true"));
		}
		for (String rate : List.of("NaN", "Infinity", "1e9", "abc", "", "-1")) {
			cases.add(new Case(traffic + "packets-per-second", rate, "0 to 1000000").with(traffic + "enabled=true"));
		}
		for (String duration : List.of("P1D", "0", "-1ms")) {
			cases.add(new Case(traffic + "interval", duration, "1ms to 1m").with(traffic + "enabled=true"));
		}
		cases.add(new Case(traffic + "interval", "", NO_VALUE, "a duration").with(traffic + "enabled=true"));
		for (String duration : List.of("1 h", "abc")) {
			cases.add(new Case(traffic + "interval", duration, DURATION).with(traffic + "enabled=true"));
		}
		cases.add(new Case(device + "link-layer", "eth", "must be ethernet or infiniband"));
		cases.add(new Case(device + "netdevs", "ens1/0", "a network interface name").reportedAs(device + "netdevs[0]"));
		cases.add(new Case(device + "netdevs", "a,,b", "a network interface name", "not blank")
			.reportedAs(device + "netdevs[1]", ""));
		cases.add(new Case(device + "netdevs.a", "b", "has no key 'a'"));
		cases.add(new Case(device + "counters-supported", "", "true or false"));
		cases.add(new Case(device + "netdev", "ens1f0np0", REFUSED, "did you mean"));
		cases.add(
				new Case(traffic + "sets.roce.packet-sze", "100", REFUSED, "did you mean").with(FLOW + "protocol=udp"));
		cases.add(new Case("rdma.simulated.trafic.enabled", "true", REFUSED));
		cases.add(new Case(traffic + "sets.roce[0].packet-size", "100", "not a list").with(FLOW + "protocol=udp"));
		cases.add(Case.environment("RDMA_SIMULATED_TRAFFIC_PACKETSIZE", "abc", "60 to 9000"));
		cases.add(Case.environment("RDMA_SIMULATED_TRAFFIC_INTERVAL", "1 h", DURATION));
		return cases;
	}

	/** Booleans, also those that a condition reads before the properties are bound. */
	private static List<Case> switches() {
		return List.of(new Case("rdma.enabled", "yes please", NOT_BOOLEAN, "whether to enable RDMA counters"),
				new Case("rdma.enabled", "2", NOT_BOOLEAN),
				new Case("rdma.ui.enabled", "yes please", NOT_BOOLEAN, "whether to serve the live counters page"),
				new Case("rdma.ui.enabled", "maybe", NOT_BOOLEAN, "whether to serve the live counters page")
					.with("rdma.enabled=false"),
				new Case("rdma.port-counters.enabled", "yes please", NOT_BOOLEAN),
				new Case("management.health.rdma.enabled", "maybe", NOT_BOOLEAN),
				new Case("management.endpoint.rdma.access", "maybe", "none, read-only or unrestricted")
					.with("management.endpoints.web.exposure.include=rdma"),
				new Case("rdma.events.enabled", "maybe", NOT_BOOLEAN),
				new Case("rdma.events.enabled", "nope", NOT_BOOLEAN),
				new Case("rdma.simulated.traffic.enabled", "maybe", NOT_BOOLEAN),
				new Case("rdma.fail-on-unavailable", "1.0", NOT_BOOLEAN),
				new Case("rdma.devices.mlx5_0.fail-on-unavailable", "", NO_VALUE, "true or false"),
				new Case(FLOW + "dont-trap", "nein", NOT_BOOLEAN));
	}

	/**
	 * Names Boot's binder would change (it drops characters a property name cannot have),
	 * too long for what they name, or in Boot's bracket form.
	 */
	private static List<Case> namesAsWritten() {
		return List.of(
				new Case("rdma.counter-sets.zähler.flow.protocol", "udp", NOT_A_SET_NAME)
					.reportedAs("rdma.counter-sets.zähler", "zähler"),
				new Case("rdma.counter-sets[zähler].flow.protocol", "udp", NOT_A_SET_NAME)
					.reportedAs("rdma.counter-sets.zähler", "zähler"),
				new Case("rdma.counter-sets.计数器.flow.protocol", "udp", NOT_A_SET_NAME)
					.reportedAs("rdma.counter-sets.计数器", "计数器"),
				new Case("rdma.counter-sets.ok\uD83D\uDE00.flow.protocol", "udp", NOT_A_SET_NAME)
					.reportedAs("rdma.counter-sets.ok\uD83D\uDE00", "ok\uD83D\uDE00"),
				new Case("rdma.counter-sets.café.flow.protocol", "udp", NOT_A_SET_NAME)
					.reportedAs("rdma.counter-sets.café", "café"),
				new Case("rdma.counter-sets.[9lives].flow.protocol", "udp", NOT_A_SET_NAME)
					.reportedAs("rdma.counter-sets.9lives", "9lives"),
				new Case("rdma.counter-sets.[we ird].flow.protocol", "udp", NOT_A_SET_NAME)
					.reportedAs("rdma.counter-sets.we ird", "we ird"),
				new Case("rdma.counter-sets." + SET_NAME_65 + ".flow.protocol", "udp", "at most 64 characters")
					.reportedAs("rdma.counter-sets." + SET_NAME_65, SET_NAME_65),
				new Case("rdma.counter-sets." + SET_NAME_5000 + ".flow.protocol", "udp", "at most 64 characters")
					.reportedAs("rdma.counter-sets." + SET_NAME_5000, SET_NAME_5000),
				new Case("rdma.counter-sets.roc-é.flow.protocol", "udp", NOT_A_SET_NAME)
					.reportedAs("rdma.counter-sets.roc-é", "roc-é"),
				new Case("rdma.simulated.traffic.sets.zähler.packet-size", "100", NOT_A_SET_NAME)
					.with("rdma.counter-sets.zhler.flow.protocol=udp")
					.reportedAs("rdma.simulated.traffic.sets.zähler", "zähler"),
				new Case("rdma.simulated.traffic.sets.we ird/na{me}.packet-size", "100", NOT_A_SET_NAME)
					.with("rdma.counter-sets.weirdname.flow.protocol=udp")
					.reportedAs("rdma.simulated.traffic.sets.we ird/na{me}", "we ird/na{me}"),
				new Case("rdma.devices.zähler.fail-on-unavailable", "false", "an RDMA device name such as mlx5_0",
						"would drop other characters")
					.reportedAs("rdma.devices.zähler", "zähler"),
				new Case("rdma.devices.mlx5 0.fail-on-unavailable", "false", "an RDMA device name such as mlx5_0")
					.reportedAs("rdma.devices.mlx5 0", "mlx5 0"),
				new Case("rdma.devices.mlx5/0.fail-on-unavailable", "false", "an RDMA device name such as mlx5_0")
					.reportedAs("rdma.devices.mlx5/0", "mlx5/0"),
				new Case("rdma.devices." + DEVICE_NAME_64 + ".fail-on-unavailable", "false", "at most 63 characters",
						"IB_DEVICE_NAME_MAX")
					.reportedAs("rdma.devices." + DEVICE_NAME_64, DEVICE_NAME_64),
				new Case("rdma.devices[" + DEVICE_NAME_64 + "].fail-on-unavailable", "false", "at most 63 characters")
					.reportedAs("rdma.devices." + DEVICE_NAME_64, DEVICE_NAME_64),
				new Case("rdma.simulated.devices.zähler.ports", "1", "an RDMA device name such as mlx5_0")
					.reportedAs("rdma.simulated.devices.zähler", "zähler"),
				new Case(SET + "device", DEVICE_NAME_64, "at most 63 characters", "IB_DEVICE_NAME_MAX"),
				new Case(SET + "netdev", "ens1f0np0-longer", "at most 15 characters", "IFNAMSIZ"),
				new Case(SET + "device", "mlx5_ä", "was not found. Devices found").with(FLOW + "protocol=udp")
					.reportedAs("rdma.counter-sets.roce", "mlx5_ä"));
	}

	/** Lists where a map of names is meant, single values where a group is. */
	private static List<Case> shapes() {
		return List.of(new Case("rdma.counter-sets", "udp", "is a map by name", "device, netdev, port"),
				new Case("rdma.counter-sets[0].device", "mlx5_0", LIST).reportedAs("rdma.counter-sets[0]", "[0]"),
				new Case("rdma.counter-sets[0].flow.protocol", "udp", LIST).reportedAs("rdma.counter-sets[0]", "[0]"),
				new Case("rdma.devices", "mlx5_0", "is a map by name", "fail-on-unavailable", NO_SINGLE_VALUE),
				new Case("rdma.devices[0]", "mlx5_0", LIST, "fail-on-unavailable"),
				new Case("rdma.devices[0].fail-on-unavailable", "false", LIST).reportedAs("rdma.devices[0]", "[0]"),
				new Case("rdma.devices.mlx5_0", "x", "is a group of keys (fail-on-unavailable)", NO_SINGLE_VALUE),
				new Case("rdma.simulated.devices", "sim_a", "is a map by name", "ports, link-layer"),
				new Case("rdma.simulated.devices[0]", "sim_a", LIST, "ports, link-layer"),
				new Case("rdma.simulated.devices[0].ports", "2", LIST).reportedAs("rdma.simulated.devices[0]", "[0]"),
				new Case("rdma.simulated.devices.sim_a", "x", "is a group of keys (ports, link-layer"),
				new Case("rdma.simulated.traffic.sets", "roce", "is a map by name", "packets-per-second"),
				new Case("rdma.simulated.traffic.sets[0]", "roce", LIST, "packets-per-second"),
				new Case("rdma.simulated.traffic.sets[0].packet-size", "100", LIST)
					.reportedAs("rdma.simulated.traffic.sets[0]", "[0]"),
				new Case("rdma.simulated.traffic", "on", "is a group of keys (enabled, interval"),
				new Case("rdma.simulated", "on", "is a group of keys (devices, traffic)"),
				new Case("rdma.port-counters.devices", "mlx5_0", "is a group of keys (include, exclude)"),
				new Case("rdma.port-counters", "on", "is a group of keys (enabled, sysfs-root"),
				new Case("rdma.ui", "on", "is a group of keys (enabled, path, poll-interval)"),
				new Case("rdma.events", "on", "is a group of keys (enabled, port-down-readiness"),
				new Case("rdma.events.reopen-backoff", "1s", "is a group of keys (initial, max)"),
				new Case("rdma.port-counters.include.a", "b", "has no key 'a'"),
				new Case(SET + "counters", "packets", "'counters' of a counter set is a group of keys (packets, bytes"),
				new Case("rdma.optional-counters[0].enable", "cc_rx_ce_pkts", NOT_A_LIST,
						"rdma.optional-counters.enabled", "enabled, enable, devices"),
				new Case("rdma.queue-pairs[0].enabled", "true", NOT_A_LIST, "rdma.queue-pairs.enabled"),
				new Case("rdma.queue-pairs.counters[0].binding", "auto", NOT_A_LIST, "binding, per-queue-pair"),
				new Case("rdma.events.monitor[0].enabled", "true", NOT_A_LIST, "rdma.events.monitor.enabled"),
				new Case("rdma.ethtool.pause-storm[0].window", "1s", NOT_A_LIST, "pause-share, window"),
				new Case("rdma.counter-sets.[].flow.protocol", "udp", NOT_A_SET_NAME).reportedAs("rdma.counter-sets.[]",
						"[]"),
				new Case(SET + "flow.source-ip[0]", "10.0.0.1", NOT_A_LIST));
	}

	/**
	 * Flow values that are host names, or literals only a resolver would accept: each is
	 * refused without a lookup (the tests' JVM resolves every one of them from a hosts
	 * file, see the Surefire configuration).
	 */
	private static List<Case> hostNames() {
		List<Case> cases = new ArrayList<>();
		for (String value : List.of("300.1.1.1/32", "256.0.0.1", "1.2.3.4.5", "010.1.1.1", "example.org",
				"rdma.example", "mlx5_0", "host-a", "localhost")) {
			cases.add(new Case(FLOW + "destination-ip", value, "no host names"));
		}
		cases.add(new Case(FLOW + "source-ip", "1234.1.1.1", "no host names"));
		cases.add(new Case(FLOW + "source-ip", "1..2.3", "no host names"));
		return cases;
	}

	private static List<Case> moreEnvironmentVariables() {
		return List.of(
				Case.environment("RDMA_COUNTERSETS_NVME_TCP_FLOW_PROTOCOL", "udp", "sets no rdma property",
						"rdma.countersets.nvme.tcp.flow.protocol", "SPRING_APPLICATION_JSON"),
				Case.environment("RDMA_COUNTERSETS_STORAGE_FLOW_DESTINATION_PORT", "4420", "sets no rdma property",
						"RDMA_COUNTERSETS_STORAGE_FLOW_DESTINATIONPORT"),
				Case.environment("RDMA_SIMULATED_DEVICES_SIM_A_PORTS", "2", "sets no rdma property",
						"SPRING_APPLICATION_JSON"),
				Case.environment("RDMA_COUNTER_SETS_STORAGE_FLOW_PROTOCOL", "udp", "sets no rdma property",
						"rdma.counter.sets.storage.flow.protocol")
					.warns(),
				Case.environment("RDMA_PORTCOUNTER_ENABLED", "false", "sets no rdma property").warns(),
				Case.environment("RDMA_UI_ENABLED", "yes please", NOT_BOOLEAN).reportedAs("rdma.ui.enabled"),
				Case.environment("RDMA_COUNTERSETS_STORAGE_DEVICE", "mlx5/0", "an RDMA device name such as mlx5_0",
						"set by the environment variable RDMA_COUNTERSETS_STORAGE_DEVICE")
					.reportedAs("rdma.counter-sets.storage.device"),
				Case.environment("RDMA_COUNTERSETS_STORAGE", "x", "cannot be a single value"),
				Case.environment("RDMA_READCACHETTL", "10ms", "100ms to 10m").reportedAs("rdma.read-cache-ttl"),
				Case.environment("RDMA_EVENTS_REOPENBACKOFF_MAX", "2h", "at most 1h")
					.reportedAs("rdma.events.reopen-backoff.max"),
				Case.environment("RDMA_ENABLED", "yes please", NOT_BOOLEAN),
				Case.environment("RDMA_ETHTOOL_PAUSESTORM_WINDOWW", "1s", "sets no rdma property"),
				Case.environment("RDMA_QUEUEPAIRS_ENABLE", "true", "sets no rdma property"),
				Case.environment("RDMA_OPTIONALCOUNTERS_ENABLD", "true", "sets no rdma property"));
	}

	private static List<Case> general() {
		return List.of(new Case("rdma.enabled", "maybe", "true or false"),
				new Case("rdma.backend", "", NO_VALUE, "native or simulated", "leave rdma.backend out"),
				new Case("rdma.backend", "rdma", "native or simulated"),
				new Case("rdma.read-cache-ttl", "10ms", "100ms to 10m"),
				new Case("rdma.read-cache-ttl", "-1s", "100ms to 10m"),
				new Case("rdma.read-cache-ttl", "100000d", "100ms to 10m", "stale"),
				new Case("rdma.read-cache-ttl", "soon", "must be a duration"),
				new Case("rdma.events.reopen-backoff.initial", "0ms", "at least 1ms"),
				new Case("rdma.events.reopen-backoff.initial", "-1s", "at least 1ms"),
				new Case("rdma.events.reopen-backoff.initial", "soon", "must be a duration"),
				new Case("rdma.events.reopen-backoff.max", "2h", "at most 1h"),
				new Case("rdma.events.reopen-backoff.initial", "1000d", "at most 1h"),
				new Case("rdma.ui.poll-interval", "1ms", "must be 250ms to 1h").with("rdma.ui.enabled=true"),
				new Case("rdma.ui.poll-interval", "-5s", "must be 250ms to 1h").with("rdma.ui.enabled=true"),
				new Case("rdma.ui.poll-interval", "1000d", "must be 250ms to 1h").with("rdma.ui.enabled=true"),
				new Case("rdma.ui.path", "/actuator/rdma", "below the Actuator base path").with("rdma.ui.enabled=true"),
				new Case("rdma.ui.path", "/health", "the Actuator endpoint 'health'", "base-path is '/'",
						"such as /rdma-ui")
					.with("rdma.ui.enabled=true")
					.with("management.endpoints.web.base-path=/"),
				new Case("rdma.ui.path", "/a/../rdma-ui", "no '.' or '..' segment").with("rdma.ui.enabled=true"),
				new Case("rdma.ethtool.exclude", "rx_prio[0-9]_pause*", "character classes and regular expressions"),
				new Case("rdma.ethtool.include", "rx_prio.*_bytes", "character classes and regular expressions"),
				new Case(FLOW + "destination-ip", "::ffff:10.0.0.1/128", "write the IPv4 prefix 10.0.0.1/32"),
				new Case("rdma.devices.nope_0.fail-on-unavailable", "true", "this host does not have it",
						"Devices found", "rdma.devices.nope_0.fail-on-unavailable=false"),
				new Case("rdma.devices.nope_0.fail-on-unavailable", "false", "this host does not have", "devices found",
						"correct the device name, or remove rdma.devices.nope_0")
					.warns(),
				new Case("rdma.ethtool.pause-storm.window", "1000d", "must be positive and at most 1h"),
				new Case("rdma.ethtool.pause-storm.window", "0s", "must be positive and at most 1h"),
				new Case(FLOW + "protocol", "udp", "rdma.enabled=false switches RDMA counters off",
						"set rdma.enabled=true")
					.with("rdma.enabled=false")
					.warns(),
				new Case(FLOW + "ether-type", "0x8100", "VLAN tag type", FLOW + "vlan-id"),
				new Case(FLOW + "ether-type", "0x88a8", "VLAN tag type", FLOW + "vlan-id"),
				new Case(FLOW + "ether-type", "0x9100", "VLAN tag type", FLOW + "vlan-id").with(FLOW + "vlan-id=10"),
				new Case(FLOW + "ether-type", "0x8915", "is not IP (0x0800 or 0x86dd)", "remove the protocol and ports")
					.with(FLOW + "protocol=udp"),
				new Case(FLOW + "ether-type", "0x88b5", "is not IP (0x0800 or 0x86dd)").with(FLOW + "protocol=tcp")
					.with(FLOW + "destination-port=4420"),
				new Case(FLOW + "destination-port", "4791", "is RoCEv2", "port counters", "count another port")
					.with(FLOW + "protocol=udp")
					.warns(),
				new Case("rdma.ui.path", "/counters", "rdma.ui.enabled=false", "set rdma.ui.enabled=true").warns(),
				new Case("rdma.ui.enabled", "true", "which Actuator does not serve over HTTP",
						"management.endpoints.web.exposure.include=rdma", "or set rdma.ui.enabled=false")
					.overHttp(),
				// NONE: a context runner's environment has no lenient enum conversion
				new Case("rdma.ui.enabled", "true", "which Actuator does not serve over HTTP",
						"management.endpoint.rdma.access")
					.with("management.endpoints.web.exposure.include=rdma")
					.with("management.endpoint.rdma.access=NONE")
					.overHttp(),
				new Case("rdma.ui.poll-interval", "5s", "rdma.ui.enabled=false", "remove it").warns(),
				new Case("rdma.port-counters.include", "port_*", "rdma.port-counters.enabled=false",
						"set rdma.port-counters.enabled=true")
					.with("rdma.port-counters.enabled=false")
					.warns(),
				new Case("rdma.port-counters.devices.exclude", "mlx5_1", "rdma.port-counters.enabled=false")
					.with("rdma.port-counters.enabled=false")
					.warns(),
				new Case("rdma.events.reopen-backoff.max", "50ms",
						"at least rdma.events.reopen-backoff.initial (100ms)"),
				new Case("rdma.events.reopen-backoff.max", "1s", "at least rdma.events.reopen-backoff.initial (5s)")
					.with("rdma.events.reopen-backoff.initial=5s"),
				new Case("rdma.events.port-down-readiness", "sometimes", "none or refuse-traffic"),
				new Case("rdma.fail-on-unavailable", "perhaps", NOT_BOOLEAN),
				new Case("rdma.devices.mlx5_0.fail-on-unavailable", "perhaps", NOT_BOOLEAN),
				new Case("rdma.devices[mlx5/0].fail-on-unavailable", "false", "an RDMA device name such as mlx5_0")
					.reportedAs("rdma.devices.mlx5/0", "mlx5/0"),
				new Case("rdma.port-counters.enabled", "sometimes", NOT_BOOLEAN),
				new Case("rdma.port-counters.include", "[", "'*' (any run) and '?'")
					.reportedAs("rdma.port-counters.include[0]"),
				new Case("rdma.port-counters.exclude", "port_{a}", "'*' (any run) and '?'")
					.reportedAs("rdma.port-counters.exclude[0]"),
				new Case("rdma.port-counters.devices.include", "mlx5/0", "an RDMA device name or a glob")
					.reportedAs("rdma.port-counters.devices.include[0]"),
				new Case("rdma.port-counters.devices.exclude", "mlx5_{1}", "an RDMA device name or a glob")
					.reportedAs("rdma.port-counters.devices.exclude[0]"));
	}

	private static List<Case> whereSetsCount() {
		return List.of(
				new Case(SET + "netdev", "ens1f0np0", "names the device a second time", "either device or netdev")
					.with(SET + "device=mlx5_0"),
				new Case(SET + "device", "", "an RDMA device name such as mlx5_0", "or left out"),
				new Case(SET + "device", "mlx5/0", "an RDMA device name such as mlx5_0"),
				new Case(SET + "netdev", "", "a network interface name such as ens1f0np0"),
				new Case(SET + "netdev", "ens1/0", "a network interface name such as ens1f0np0"),
				new Case(SET + "netdev", "ens9f9", "No RDMA device of this host has the network interface ens9f9")
					.with(FLOW + "protocol=udp"),
				new Case(SET + "port", "0", "1 to 255", "first ACTIVE port"),
				new Case(SET + "port", "256", "1 to 255", "first ACTIVE port"),
				new Case(SET + "port", "-1", "1 to 255", "first ACTIVE port"),
				new Case(SET + "port", "abc", "must be a whole number", "must be 1 to 255"),
				new Case(SET + "port", "99999999999", "must be a whole number", "must be 1 to 255"),
				new Case("rdma.counter-sets.storage.port", "0", "1 to 255").with("rdma.counter-sets.roce.port=1"));
	}

	private static List<Case> setContents() {
		return List.of(new Case(SET + "counters.pakets", "0", "'pakets' is not a counter type", "packets or bytes"),
				new Case(SET + "counters.packets", "-1", "0 to 255"),
				new Case(SET + "counters.bytes", "256", "0 to 255"),
				new Case(SET + "counters.bytes", "0", "already used by packets").with(SET + "counters.packets=0"),
				new Case(SET + "read-mode", "sometimes", "fresh or prefer-cached"),
				new Case(SET + "read-mode", "", "must have a value: fresh or prefer-cached", "leave read-mode out"),
				new Case(SET + "read-mod", "fresh", "did you mean read-mode?"),
				new Case(SET + "devce", "mlx5_0", "did you mean device?"),
				new Case(SET + "netdv", "ens1f0np0", "did you mean netdev?"),
				new Case(SET + "prot", "1", "did you mean port?"),
				new Case(SET + "flw.protocol", "udp", "did you mean flow.protocol?"),
				new Case(FLOW + "destinaton-port", "4791", "did you mean flow.destination-port?"),
				new Case("rdma.counter-sets.nvme_tcp.flow.destinaton-port", "4791",
						"did you mean flow.destination-port?"),
				new Case("rdma.counterSets.roce.flow.destinatonPort", "4791", "'flow.destinatonPort'",
						"did you mean flow.destination-port?"),
				new Case("rdma.counterSets.roce.counters.pakets", "0", "packets or bytes"),
				new Case("rdma.counter-sets.nvme_tcp.flow.ether-type", "0x10000", "0 to 65535"));
	}

	private static List<Case> flows() {
		return List.of(new Case(FLOW + "protocol", "sctp", "tcp or udp"),
				new Case(FLOW + "protocol", "", "must have a value: tcp or udp", "leave flow.protocol out"),
				new Case(FLOW + "destination-port", "4791", "needs " + FLOW + "protocol (tcp or udp)"),
				new Case(FLOW + "source-port", "5000", "needs " + FLOW + "protocol (tcp or udp)"),
				new Case(FLOW + "source-port", "70000", "1 to 65535").with(FLOW + "protocol=udp"),
				new Case(FLOW + "destination-port", "-1", "1 to 65535").with(FLOW + "protocol=tcp"),
				new Case(FLOW + "destination-port", "70000", "1 to 65535").with(FLOW + "protocol=tcp"),
				new Case(FLOW + "destination-port", "http", "must be a whole number", "1 to 65535")
					.with(FLOW + "protocol=tcp"),
				new Case(FLOW + "vlan-id", "4096", "0 to 4094"), new Case(FLOW + "ether-type", "0x10000", "0 to 65535"),
				new Case(FLOW + "ether-type", "0x86dd", "leave it unset or use 0x0800")
					.with(FLOW + "source-ip=10.0.0.0/8"),
				new Case(FLOW + "source-ip", "10.0.0.0/33", "0 to 32"),
				new Case(FLOW + "source-ip", "rdma.example", "no host names"),
				new Case(FLOW + "destination-ip", "fd00::/129", "0 to 128"),
				new Case(FLOW + "destination-ip", "10.0.0.1/24", "host bits", "10.0.0.0/24", "10.0.0.1/32"),
				new Case(FLOW + "source-ip", "fd00:0:0::1/64", "host bits", "fd00::/64", "fd00::1/128"),
				Case.environment("RDMA_COUNTERSETS_ROCE_FLOW_SOURCEIP", "10.1.2.3/8", "host bits", "10.0.0.0/8"),
				new Case(FLOW + "destination-ip", "10.0.0.1", "same IP family").with(FLOW + "source-ip=fd00::/64"),
				new Case(FLOW + "source-mac", "02:00:5e:10:00", "six hex octets"),
				new Case(FLOW + "destination-mac", "zz:00:5e:10:00:01", "six hex octets"),
				new Case(FLOW + "priority", "65536", "0 to 15"), new Case(FLOW + "priority", "-1", "0 to 15"),
				new Case(FLOW + "dont-trap", "sure", NOT_BOOLEAN),
				new Case("rdma.counterSets.roce.flow.destinationPort", "", "must have a value",
						"leave flow.destination-port out to match any")
					.with("rdma.counterSets.roce.flow.protocol=udp"));
	}

	private static List<Case> setNames() {
		return List.of(
				new Case("rdma.counter-sets.rdmaRegistry.flow.protocol", "udp", "A bean named 'rdmaRegistry'",
						"rename the set")
					.reportedAs("rdma.counter-sets.rdmaRegistry", "rdmaRegistry"),
				new Case("rdma.counter-sets.rdmaBackend.flow.protocol", "udp", "A bean named 'rdmaBackend'",
						"rename the set")
					.reportedAs("rdma.counter-sets.rdmaBackend", "rdmaBackend"),
				new Case("rdma.counter-sets.rdmaDevices.flow.protocol", "udp", "A bean named 'rdmaDevices'",
						"rename the set")
					.reportedAs("rdma.counter-sets.rdmaDevices", "rdmaDevices"),
				new Case("rdma.counter-sets.prometheusMeterRegistry.flow.protocol", "udp",
						"A bean named 'prometheusMeterRegistry'", "rename the set")
					.reportedAs("rdma.counter-sets.prometheusMeterRegistry", "prometheusMeterRegistry"),
				new Case("rdma.counter-sets[we\"ird].flow.protocol", "udp", "start with a letter")
					.reportedAs("rdma.counter-sets.we\"ird", "we\"ird"),
				new Case("rdma.counter-sets.we ird/na{me}.flow.protocol", "udp", "start with a letter")
					.reportedAs("rdma.counter-sets.we ird/na{me}", "we ird/na{me}"),
				new Case("rdma.counter-sets.9lives.flow.protocol", "udp", "start with a letter")
					.reportedAs("rdma.counter-sets.9lives", "9lives"),
				new Case("rdma.counterSets.we ird/na{me}.flow.protocol", "udp", "start with a letter")
					.reportedAs("rdma.counterSets.we ird/na{me}", "we ird/na{me}"),
				new Case("rdma.counter-sets.roce", "", "cannot be a single value"),
				new Case("rdma.counter-sets.roce", "udp", "cannot be a single value"),
				new Case("rdma.counter-sets.roce.flow", "udp", "'flow' of a counter set is a group of keys",
						"destination-port", "cannot be a single value"));
	}

	private static List<Case> unknownAndRemoved() {
		return List.of(new Case("rdma.devcie", "mlx5_0", REFUSED),
				new Case("rdma.port-counters.sysfs-rot", "/sys", REFUSED),
				new Case("rdma.events.reopen-backof.max", "1s", REFUSED), new Case("rdma.ui.pth", "/rdma", REFUSED),
				new Case("rdma.simulated.traffic.enbled", "true", REFUSED),
				new Case("rdma.devices.mlx5_0.fail-on-unavaliable", "false", REFUSED,
						"did you mean rdma.devices.mlx5_0.fail-on-unavailable?"),
				new Case("rdma.devices.mlx5_0.fail-on-unavailabel", "false", REFUSED,
						"did you mean rdma.devices.mlx5_0.fail-on-unavailable?"),
				new Case("rdma.counter-set.vxlan.flow.protocol", "udp", REFUSED,
						"did you mean rdma.counter-sets.vxlan.flow.protocol?"),
				new Case("rdma.simulated.devices.simMlx5_1.enabel", "true",
						"is not a key of rdma.simulated.devices.simMlx5_1", "ports, link-layer"),
				new Case("rdma.device", "mlx5_0", REFUSED), new Case("rdma.port", "1", REFUSED),
				new Case("rdma.device-defaults.port", "1", REFUSED),
				new Case("rdma.device-defaults.fail-on-unavailable", "false", REFUSED),
				new Case("rdma.devices.mlx5_0.port", "1", REFUSED),
				new Case("rdma.devices.mlx5_0.counter-sets.x.flow.protocol", "udp", REFUSED),
				new Case("rdma.devices.mlx5_0.counterSets.roce.flow.destinatonPort", "4791", REFUSED),
				new Case("rdma.simulated.device-name", "sim_mlx5_0", REFUSED),
				new Case("rdma.simulated.ports", "2", REFUSED),
				new Case("rdma.simulated.link-layer", "ethernet", REFUSED));
	}

	private static List<Case> environmentVariables() {
		return List.of(
				Case.environment("RDMA_DEVICES_MLX5_0_FAILONUNAVAILABLE", "false", "SPRING_APPLICATION_JSON",
						"{\"rdma\":{\"devices\":{\"mlx5_0\":{\"fail-on-unavailable\":false}}}}"),
				Case.environment("RDMA_DEVICES_MLX5_0", "x", "SPRING_APPLICATION_JSON"),
				Case.environment("RDMA_COUNTERSETS_STORAGE_PORT", "0", "1 to 255", "RDMA_COUNTERSETS_STORAGE_PORT")
					.reportedAs("rdma.counter-sets.storage.port"),
				Case.environment("RDMA_COUNTERSETS_STORAGE_FLOW_PROTOCOL", "sctp", "tcp or udp",
						"from property source \"systemEnvironment\""));
	}

	private static List<Case> simulatedOnly() {
		return List.of(new Case("rdma.simulated.devices.sim_a.ports", "0", "1 to 255"),
				new Case("rdma.simulated.devices.sim_a.ports", "100000", "1 to 255"),
				new Case("rdma.simulated.devices.sim_a.link-layer", "fddi", "must be ethernet or infiniband"),
				new Case("rdma.simulated.devices.sim_a.link-layer", "", NO_VALUE, "ethernet"),
				new Case("rdma.simulated.devices[sim/0].ports", "1", "without '/'")
					.reportedAs("rdma.simulated.devices.sim/0", "sim/0"),
				new Case("rdma.simulated.devices.sim_a.counters-supported", "kinda", NOT_BOOLEAN),

				new Case("rdma.simulated.devices.sim_a.prts", "2", REFUSED),
				new Case(SET + "port", "2", "must be 1 to 1: sim_mlx5_0 has 1 port").with(FLOW + "protocol=udp"),
				new Case(SET + "device", "sim_mlx5_9", "Devices found: sim_mlx5_0").with(FLOW + "protocol=udp")
					.reportedAs("rdma.counter-sets.roce", "sim_mlx5_9"),
				new Case("rdma.simulated.traffic.packets-per-second", "-5", "0 to 1000000"),
				new Case("rdma.simulated.traffic.packet-size", "10", "60 to 9000"),
				new Case("rdma.simulated.traffic.interval", "0ms", "1ms to 1m"),
				new Case("rdma.simulated.traffic.sets.nosuch.packets-per-second", "5", "must name a counter set")
					.reportedAs("rdma.simulated.traffic.sets.nosuch", "nosuch"),
				new Case("rdma.simulated.traffic.sets.roce.packets-per-second", "-1", "0 to 1000000")
					.with(FLOW + "protocol=udp"),
				new Case("rdma.simulated.traffic.sets.roce.packet-size", "10", "60 to 9000")
					.with(FLOW + "protocol=udp"),
				new Case("rdma.native", "libibverbs.so.1", "is a group of keys (library)"),
				new Case("rdma.simulated.devices.sim_a.link-layer", "unspecified", "must be ethernet or infiniband"),
				new Case("rdma.simulated.devices.sim_a.link-layer", "UNSPECIFIED", "must be ethernet or infiniband"),
				new Case("rdma.simulated.devices.sim_a.link-layer", "Ethernett", "must be ethernet or infiniband"),
				new Case("rdma.simulated.devices.sim_a.roce-enabled", "kinda", NOT_BOOLEAN),
				new Case("rdma.simulated.devices.sim_a.managed-flow-steering", "sometimes", NOT_BOOLEAN),
				new Case("rdma.simulated.devices." + DEVICE_NAME_64 + ".ports", "1", "at most 63 characters")
					.reportedAs("rdma.simulated.devices." + DEVICE_NAME_64, DEVICE_NAME_64),
				new Case("rdma.native.library", "/usr/lib/libibverbs.so.1", NATIVE_IGNORED, "rdma.backend=native")
					.warns(),
				new Case("rdma.native.library", "libibverbs.so.1", NATIVE_IGNORED, "remove it").warns(),
				Case.environment("RDMA_NATIVE_LIBRARY", "libibverbs.so.1", NATIVE_IGNORED).warns(),
				new Case("rdma.port-counters.sysfs-root", "/sys/class/infiniband",
						"has no effect on the simulated " + "backend", "rdma.backend=native")
					.warns(),
				Case.environment("RDMA_SIMULATED_TRAFFIC_SETS_STORAGE_PACKETSIZE", "100", "must name a counter set")
					.reportedAs("rdma.simulated.traffic.sets.storage", "storage"),
				Case.environment("RDMA_SIMULATED_DEVICES_SIMA_PORTS", "0", "1 to 255")
					.reportedAs("rdma.simulated.devices.sima.ports"),
				new Case("rdma.port-counters.devices.include", "nomatch*",
						"rdma.port-counters.devices.include=nomatch* leaves none of this host's RDMA devices")
					.with("rdma.simulated.devices.sim_mlx5_0.netdevs=ens1f0np0")
					.with(SET + "netdev=ens1f0np0")
					.with(FLOW + "protocol=udp")
					.warns(),
				new Case("rdma.port-counters.devices.exclude", "*",
						"rdma.port-counters.devices.exclude=* leaves none of this host's RDMA devices")
					.with("rdma.simulated.devices.sim_mlx5_0.netdevs=ens1f0np0")
					.with(SET + "netdev=ens1f0np0")
					.with(FLOW + "protocol=udp")
					.warns(),
				new Case("rdma.port-counters.devices.include", "sim_*,nomatch*",
						"matches none of this host's RDMA " + "devices", "correct the name or glob, or remove it")
					.reportedAs("rdma.port-counters.devices.include[1]", "nomatch*")
					.warns(),
				new Case("rdma.queue-pairs.counters.per-queue-pair", "true", "rdma.queue-pairs.enabled=false",
						"set rdma.queue-pairs.enabled=true")
					.warns(),
				new Case("rdma.events.monitor.enabled", "true", "rdma.events.enabled=false", "has no effect")
					.with("rdma.events.enabled=false")
					.warns(),
				new Case("rdma.port-counters.include", "port_rcv_dta", "matches none of the",
						"port counters of this host's devices (closest: port_rcv_data", "correct the name or glob")
					.reportedAs("rdma.port-counters.include[0]")
					.warns(),
				new Case("rdma.port-counters.exclude", "*", "removes every port counter",
						"rdma.port-counters.enabled=false")
					.warns(),
				new Case("rdma.port-counters.exclude", "port_*", "rdma.port-counters.include=port_rcv_*",
						"leave none of the port counters", "remove from exclude what include names")
					.with("rdma.port-counters.include=port_rcv_*")
					.warns(),
				new Case("rdma.ethtool.include", "rx_no_such_statistic", "matches none of the",
						"driver statistics of this host's netdevs (closest: ", "correct the name or glob")
					.with("rdma.simulated.devices.sim_mlx5_0.netdevs=ens1f0np0")
					.reportedAs("rdma.ethtool.include[0]")
					.warns(),
				new Case("rdma.ethtool.exclude", "*", "removes every driver statistic", "rdma.ethtool.enabled=false")
					.with("rdma.simulated.devices.sim_mlx5_0.netdevs=ens1f0np0")
					.warns(),
				new Case("rdma.simulated.traffic.packet-size", "100", "rdma.simulated.traffic.enabled=false",
						"set rdma.simulated.traffic.enabled=true")
					.warns(),
				new Case("rdma.simulated.traffic.sets.roce.packets-per-second", "5",
						"rdma.simulated.traffic.enabled=false")
					.with(FLOW + "protocol=udp")
					.warns());
	}

	/** Counter deltas on observations ({@code rdma.observations}). */
	private static List<Case> observations() {
		String observations = "rdma.observations.";
		return List.of(new Case(observations + "enabled", "maybe", NOT_BOOLEAN, "counter deltas"),
				new Case(observations + "names", "", "must name the observations", observations + "enabled=false")
					.with(observations + "enabled=true")
					.with(observations + "sets=roce")
					.with(FLOW + "protocol=tcp")
					.with(FLOW + "destination-port=4420"),
				new Case(observations + "names", "checkpoint,,batch", "not blank")
					.reportedAs(observations + "names[1]", "")
					.with(observations + "enabled=true")
					.with(observations + "sets=roce")
					.with(FLOW + "protocol=tcp")
					.with(FLOW + "destination-port=4420"),
				new Case(observations + "sets", "", "must name the counter sets", "roce")
					.with(observations + "enabled=true")
					.with(observations + "names=checkpoint")
					.with(FLOW + "protocol=tcp")
					.with(FLOW + "destination-port=4420"),
				new Case(observations + "sets", "roce,rcoe", "must be the name of a counter set", "roce")
					.reportedAs(observations + "sets[1]", "rcoe")
					.with(observations + "enabled=true")
					.with(observations + "names=checkpoint")
					.with(FLOW + "protocol=tcp")
					.with(FLOW + "destination-port=4420"),
				new Case(observations + "names", "checkpoint", "has no effect", observations + "enabled=true").warns(),
				new Case(observations + "sets", "roce", "has no effect", observations + "enabled=true").warns(),
				new Case(observations + "port-counters", "out_of_sequence", "has no effect",
						observations + "enabled=true")
					.warns(),
				new Case(observations + "queue-pair-counters", "out_of_sequence", "has no effect",
						observations + "enabled=true")
					.with("rdma.queue-pairs.enabled=true")
					.warns(),
				new Case(observations + "queue-pair-counters", "out_of_sequence", "has no effect",
						"rdma.queue-pairs.enabled=false", "set rdma.queue-pairs.enabled=true")
					.with(observations + "enabled=true")
					.with(observations + "names=checkpoint")
					.with(observations + "sets=roce")
					.with(FLOW + "protocol=tcp")
					.with(FLOW + "destination-port=4420")
					.withMeters()
					.warns());
	}

	/**
	 * Counter names of this process's queue pairs, checked against the host's counters.
	 */
	private static List<Case> queuePairCounterNames() {
		String observations = "rdma.observations.";
		return List.of(
				queuePairObservations(new Case(observations + "queue-pair-counters", "out_of_sequence,out_of_sequnce",
						"must be the name of a hardware counter", "closest: out_of_sequence")
					.reportedAs(observations + "queue-pair-counters[1]", "out_of_sequnce")),
				queuePairObservations(
						new Case(observations + "queue-pair-counters", "out_of_sequence,,packet_seq_err", "not blank")
							.reportedAs(observations + "queue-pair-counters[1]", "")));
	}

	/** A case with queue pair counter deltas on the observation checkpoint of a set. */
	private static Case queuePairObservations(Case input) {
		String observations = "rdma.observations.";
		return input.with("rdma.queue-pairs.enabled=true")
			.with(observations + "enabled=true")
			.with(observations + "names=checkpoint")
			.with(observations + "sets=roce")
			.with(FLOW + "protocol=tcp")
			.with(FLOW + "destination-port=4420")
			.withMeters();
	}

	private static List<Case> nativeOnly() {
		return List.of(new Case("rdma.native.library", "", "must name the library to load"),
				new Case("rdma.native.library", REGULAR_FILE.toString(), "libibverbs").with(FLOW + "protocol=udp"),
				new Case("rdma.native.library", "/nonexistent/libibverbs.so.1", "libibverbs")
					.with(FLOW + "protocol=udp"),
				new Case("rdma.native.library", "libc.so.6", "libibverbs").with(FLOW + "protocol=udp"),
				new Case("rdma.native.library", "libibverbs.so.1,libc.so.6", "libibverbs").with(FLOW + "protocol=udp"),
				new Case("rdma.port-counters.include", "port_rcv_dta", "matches none of the",
						"port counters of this host's devices (closest: port_rcv_data", "correct the name or glob")
					.with("rdma.port-counters.sysfs-root=" + SYSFS.root())
					.reportedAs("rdma.port-counters.include[0]")
					.warns(),
				new Case("rdma.port-counters.exclude", "*", "removes every port counter")
					.with("rdma.port-counters.sysfs-root=" + SYSFS.root())
					.warns(),
				new Case("rdma.port-counters.exclude", "port_rcv_data", "rdma.port-counters.include=port_rcv_data",
						"leave none of the port counters", "remove from exclude what include names")
					.with("rdma.port-counters.include=port_rcv_data")
					.with("rdma.port-counters.sysfs-root=" + SYSFS.root())
					.warns(),
				new Case("rdma.port-counters.sysfs-root", "/nonexistent/infiniband", "does not exist"),
				new Case("rdma.port-counters.sysfs-root", "~/infiniband", "'~' is not expanded", "write the full path"),
				new Case("rdma.port-counters.sysfs-root", "sys/class/infiniband", "below the working directory",
						"write the full path, such as /sys/class/infiniband"),
				new Case("rdma.port-counters.include", "PORT_RCV_DATA", "matches none of the",
						"port counters of this host's devices (closest: port_rcv_data")
					.with("rdma.port-counters.sysfs-root=" + SYSFS.root())
					.reportedAs("rdma.port-counters.include[0]")
					.warns(),
				new Case("rdma.port-counters.sysfs-root", REGULAR_FILE.toString(), "is not a directory"),
				new Case("rdma.port-counters.sysfs-root", "", "must be a directory"),
				new Case(SET + "device", "mlx5_9", "Devices found: mlx5_0").with(FLOW + "protocol=udp")
					.reportedAs("rdma.counter-sets.roce", "mlx5_9"),
				new Case(SET + "port", "2", "must be 1 to 1: mlx5_0 has 1 port").with(FLOW + "protocol=udp"),
				new Case("rdma.simulated.devices.sim_a.ports", "2", SIMULATED_IGNORED, "rdma.backend=simulated")
					.warns(),
				new Case("rdma.simulated.devices.sim_a.link-layer", "unspecified", SIMULATED_IGNORED).warns(),
				new Case("rdma.simulated.traffic.enabled", "true", SIMULATED_IGNORED, "remove it").warns(),
				new Case("rdma.simulated.traffic.packet-size", "100", SIMULATED_IGNORED).warns(),
				new Case("rdma.simulated.traffic.sets.roce.packet-size", "100", SIMULATED_IGNORED)
					.with(FLOW + "protocol=udp")
					.warns(),
				Case.environment("RDMA_SIMULATED_TRAFFIC_ENABLED", "true", SIMULATED_IGNORED).warns(),
				Case.environment("RDMA_BACKEND", "simulatd", "native or simulated"),
				Case.environment("RDMA_BACKEND", "", NO_VALUE, "native or simulated"),
				Case.environment("RDMA_PORTCOUNTERS_SYSFSROOT", "/nonexistent/infiniband", "does not exist")
					.reportedAs("rdma.port-counters.sysfs-root"),
				new Case("rdma.port-counters.devices.include", "nomatch*",
						"rdma.port-counters.devices.include=nomatch* leaves none of this host's RDMA devices")
					.with("rdma.port-counters.sysfs-root=" + SYSFS.root())
					.with(SET + "netdev=" + FakeDeviceSets.MLX5_0_NETDEV)
					.with(FLOW + "protocol=udp")
					.warns(),
				new Case("rdma.port-counters.devices.exclude", "*",
						"rdma.port-counters.devices.exclude=* leaves none of this host's RDMA devices")
					.with("rdma.port-counters.sysfs-root=" + SYSFS.root())
					.with(SET + "netdev=" + FakeDeviceSets.MLX5_0_NETDEV)
					.with(FLOW + "protocol=udp")
					.warns());
	}

	@ParameterizedTest(name = "{0}: {1}")
	@MethodSource("cases")
	void badInputIsRefusedOrWarnedAboutNamingPropertyValueAndWhatToDo(Backend backend, Case input) {
		// the analyzers see the application's environment, as in Boot
		AtomicReference<Environment> environment = new AtomicReference<>();
		AtomicReference<Outcome> outcome = new AtomicReference<>();
		AtomicReference<String> said = new AtomicReference<>("");
		ListAppender<ILoggingEvent> log = new ListAppender<>();
		log.start();
		Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
		root.addAppender(log);
		try {
			WebApplicationContextRunner runner = backend.runner();
			if (input.servedOverHttp()) {
				runner = runner.withConfiguration(
						AutoConfigurations.of(EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class));
			}
			if (input.hasMeters()) {
				runner = runner.withBean(SimpleMeterRegistry.class);
			}
			runner.withBean("prometheusMeterRegistry", Object.class, Object::new).withInitializer((context) -> {
				environment.set(context.getEnvironment());
				environmentVariables(context.getEnvironment(), input.variables());
				yaml(context.getEnvironment(), input.yaml());
			}).withPropertyValues(input.properties()).run((context) -> {
				Throwable failure = context.getStartupFailure();
				if (failure == null) {
					List<String> warnings = log.list.stream()
						.filter((event) -> event.getLevel().isGreaterOrEqual(Level.WARN))
						.map(ILoggingEvent::getFormattedMessage)
						.filter((message) -> message.contains(input.reportedProperty()))
						.toList();
					said.set(String.join("\n", warnings));
					outcome.set(warnings.isEmpty() ? Outcome.SILENT
							: (input.warning() && warnings.size() == 1
									&& names(input, warnings.get(0), warnings.get(0))) ? Outcome.CLEAR
											: Outcome.UNCLEAR);
				}
				else if (analyze(failure, environment.get()) == null
						&& causes(failure).anyMatch((cause) -> cause instanceof Error)) {
					// an Error that no analyzer explains; one a starter exception wraps,
					// as a library that does not load, is analyzed below
					said.set(failure.toString());
					outcome.set(Outcome.CRASH);
				}
				else {
					FailureAnalysis analysis = analyze(failure, environment.get());
					said.set((analysis != null) ? analysis.getDescription() + "\n" + analysis.getAction()
							: failure.toString());
					outcome.set((analysis != null && !input.warning()
							&& names(input, analysis.getDescription(),
									analysis.getDescription() + "\n" + analysis.getAction())) ? Outcome.CLEAR
											: Outcome.UNCLEAR);
				}
			});
		}
		finally {
			root.detachAppender(log);
		}
		tally.merge(outcome.get(), 1, Integer::sum);
		kinds.merge(input.warning() ? "warned" : "refused", 1, Integer::sum);
		if (outcome.get() != Outcome.CLEAR) {
			notClear.add(outcome.get() + " " + backend + ": " + input);
		}
		assertThat(outcome.get())
			.as("%s on %s %s:%n%s", input, backend,
					input.warning() ? "warns once, naming the property, the value and what to do"
							: "fails, naming the property, the value and what is allowed",
					said.get())
			.isEqualTo(Outcome.CLEAR);
	}

	private static boolean names(Case input, String where, String all) {
		return BOOT_GENERIC.stream().noneMatch(all::contains) && where.contains(input.reportedProperty())
				&& (where.contains("'" + input.reportedValue() + "'")
						|| where.contains("\"" + input.reportedValue() + "\"")
						|| where.contains("=" + input.reportedValue() + " "))
				&& Arrays.stream(input.allowed()).allMatch(all::contains);
	}

	private static @Nullable FailureAnalysis analyze(Throwable failure, Environment environment) {
		try {
			return FailureAnalysisAssert.of(failure, environment).analysis();
		}
		catch (AssertionError ex) {
			return null;
		}
	}

	private static Stream<Throwable> causes(Throwable failure) {
		return Stream.iterate(failure, Objects::nonNull, Throwable::getCause).limit(50);
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource
	void tenThousandSetsFailStartupAtOnceSayingHowManyAreAllowed(Backend backend) {
		// the only shape of this many sets a user would write: generated, one port each
		Map<String, Object> sets = new LinkedHashMap<>();
		for (int i = 0; i < 10_000; i++) {
			sets.put("rdma.counter-sets.s" + i + ".flow.protocol", "udp");
			sets.put("rdma.counter-sets.s" + i + ".flow.destination-port", String.valueOf(i));
		}
		AtomicReference<Environment> environment = new AtomicReference<>();
		long start = System.nanoTime();
		backend.runner().withInitializer((context) -> {
			environment.set(context.getEnvironment());
			context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("sets", sets));
		}).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = analyze(context.getStartupFailure(), environment.get());
			assertThat(analysis).as("analysis of %s", context.getStartupFailure()).isNotNull();
			assertThat(analysis.getDescription()).contains("rdma.counter-sets", "10000 sets",
					"at most " + CountersBeanRegistrar.MAX_SETS + " counter sets");
		});
		// binding and opening them took minutes
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
	}

	@ParameterizedTest
	@EnumSource
	void environmentVariableSetsTheDeviceOfASet(Backend backend) {
		backend.runner()
			.withInitializer((context) -> environmentVariables(context.getEnvironment(),
					Map.of("RDMA_COUNTERSETS_STORAGE_DEVICE", backend.device)))
			.withPropertyValues("rdma.counter-sets.storage.flow.protocol=tcp")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(RdmaRegistry.class).counterSet("storage").deviceName())
					.isEqualTo(backend.device);
			});
	}

	@Test
	void matrixHasMoreThanThreeHundredCases() {
		assertThat(cases()).hasSizeGreaterThanOrEqualTo(300);
	}

	/** A YAML document of a TCP counter set with a destination port as written. */
	private static String tcpSetOf(String destinationPort) {
		return "rdma:\n  counter-sets:\n    roce:\n      flow:\n        protocol: tcp\n        destination-port: "
				+ destinationPort;
	}

	private static void environmentVariables(ConfigurableEnvironment environment, Map<String, Object> variables) {
		// the case's variables instead of the machine's
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
	}

	private static void yaml(ConfigurableEnvironment environment, @Nullable String document) {
		if (document == null) {
			return;
		}
		try {
			new YamlPropertySourceLoader()
				.load("application.yml", new ByteArrayResource(document.getBytes(StandardCharsets.UTF_8)))
				.forEach(environment.getPropertySources()::addFirst);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static Path temporaryDirectory() {
		try {
			Path directory = Files.createTempDirectory("rdma-sysfs");
			directory.toFile().deleteOnExit();
			return directory;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static Path regularFile() {
		try {
			Path file = Files.createTempFile("rdma-sysfs-root", ".txt");
			file.toFile().deleteOnExit();
			return file;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	enum Outcome {

		CLEAR, UNCLEAR, SILENT, CRASH

	}

	enum Backend {

		SIMULATED("sim_mlx5_0"), NATIVE("mlx5_0");

		private final String device;

		Backend(String device) {
			this.device = device;
		}

		WebApplicationContextRunner runner() {
			// every auto-configuration that reads a property, the page's too
			WebApplicationContextRunner runner = new WebApplicationContextRunner().withConfiguration(
					AutoConfigurations.of(RdmaAutoConfiguration.class, RdmaDisabledAutoConfiguration.class,
							RdmaUiAutoConfiguration.class, RdmaEventsAutoConfiguration.class,
							RdmaSimulatedTrafficAutoConfiguration.class, RdmaHealthContributorAutoConfiguration.class,
							RdmaEndpointAutoConfiguration.class, RdmaEthtoolAutoConfiguration.class,
							RdmaQueuePairsAutoConfiguration.class, RdmaObservationsAutoConfiguration.class));
			return (this == SIMULATED) ? runner.withPropertyValues("rdma.backend=simulated")
					: runner.withPropertyValues("rdma.native.library=" + fake.libraryPath());
		}

	}

	/**
	 * One bad input: a property and its value as written, other properties it needs, and
	 * the text that says what is allowed.
	 */
	static final class Case {

		private final String property;

		private final String value;

		private final String[] allowed;

		private final List<String> others = new ArrayList<>();

		private final Map<String, Object> variables = new LinkedHashMap<>();

		private String reportedProperty;

		private String reportedValue;

		private boolean warning;

		private boolean overHttp;

		private boolean meters;

		private @Nullable String yaml;

		Case(String property, String value, String... allowed) {
			this.property = property;
			this.value = value;
			this.allowed = allowed;
			this.reportedProperty = property;
			this.reportedValue = value;
		}

		/**
		 * A bad environment variable, in a property source named and typed as the system
		 * environment is.
		 */
		static Case environment(String variable, String value, String... allowed) {
			Case input = new Case(variable, value, allowed);
			input.variables.put(variable, value);
			return input;
		}

		/**
		 * A bad YAML document, loaded as Boot loads {@code application.yml}; the property
		 * and the value as written are those the message must name.
		 */
		static Case yaml(String property, String value, String document, String... allowed) {
			Case input = new Case(property, value, allowed);
			input.yaml = document;
			return input;
		}

		@Nullable String yaml() {
			return this.yaml;
		}

		/**
		 * The setting has no effect: startup goes on and warns once.
		 */
		Case warns() {
			this.warning = true;
			return this;
		}

		boolean warning() {
			return this.warning;
		}

		/**
		 * Actuator serves endpoints over HTTP, as in an application with Spring MVC.
		 */
		Case overHttp() {
			this.overHttp = true;
			return this;
		}

		boolean servedOverHttp() {
			return this.overHttp;
		}

		/**
		 * The application has a MeterRegistry, as one with Actuator does: what records
		 * counter deltas on observations.
		 */
		Case withMeters() {
			this.meters = true;
			return this;
		}

		boolean hasMeters() {
			return this.meters;
		}

		Case with(String other) {
			this.others.add(other);
			return this;
		}

		/**
		 * A copy of this case with one more property.
		 */
		Case copyWith(String other) {
			Case copy = new Case(this.property, this.value, this.allowed);
			copy.others.addAll(this.others);
			copy.variables.putAll(this.variables);
			copy.reportedProperty = this.reportedProperty;
			copy.reportedValue = this.reportedValue;
			copy.warning = this.warning;
			copy.overHttp = this.overHttp;
			copy.meters = this.meters;
			return copy.with(other);
		}

		Case reportedAs(String property) {
			this.reportedProperty = property;
			return this;
		}

		Case reportedAs(String property, String value) {
			this.reportedProperty = property;
			this.reportedValue = value;
			return this;
		}

		String[] properties() {
			List<String> all = new ArrayList<>(this.others);
			if (this.variables.isEmpty() && this.yaml == null) {
				all.add(this.property + "=" + this.value);
			}
			return all.toArray(String[]::new);
		}

		Map<String, Object> variables() {
			return this.variables;
		}

		String reportedProperty() {
			return this.reportedProperty;
		}

		String reportedValue() {
			return this.reportedValue;
		}

		String[] allowed() {
			return this.allowed;
		}

		@Override
		public String toString() {
			List<String> all = new ArrayList<>(Arrays.asList(properties()));
			this.variables.forEach((name, value) -> all.add("$" + name + "=" + value));
			if (this.yaml != null) {
				all.add("yaml: " + this.yaml.replace("\n", " / "));
			}
			// a name of thousands of characters, shortened in the test's name and report
			return String.join(" ", all).replaceAll("(.)\\1{20,}", "$1$1$1…");
		}

	}

}
