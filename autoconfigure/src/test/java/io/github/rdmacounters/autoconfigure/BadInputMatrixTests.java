package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.testsupport.FakeVerbs;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bad-input matrix: each case is configuration a user could write (in a property file
 * or as an environment variable), run on the simulated backend and on the native backend
 * over the fake libibverbs. Every case must fail startup, and the failure analysis that
 * Spring Boot prints must name the property as written, show the value as written and say
 * what is allowed.
 *
 * @author rdma-counters
 */
class BadInputMatrixTests {

	private static final FakeVerbs fake = FakeVerbs.get();

	private static final Path REGULAR_FILE = regularFile();

	private static final String FLOW = "rdma.counter-sets.roce.flow.";

	private static final String SET = "rdma.counter-sets.roce.";

	private static final String REFUSED = "were left unbound";

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
		List<Case> cases = new ArrayList<>();
		cases.addAll(general());
		cases.addAll(whereSetsCount());
		cases.addAll(setContents());
		cases.addAll(flows());
		cases.addAll(setNames());
		cases.addAll(unknownAndRemoved());
		cases.addAll(environmentVariables());
		return cases;
	}

	private static List<Case> general() {
		return List.of(new Case("rdma.enabled", "maybe", "true or false"), new Case("rdma.backend", "", REFUSED),
				new Case("rdma.backend", "rdma", "NATIVE", "SIMULATED"),
				new Case("rdma.read-cache-ttl", "10ms", "100ms to 10m"),
				new Case("rdma.read-cache-ttl", "-1s", "100ms to 10m"),
				new Case("rdma.read-cache-ttl", "100000d", "100ms to 10m", "stale"),
				new Case("rdma.read-cache-ttl", "soon", "java.time.Duration"),
				new Case("rdma.events.reopen-backoff.initial", "0ms", "at least 1ms"),
				new Case("rdma.events.reopen-backoff.initial", "-1s", "at least 1ms"),
				new Case("rdma.events.reopen-backoff.initial", "soon", "java.time.Duration"),
				new Case("rdma.events.reopen-backoff.max", "2h", "at most 1h"),
				new Case("rdma.events.reopen-backoff.max", "50ms",
						"at least rdma.events.reopen-backoff.initial (100ms)"),
				new Case("rdma.events.reopen-backoff.max", "1s", "at least rdma.events.reopen-backoff.initial (5s)")
					.with("rdma.events.reopen-backoff.initial=5s"),
				new Case("rdma.events.port-down-readiness", "sometimes", "NONE", "REFUSE_TRAFFIC"),
				new Case("rdma.fail-on-unavailable", "perhaps", "Invalid boolean value 'perhaps'"),
				new Case("rdma.devices.mlx5_0.fail-on-unavailable", "perhaps", "Invalid boolean value 'perhaps'"),
				new Case("rdma.devices[mlx5/0].fail-on-unavailable", "false", "an RDMA device name such as mlx5_0")
					.reportedAs("rdma.devices.mlx5/0", "mlx5/0"),
				new Case("rdma.port-counters.enabled", "sometimes", "Invalid boolean value 'sometimes'"),
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
				new Case(SET + "port", "abc", "failed to convert java.lang.String to java.lang.Integer"),
				new Case("rdma.counter-sets.storage.port", "0", "1 to 255").with("rdma.counter-sets.roce.port=1"));
	}

	private static List<Case> setContents() {
		return List.of(new Case(SET + "counters.pakets", "0", "'pakets' is not a counter type", "packets or bytes"),
				new Case(SET + "counters.packets", "-1", "0 to 255"),
				new Case(SET + "counters.bytes", "256", "0 to 255"),
				new Case(SET + "counters.bytes", "0", "already used by packets").with(SET + "counters.packets=0"),
				new Case(SET + "read-mode", "sometimes", "FRESH", "PREFER_CACHED"),
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
		return List.of(new Case(FLOW + "protocol", "sctp", "TCP", "UDP"),
				new Case(FLOW + "protocol", "", "must have a value: tcp or udp", "leave flow.protocol out"),
				new Case(FLOW + "destination-port", "4791", "needs " + FLOW + "protocol (tcp or udp)"),
				new Case(FLOW + "source-port", "5000", "needs " + FLOW + "protocol (tcp or udp)"),
				new Case(FLOW + "source-port", "70000", "0 to 65535").with(FLOW + "protocol=udp"),
				new Case(FLOW + "destination-port", "-1", "0 to 65535").with(FLOW + "protocol=tcp"),
				new Case(FLOW + "destination-port", "70000", "0 to 65535").with(FLOW + "protocol=tcp"),
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
				new Case("rdma.devices.mlx5_0.fail-on-unavaliable", "false", REFUSED),
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
				Case.environment("RDMA_COUNTERSETS_STORAGE_FLOW_PROTOCOL", "sctp", "TCP", "UDP",
						"from property source \"systemEnvironment\""));
	}

	private static List<Case> simulatedOnly() {
		return List.of(new Case("rdma.simulated.devices.sim_a.ports", "0", "1 to 255"),
				new Case("rdma.simulated.devices.sim_a.ports", "100000", "1 to 255"),
				new Case("rdma.simulated.devices.sim_a.link-layer", "fddi", "ETHERNET", "INFINIBAND"),
				new Case("rdma.simulated.devices.sim_a.link-layer", "", REFUSED),
				new Case("rdma.simulated.devices[sim/0].ports", "1", "without '/'")
					.reportedAs("rdma.simulated.devices.sim/0", "sim/0"),
				new Case("rdma.simulated.devices.sim_a.counters-supported", "kinda", "Invalid boolean value 'kinda'"),

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
					.with(FLOW + "protocol=udp"));
	}

	private static List<Case> nativeOnly() {
		return List.of(new Case("rdma.native.library", "", "must name the library to load"),
				new Case("rdma.port-counters.sysfs-root", "/nonexistent/infiniband", "does not exist"),
				new Case("rdma.port-counters.sysfs-root", REGULAR_FILE.toString(), "is not a directory"),
				new Case("rdma.port-counters.sysfs-root", "", "must be a directory"),
				new Case(SET + "device", "mlx5_9", "Devices found: mlx5_0").with(FLOW + "protocol=udp")
					.reportedAs("rdma.counter-sets.roce", "mlx5_9"),
				new Case(SET + "port", "2", "must be 1 to 1: mlx5_0 has 1 port").with(FLOW + "protocol=udp"));
	}

	@ParameterizedTest(name = "{0}: {1}")
	@MethodSource("cases")
	void badInputFailsStartupWithAnAnalysisNamingPropertyValueAndWhatIsAllowed(Backend backend, Case input) {
		// the analyzers see the application's environment, as in Boot
		AtomicReference<Environment> environment = new AtomicReference<>();
		backend.runner().withBean("prometheusMeterRegistry", Object.class, Object::new).withInitializer((context) -> {
			environment.set(context.getEnvironment());
			environmentVariables(context.getEnvironment(), input.variables());
		}).withPropertyValues(input.properties()).run((context) -> {
			assertThat(context).as("context of %s", input).hasFailed();
			FailureAnalysis analysis = FailureAnalysisAssert.of(context.getStartupFailure(), environment.get())
				.analysis();
			String text = analysis.getDescription() + "\n" + analysis.getAction();
			assertThat(analysis.getDescription()).as("analysis of %s names the property", input)
				.contains(input.reportedProperty());
			assertThat(analysis.getDescription()).as("analysis of %s shows the value as written", input)
				.containsAnyOf("'" + input.reportedValue() + "'", "\"" + input.reportedValue() + "\"");
			assertThat(text).as("analysis of %s says what is allowed", input).contains(input.allowed());
		});
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
	void matrixHasMoreThanOneHundredAndFortyCases() {
		assertThat(cases()).hasSizeGreaterThanOrEqualTo(140);
	}

	private static void environmentVariables(ConfigurableEnvironment environment, Map<String, Object> variables) {
		// the case's variables instead of the machine's
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
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

		SIMULATED("sim_mlx5_0"), NATIVE("mlx5_0");

		private final String device;

		Backend(String device) {
			this.device = device;
		}

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

		private final Map<String, Object> variables = new LinkedHashMap<>();

		private String reportedProperty;

		private String reportedValue;

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
			if (this.variables.isEmpty()) {
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
			return String.join(" ", all);
		}

	}

}
