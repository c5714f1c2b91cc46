package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.rdmacounters.testsupport.FakeVerbs;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bad-input matrix: each case is configuration a user could write, run on the
 * simulated backend and on the native backend over the fake libibverbs. Every case must
 * fail startup, and the failure analysis that Spring Boot prints must name the property,
 * show the value as written and say what is allowed.
 *
 * @author rdma-counters
 */
class BadInputMatrixTests {

	private static final FakeVerbs fake = FakeVerbs.get();

	private static final Path REGULAR_FILE = regularFile();

	private static final String FLOW = "rdma.counter-sets.roce.flow.";

	private static final String SET = "rdma.counter-sets.roce.";

	private static final String DEVICE_FLOW = "rdma.devices.mlx5_0.counter-sets.roce.flow.";

	@BeforeEach
	void oneFakeDevice() {
		fake.reset();
		fake.device("mlx5_0").add();
	}

	@AfterAll
	static void resetFake() {
		fake.reset();
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
		for (Case nativeCase : nativeOnly()) {
			cases.add(Arguments.of(Backend.NATIVE, nativeCase));
		}
		return cases.stream();
	}

	private static List<Case> common() {
		return List.of(new Case("rdma.enabled", "maybe", "true or false"),
				new Case("rdma.backend", "", "native (libibverbs) or simulated"),
				new Case("rdma.backend", "rdma", "NATIVE", "SIMULATED"),
				new Case("rdma.read-cache-ttl", "10ms", "at least 100ms"),
				new Case("rdma.events.reopen-backoff.initial", "0ms", "at least 1ms"),
				new Case("rdma.events.reopen-backoff.initial", "-1s", "at least 1ms"),
				new Case("rdma.events.reopen-backoff.initial", "soon", "java.time.Duration"),
				new Case("rdma.events.reopen-backoff.max", "2h", "at most 1h"),
				new Case("rdma.events.reopen-backoff.max", "50ms",
						"at least rdma.events.reopen-backoff.initial (100ms)"),
				new Case("rdma.events.reopen-backoff.max", "1s", "at least rdma.events.reopen-backoff.initial (5s)")
					.with("rdma.events.reopen-backoff.initial=5s"),
				new Case("rdma.read-cache-ttl", "-1s", "at least 100ms"),
				new Case("rdma.read-cache-ttl", "100000d", "at most 10m", "stale"),
				new Case("rdma.read-cache-ttl", "soon", "java.time.Duration"), new Case("rdma.port", "0", "1 to 255"),
				new Case("rdma.port", "256", "1 to 255"),
				new Case("rdma.port", "one", "failed to convert java.lang.String to int"),
				new Case("rdma.fail-on-unavailable", "perhaps", "Invalid boolean value 'perhaps'"),
				new Case("rdma.port-counters.enabled", "sometimes", "Invalid boolean value 'sometimes'"),
				new Case("rdma.port-counters.include", "[", "'*' (any run) and '?'")
					.reportedAs("rdma.port-counters.include[0]"),
				new Case("rdma.port-counters.exclude", "port_{a}", "'*' (any run) and '?'")
					.reportedAs("rdma.port-counters.exclude[0]"),
				new Case("rdma.devices.mlx5_0.port", "0", "1 to 255"),
				new Case("rdma.devices.mlx5_0.port", "300", "1 to 255"),
				new Case("rdma.device-defaults.port", "0", "1 to 255"),
				new Case("rdma.devices.mlx5_0.fail-on-unavailable", "perhaps", "Invalid boolean value 'perhaps'"),
				new Case("rdma.port-counters.devices.include", "mlx5/0", "an RDMA device name or a glob")
					.reportedAs("rdma.port-counters.devices.include[0]"),
				new Case("rdma.port-counters.devices.exclude", "mlx5_{1}", "an RDMA device name or a glob")
					.reportedAs("rdma.port-counters.devices.exclude[0]"),
				new Case(DEVICE_FLOW + "destinaton-port", "4791", "did you mean flow.destination-port?"),
				new Case(DEVICE_FLOW + "destination-port", "70000", "0 to 65535").with(DEVICE_FLOW + "protocol=tcp"),
				new Case(FLOW + "destinaton-port", "4791", "did you mean flow.destination-port?"),
				new Case(SET + "flw.protocol", "udp", "did you mean flow.protocol?"),
				new Case(SET + "read-mod", "fresh", "did you mean read-mode?"),
				new Case(SET + "counters.pakets", "0", "packets or bytes"),
				new Case(SET + "counters.packets", "-1", "0 to 255"),
				new Case(SET + "counters.bytes", "256", "0 to 255"),
				new Case(SET + "counters.bytes", "0", "already used by packets").with(SET + "counters.packets=0"),
				new Case(SET + "read-mode", "sometimes", "FRESH", "PREFER_CACHED"),
				new Case(SET + "read-mode", "", "fresh or prefer-cached"),
				new Case(FLOW + "protocol", "sctp", "TCP", "UDP"), new Case(FLOW + "protocol", "", "tcp or udp"),
				new Case(FLOW + "destination-port", "4791", "needs " + FLOW + "protocol (tcp or udp)"),
				new Case(FLOW + "source-port", "5000", "needs " + FLOW + "protocol (tcp or udp)"),
				new Case(FLOW + "source-port", "70000", "0 to 65535").with(FLOW + "protocol=udp"),
				new Case(FLOW + "destination-port", "-1", "0 to 65535").with(FLOW + "protocol=tcp"),
				new Case(FLOW + "destination-port", "http", "failed to convert").with(FLOW + "protocol=tcp"),
				new Case(FLOW + "vlan-id", "4096", "0 to 4095"), new Case(FLOW + "ether-type", "0x10000", "0 to 65535"),
				new Case(FLOW + "ether-type", "0x86dd", "leave it unset or use 0x0800")
					.with(FLOW + "source-ip=10.0.0.0/8"),
				new Case(FLOW + "source-ip", "10.0.0.0/33", "0 to 32"),
				new Case(FLOW + "source-ip", "rdma.example", "no host names"),
				new Case(FLOW + "destination-ip", "fd00::/129", "0 to 128"),
				new Case(FLOW + "destination-ip", "10.0.0.1", "same IP family").with(FLOW + "source-ip=fd00::/64"),
				new Case(FLOW + "source-mac", "02:00:5e:10:00", "six hex octets"),
				new Case(FLOW + "destination-mac", "zz:00:5e:10:00:01", "six hex octets"),
				new Case(FLOW + "priority", "65536", "0 to 65535"), new Case(FLOW + "priority", "-1", "0 to 65535"),
				new Case(FLOW + "dont-trap", "sure", "Invalid boolean value 'sure'"),
				new Case("rdma.counter-sets.rdmaRegistry.flow.protocol", "udp", "starter's own beans")
					.reportedAs("rdma.counter-sets.rdmaRegistry", "rdmaRegistry"),
				new Case("rdma.counter-sets.prometheusMeterRegistry.flow.protocol", "udp",
						"A bean named 'prometheusMeterRegistry'", "rename the set")
					.reportedAs("rdma.counter-sets.prometheusMeterRegistry", "prometheusMeterRegistry"),
				new Case("rdma.counter-sets[we\"ird].flow.protocol", "udp", "start with a letter")
					.reportedAs("rdma.counter-sets[we\"ird]", "we\"ird"),
				new Case("rdma.counter-sets[].flow.protocol", "udp", "start with a letter")
					.reportedAs("rdma.counter-sets[]", ""),
				new Case("rdma.counter-sets.we ird/na{me}.flow.protocol", "udp", "start with a letter")
					.reportedAs("rdma.counter-sets.we ird/na{me}", "we ird/na{me}"),
				new Case("rdma.counter-sets.9lives.flow.protocol", "udp", "start with a letter")
					.reportedAs("rdma.counter-sets.9lives", "9lives"),
				new Case("rdma.counter-sets.roce", "", "cannot be a single value"),
				new Case("rdma.counterSets.roce.flow.destinatonPort", "4791", "'flow.destinatonPort'",
						"did you mean flow.destination-port?"),
				new Case("rdma.counter-sets.nvme_tcp.flow.destinaton-port", "4791",
						"did you mean flow.destination-port?"),
				new Case("rdma.devices.mlx5_0.counterSets.roce.flow.destinatonPort", "4791",
						"did you mean flow.destination-port?"),
				new Case("rdma.counterSets.we ird/na{me}.flow.protocol", "udp", "start with a letter")
					.reportedAs("rdma.counterSets.we ird/na{me}", "we ird/na{me}"),
				new Case("rdma.counterSets.roce.counters.pakets", "0", "packets or bytes"),
				new Case("rdma.counterSets.roce.flow.destinationPort", "", "must have a value",
						"leave flow.destinationPort out")
					.with("rdma.counterSets.roce.flow.protocol=udp"));
	}

