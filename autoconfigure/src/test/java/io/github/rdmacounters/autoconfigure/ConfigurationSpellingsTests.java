package io.github.rdmacounters.autoconfigure;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.event.RdmaEventPublisher;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SyntheticTraffic;
import io.github.rdmacounters.testsupport.FakeVerbs;
import io.github.rdmacounters.ui.RdmaUi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.fail;

/**
 * The spellings of valid configuration that work, next to the bad ones of
 * {@link BadInputMatrixTests}: the starter's switches read {@code yes}, {@code on} and
 * {@code 1} as their properties do, Boot's bracket form of a set name, the environment
 * variables that can name a set or a simulated device; a valid configuration logs no
 * warning; and the tests' JVM resolves names from a hosts file only.
 *
 * @author rdma-counters
 */
class ConfigurationSpellingsTests {

	private static final FakeVerbs fake = FakeVerbs.get();

	private final ListAppender<ILoggingEvent> log = new ListAppender<>();

	@BeforeEach
	void oneFakeDeviceAndTheLog() {
		fake.reset();
		fake.device("mlx5_0").add();
		this.log.start();
		root().addAppender(this.log);
	}

	@AfterEach
	void detachTheLog() {
		root().detachAppender(this.log);
		fake.reset();
	}

	@ParameterizedTest(name = "{0}={1}")
	@CsvSource(textBlock = """
			rdma.ui.enabled,                yes,   true
			rdma.ui.enabled,                on,    true
			rdma.ui.enabled,                1,     true
			rdma.ui.enabled,                TRUE,  true
			rdma.ui.enabled,                no,    false
			rdma.events.enabled,            off,   false
			rdma.events.enabled,            0,     false
			rdma.events.enabled,            yes,   true
			rdma.port-counters.enabled,     no,    false
			rdma.port-counters.enabled,     on,    true
			rdma.simulated.traffic.enabled, yes,   true
			rdma.simulated.traffic.enabled, off,   false
			rdma.enabled,                   no,    false
			rdma.enabled,                   on,    true
			""")
	void switchesReadABooleanAsTheirPropertiesDo(String property, String value, boolean enabled) {
		Class<?> bean = switch (property) {
			case "rdma.ui.enabled" -> RdmaUi.class;
			case "rdma.events.enabled" -> RdmaEventPublisher.class;
			case "rdma.port-counters.enabled" -> HostPortCountersSource.class;
			case "rdma.simulated.traffic.enabled" -> SyntheticTraffic.class;
			default -> RdmaRegistry.class;
		};
		BadInputMatrixTests.Backend.SIMULATED.runner()
			.withPropertyValues(property + "=" + value, "rdma.counter-sets.web.flow.protocol=tcp")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBeanProvider(bean).getIfAvailable() != null).as("%s=%s", property, value)
					.isEqualTo(enabled);
			});
	}

	@ParameterizedTest
	@EnumSource
	void bracketFormOfASetNameNamesTheSetInside(BadInputMatrixTests.Backend backend) {
		backend.runner()
			.withPropertyValues("rdma.counter-sets.[ok1].flow.protocol=udp",
					"rdma.counter-sets.[ok1].flow.destination-port=4791", "rdma.counter-sets[Web_2].flow.protocol=tcp")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RdmaRegistry registry = context.getBean(RdmaRegistry.class);
				assertThat(registry.counterSets()).extracting(CounterSet::name)
					.containsExactlyInAnyOrder("ok1", "Web_2");
				assertThat(registry.counterSet("ok1").spec().destinationPort()).isEqualTo(4791);
				assertThat(context).hasBean("ok1").hasBean("Web_2");
			});
	}

	@ParameterizedTest
	@EnumSource
	void environmentVariablesNameASetWhoseNameHasNoUnderscoreOrDash(BadInputMatrixTests.Backend backend) {
		String device = (backend == BadInputMatrixTests.Backend.SIMULATED) ? "sim_mlx5_0" : "mlx5_0";
		backend.runner()
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
								Map.of("RDMA_COUNTERSETS_STORAGE_DEVICE", device,
										"RDMA_COUNTERSETS_STORAGE_FLOW_PROTOCOL", "tcp",
										"RDMA_COUNTERSETS_STORAGE_FLOW_DESTINATIONPORT", "4420", "RDMA_READCACHETTL",
										"2s"))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				CounterSet storage = context.getBean(RdmaRegistry.class).counterSet("storage");
				assertThat(storage.deviceName()).isEqualTo(device);
				assertThat(storage.spec().protocol()).isEqualTo(L4Protocol.TCP);
				assertThat(storage.spec().destinationPort()).isEqualTo(4420);
				assertThat(context.getBean(RdmaProperties.class).readCacheTtl()).hasSeconds(2);
			});
		assertThat(warnings()).isEmpty();
	}

	@Test
	void environmentVariableNamesASimulatedDeviceWhoseNameHasNoUnderscore() {
		BadInputMatrixTests.Backend.SIMULATED.runner()
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
								Map.of("RDMA_SIMULATED_DEVICES_SIMA_PORTS", "2"))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(SimulatedBackend.class).specs()).singleElement().satisfies((spec) -> {
					assertThat(spec.name()).isEqualTo("sima");
					assertThat(spec.portCount()).isEqualTo(2);
				});
			});
	}

	@ParameterizedTest
	@EnumSource
	void validConfigurationOfEachBackendLogsNoWarning(BadInputMatrixTests.Backend backend) {
		// options of a device the backend has (another one is warned about)
		String device = (backend == BadInputMatrixTests.Backend.SIMULATED) ? "sim_mlx5_0" : "mlx5_0";
		List<String> properties = new ArrayList<>(
				List.of("rdma.counter-sets.web.flow.protocol=tcp", "rdma.counter-sets.web.flow.destination-port=443",
						"rdma.devices." + device + ".fail-on-unavailable=false", "rdma.events.reopen-backoff.max=10s",
						"rdma.ui.enabled=true"));
		if (backend == BadInputMatrixTests.Backend.SIMULATED) {
			properties.addAll(List.of("rdma.simulated.devices.sim_mlx5_0.ports=2",
					"rdma.simulated.traffic.enabled=true", "rdma.simulated.traffic.sets.web.packet-size=100"));
		}
		backend.runner().withPropertyValues(properties.toArray(String[]::new)).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(RdmaRegistry.class).counterSet("web")).isNotNull();
		});
		assertThat(warnings()).isEmpty();
	}

	@Test
	void propertyOfTheOtherBackendIsWarnedAboutOnceAtStartup() {
		BadInputMatrixTests.Backend.NATIVE.runner()
			.withPropertyValues("rdma.simulated.devices.sim_a.ports=2", "rdma.simulated.traffic.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(warnings()).containsExactly(
				"rdma.simulated.devices.sim_a.ports=2 has no effect on the native backend (rdma.backend): the native "
						+ "backend counts on the host's RDMA devices; remove it (or move it to the profile that sets "
						+ "rdma.backend=simulated), or set rdma.backend=simulated to use it",
				"rdma.simulated.traffic.enabled=true has no effect on the native backend (rdma.backend): the native "
						+ "backend counts on the host's RDMA devices; remove it (or move it to the profile that sets "
						+ "rdma.backend=simulated), or set rdma.backend=simulated to use it");
	}

	@Test
	void theTestsResolveNamesFromTheHostsFileOfTheFlowTestsOnly() throws Exception {
		String hosts = System.getProperty("jdk.net.hosts.file");
		if (hosts == null) {
			fail("Run these tests through Maven (the module's Surefire configuration sets -Djdk.net.hosts.file="
					+ "src/test/resources/ip-literals/hosts), or set that system property in the IDE");
		}
		List<String> names = new ArrayList<>();
		for (String line : Files.readAllLines(Path.of(hosts))) {
			if (!line.isBlank() && !line.startsWith("#")) {
				List<String> tokens = Arrays.asList(line.trim().split("\\s+"));
				names.addAll(tokens.subList(1, tokens.size()));
			}
		}
		assertThat(names).contains("300.1.1.1", "rdma.example", "localhost");
		for (String name : names) {
			// armed: a parser that resolved the value would get an address and accept it
			assertThat(InetAddress.getByName(name)).as(name).isNotNull();
		}
		// and a name the file does not have is not looked up elsewhere
		assertThat(catchThrowable(() -> InetAddress.getByName("example.com"))).isInstanceOf(UnknownHostException.class);
	}

	private List<String> warnings() {
		return this.log.list.stream()
			.filter((event) -> event.getLevel().isGreaterOrEqual(Level.WARN))
			.map(ILoggingEvent::getFormattedMessage)
			.filter((message) -> !message.startsWith("Exception encountered"))
			.toList();
	}

	private static Logger root() {
		return (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
	}

}