	private static List<Case> simulatedOnly() {
		return List.of(new Case("rdma.simulated.devices.sim_a.ports", "0", "1 to 255"),
				new Case("rdma.simulated.devices.sim_a.link-layer", "fddi", "ETHERNET", "INFINIBAND"),
				new Case("rdma.simulated.ports", "100000", "1 to 255"),
				new Case("rdma.simulated.ports", "0", "1 to 255"),
				new Case("rdma.port", "2", "1 to 1, the ports of the simulated device"),
				new Case("rdma.simulated.link-layer", "fddi", "ETHERNET", "INFINIBAND"),
				new Case("rdma.simulated.link-layer", "", "ethernet or infiniband"),
				new Case("rdma.simulated.device-name", "sim/0", "without '/'"),
				new Case("rdma.simulated.device-name", "", "without '/'"),
				new Case("rdma.simulated.counters-supported", "kinda", "Invalid boolean value 'kinda'"),
				new Case("rdma.simulated.traffic.packets-per-second", "-5", "0 to 1000000"),
				new Case("rdma.simulated.traffic.packet-size", "10", "60 to 9000"),
				new Case("rdma.simulated.traffic.interval", "0ms", "1ms to 1m"),
				new Case("rdma.simulated.traffic.sets.nosuch.packets-per-second", "5", "must name a counter set")
					.reportedAs("rdma.simulated.traffic.sets.nosuch", "nosuch"));
	}

	private static List<Case> nativeOnly() {
		return List.of(new Case("rdma.native.library", "", "must name the library to load"),
				new Case("rdma.port-counters.sysfs-root", "/nonexistent/infiniband", "does not exist"),
				new Case("rdma.port-counters.sysfs-root", REGULAR_FILE.toString(), "is not a directory"),
				new Case("rdma.port-counters.sysfs-root", "", "must be a directory"),
				new Case("rdma.device", "mlx5_9", "Devices found: mlx5_0").reportedAs("rdma.device", "'mlx5_9'"));
	}

	@ParameterizedTest(name = "{0}: {1}")
	@MethodSource("cases")
	void badInputFailsStartupWithAnAnalysisNamingPropertyValueAndWhatIsAllowed(Backend backend, Case input) {
		backend.runner()
			.withBean("prometheusMeterRegistry", Object.class, Object::new)
			.withPropertyValues(input.properties())
			.run((context) -> {
				assertThat(context).as("context of %s", input).hasFailed();
				FailureAnalysis analysis = FailureAnalysisAssert.of(context.getStartupFailure()).analysis();
				String text = analysis.getDescription() + "\n" + analysis.getAction();
				assertThat(analysis.getDescription()).as("analysis of %s names the property", input)
					.contains(input.reportedProperty());
				assertThat(analysis.getDescription()).as("analysis of %s shows the value as written", input)
					.containsAnyOf("'" + input.reportedValue() + "'", "\"" + input.reportedValue() + "\"",
							input.reportedValue().startsWith("'") ? input.reportedValue() : "\u0000");
				assertThat(text).as("analysis of %s says what is allowed", input).contains(input.allowed());
			});
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

	enum Backend {

		SIMULATED, NATIVE;

		ApplicationContextRunner runner() {
			ApplicationContextRunner runner = new ApplicationContextRunner()
				.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class));
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

		private String reportedProperty;

		private String reportedValue;

		Case(String property, String value, String... allowed) {
			this.property = property;
			this.value = value;
			this.allowed = allowed;
			this.reportedProperty = property;
			this.reportedValue = value;
		}

		Case with(String other) {
			this.others.add(other);
			return this;
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
			all.add(this.property + "=" + this.value);
			return all.toArray(String[]::new);
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
			return String.join(" ", Arrays.asList(properties()));
		}

	}

}
