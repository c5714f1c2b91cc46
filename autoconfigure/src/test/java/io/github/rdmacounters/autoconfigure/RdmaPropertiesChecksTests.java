package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.mock.env.MockEnvironment;

import io.github.rdmacounters.autoconfigure.event.RdmaEventsProperties;
import io.github.rdmacounters.autoconfigure.simulated.SimulatedProperties;
import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.CounterSetTarget;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException.Problem;
import io.github.rdmacounters.core.IpPrefix;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.MacAddress;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.ReadMode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Tests for binding {@link RdmaProperties} and for {@link RdmaPropertiesChecks#check}:
 * each problem names the property and the value as written, and the plan says where each
 * set counts.
 *
 * @author rdma-counters
 */
@ExtendWith(OutputCaptureExtension.class)
class RdmaPropertiesChecksTests {

	private final Map<String, Object> values = new LinkedHashMap<>();

	private final MockEnvironment environment = new MockEnvironment();

	RdmaPropertiesChecksTests() {
		// in the order they are set, as in a file
		this.environment.getPropertySources().addFirst(new MapPropertySource("test", this.values));
	}

	@Test
	void defaultsHaveNoCounterSetsAndCheckToAnEmptyPlan() {
		RdmaProperties properties = bind(this.environment);
		assertThat(properties.enabled()).isTrue();
		assertThat(properties.backend()).isEqualTo(RdmaProperties.Backend.NATIVE);
		assertThat(properties.nativeBackend().getLibrary()).isEqualTo("libibverbs.so.1");
		assertThat(properties.readCacheTtl()).isEqualTo(Duration.ofSeconds(1));
		assertThat(properties.failOnUnavailable()).isTrue();
		assertThat(properties.portCounters().sysfsRoot()).isEqualTo("/sys/class/infiniband");
		assertThat(properties.simulated().devices()).isEmpty();
		assertThat(new RdmaPropertiesChecks(this.environment).check(properties)).isEmpty();
	}

	@Test
	void setWithoutCountersDeviceOrPortCountsPacketsAtZeroAndBytesAtOneOnTheFirstActivePortOfTheOnlyDevice() {
		set("rdma.counter-sets.roce.flow.protocol", "udp");
		set("rdma.counter-sets.roce.flow.destination-port", "4791");
		CounterSetTarget plan = onlySet();
		assertThat(plan.device()).isNull();
		assertThat(plan.netdev()).isNull();
		CounterSetDefinition set = plan.definition();
		assertThat(set.name()).isEqualTo("roce");
		assertThat(set.port()).isEqualTo(CounterSetDefinition.FIRST_ACTIVE_PORT);
		assertThat(set.indexes()).containsExactly(Map.entry(CounterType.PACKETS, 0), Map.entry(CounterType.BYTES, 1));
		assertThat(set.readMode()).isEqualTo(ReadMode.FRESH);
		assertThat(set.spec().dontTrap()).isTrue();
		assertThat(set.spec().protocol()).isEqualTo(L4Protocol.UDP);
		assertThat(set.spec().destinationPort()).isEqualTo(Packet.ROCE_V2_PORT);
	}

	@Test
	void planKeepsTheDeviceOrNetdevAndPortOfEachSetInConfigurationOrder() {
		set("rdma.counter-sets.storage.device", " mlx5_1 ");
		set("rdma.counter-sets.storage.port", "2");
		set("rdma.counter-sets.storage.flow.protocol", "tcp");
		set("rdma.counter-sets.https.netdev", "ens1f0np0");
		set("rdma.counter-sets.https.flow.protocol", "tcp");
		List<CounterSetTarget> plan = check();
		assertThat(plan)
			.extracting((set) -> set.definition().name(), CounterSetTarget::device, CounterSetTarget::netdev,
					(set) -> set.definition().port())
			.containsExactly(tuple("storage", "mlx5_1", null, 2),
					tuple("https", null, "ens1f0np0", CounterSetDefinition.FIRST_ACTIVE_PORT));
	}

	@Test
	void everyFlowFieldBindsIntoTheFlowSpec() {
		String prefix = "rdma.counter-sets.full.";
		set(prefix + "counters.bytes", "0");
		set(prefix + "read-mode", "prefer-cached");
		set(prefix + "flow.source-mac", "02:00:5e:10:00:01");
		set(prefix + "flow.destination-mac", "02-00-5E-10-00-02");
		set(prefix + "flow.vlan-id", "100");
		set(prefix + "flow.source-ip", "fd00::/64");
		set(prefix + "flow.destination-ip", "fd00:1::1");
		set(prefix + "flow.protocol", "TCP");
		set(prefix + "flow.source-port", "5000");
		set(prefix + "flow.destination-port", "6000");
		set(prefix + "flow.priority", "3");
		set(prefix + "flow.dont-trap", "false");
		CounterSetDefinition set = onlySet().definition();
		FlowSpec expected = FlowSpec.builder()
			.sourceMac(MacAddress.parse("02:00:5e:10:00:01"))
			.destinationMac(MacAddress.parse("02:00:5e:10:00:02"))
			.vlanId(100)
			.sourceIp(IpPrefix.parse("fd00::/64"))
			.destinationIp(IpPrefix.parse("fd00:1::1/128"))
			.protocol(L4Protocol.TCP)
			.sourcePort(5000)
			.destinationPort(6000)
			.priority(3)
			.dontTrap(false)
			.build();
		assertThat(set.spec()).isEqualTo(expected);
		assertThat(set.indexes()).containsExactly(Map.entry(CounterType.BYTES, 0));
		assertThat(set.readMode()).isEqualTo(ReadMode.PREFER_CACHED);
	}

	@Test
	void yamlInTheDocumentedShapeBindsEveryGroupWithNoUnknownKey() throws IOException {
		new YamlPropertySourceLoader().load("rdma-full.yml", new ClassPathResource("rdma-full.yml", getClass()))
			.forEach((source) -> this.environment.getPropertySources().addFirst(source));
		RdmaProperties properties = Binder.get(this.environment)
			.bindOrCreate(RdmaProperties.PREFIX, Bindable.of(RdmaProperties.class),
					new NoUnboundElementsBindHandler(BindHandler.DEFAULT));
		assertThat(properties.readCacheTtl()).isEqualTo(Duration.ofMillis(500));
		assertThat(properties.failOnUnavailable("mlx5_0")).isFalse();
		assertThat(properties.failOnUnavailable("mlx5_1")).isTrue();
		assertThat(properties.portCounters().include()).containsExactly("port_*");
		assertThat(properties.portCounters().exclude()).containsExactly("port_xmit_wait");
		assertThat(properties.portCounters().devices().exclude()).containsExactly("mlx5_9");
		assertThat(properties.events().portDownReadiness())
			.isEqualTo(RdmaEventsProperties.PortDownReadiness.REFUSE_TRAFFIC);
		assertThat(properties.events().reopenBackoff().max()).isEqualTo(Duration.ofSeconds(10));
		assertThat(properties.ui().path()).isEqualTo("/rdma-live");
		assertThat(properties.ui().pollInterval()).isEqualTo(Duration.ofSeconds(5));
		SimulatedProperties.Device simulated = properties.simulated().devices().get("sim_mlx5_0");
		assertThat(simulated.ports()).isEqualTo(2);
		assertThat(simulated.linkLayer()).isEqualTo(LinkLayer.INFINIBAND);
		assertThat(simulated.roceEnabled()).isFalse();
		assertThat(simulated.netdevs()).containsExactly("ens1f0np0");
		assertThat(properties.simulated().traffic().sets().get("roce").packetSize()).isEqualTo(60);
		List<CounterSetTarget> plan = new RdmaPropertiesChecks(this.environment).check(properties);
		assertThat(plan)
			.extracting((set) -> set.definition().name(), CounterSetTarget::device, CounterSetTarget::netdev)
			.containsExactly(tuple("roce", "mlx5_0", null), tuple("rocev1", null, "ens1f0np0"));
		CounterSetDefinition roce = plan.get(0).definition();
		assertThat(roce.port()).isEqualTo(1);
		assertThat(roce.indexes()).containsExactly(Map.entry(CounterType.PACKETS, 0), Map.entry(CounterType.BYTES, 1));
		assertThat(roce.spec().describe()).isEqualTo("src 10.0.0.0/24 dst 10.0.1.0/24 udp dst-port 4791");
		CounterSetDefinition rocev1 = plan.get(1).definition();
		assertThat(rocev1.readMode()).isEqualTo(ReadMode.PREFER_CACHED);
		assertThat(rocev1.indexes()).containsExactly(Map.entry(CounterType.BYTES, 0));
		assertThat(rocev1.spec().etherType()).isEqualTo(0x8915);
		assertThat(rocev1.spec().sourceMac()).isEqualTo(MacAddress.parse("02:00:5e:10:00:01"));
		assertThat(rocev1.spec().vlanId()).isEqualTo(7);
		assertThat(rocev1.spec().priority()).isEqualTo(2);
		assertThat(rocev1.spec().dontTrap()).isFalse();
	}

	@Test
	void hexadecimalEtherTypeBinds() {
		set("rdma.counter-sets.rocev1.flow.ether-type", "0x8915");
		assertThat(onlySet().definition().spec().etherType()).isEqualTo(0x8915);
	}

	@Test
	void blankDeviceIsRefusedInsteadOfMeaningTheOnlyDevice() {
		set("rdma.counter-sets.a.device", " ");
		assertThat(problems()).singleElement().satisfies((problem) -> {
			assertThat(problem.property()).isEqualTo("rdma.counter-sets.a.device");
			assertThat(problem.value()).isEqualTo(" ");
			assertThat(problem.requirement()).contains("RDMA device name such as mlx5_0", "left out");
		});
	}

	@Test
	void deviceWithASlashAndNetdevWithASlashAreRefused() {
		set("rdma.counter-sets.a.device", "mlx5/0");
		set("rdma.counter-sets.b.netdev", "ens1/0");
		assertThat(problems()).extracting(Problem::property, Problem::value)
			.containsExactly(tuple("rdma.counter-sets.a.device", "mlx5/0"),
					tuple("rdma.counter-sets.b.netdev", "ens1/0"));
		assertThat(problems().get(1).requirement()).contains("network interface name such as ens1f0np0");
	}

	@Test
	void deviceAndNetdevTogetherAreRefusedNamingBoth() {
		set("rdma.counter-sets.a.device", "mlx5_0");
		set("rdma.counter-sets.a.netdev", "ens1f0np0");
		assertThat(problems()).singleElement().satisfies((problem) -> {
			assertThat(problem.property()).isEqualTo("rdma.counter-sets.a.netdev");
			assertThat(problem.value()).isEqualTo("ens1f0np0");
			assertThat(problem.requirement()).contains("rdma.counter-sets.a.device is mlx5_0",
					"either device or netdev");
		});
	}

	@Test
	void portZeroAndPortBeyondTheEightBitPortNumberAreRefusedNamingPropertyValueAndRange() {
		set("rdma.counter-sets.a.port", "0");
		set("rdma.counter-sets.b.port", "256");
		assertThat(problems()).extracting(Problem::property, Problem::value)
			.containsExactly(tuple("rdma.counter-sets.a.port", "0"), tuple("rdma.counter-sets.b.port", "256"));
		assertThat(problems()).allSatisfy((problem) -> assertThat(problem.requirement()).contains("1 to 255"));
	}

	@Test
	void portsWithoutProtocolAreRefusedNamingThePortAsWritten() {
		set("rdma.counter-sets.roce.flow.destination-port", "4791");
		assertThat(problems()).singleElement().satisfies((problem) -> {
			assertThat(problem.property()).isEqualTo("rdma.counter-sets.roce.flow.destination-port");
			assertThat(problem.value()).isEqualTo("4791");
			assertThat(problem.requirement()).contains("needs rdma.counter-sets.roce.flow.protocol (tcp or udp)");
		});
	}

	@Test
	void badPrefixesAndMacsFailTheBindNamingThePropertyWithTheParsersReason() {
		Map<String, String> cases = Map.of("rdma.counter-sets.a.flow.source-ip", "10.0.0.0/33",
				"rdma.counter-sets.a.flow.destination-ip", "rdma.example", "rdma.counter-sets.a.flow.source-mac",
				"02:00:5e:10:00");
		Map<String, String> reasons = Map.of("10.0.0.0/33", "0 to 32", "rdma.example", "no host names",
				"02:00:5e:10:00", "six hex octets");
		cases.forEach((property, value) -> {
			MockEnvironment environment = new MockEnvironment().withProperty(property, value);
			BindException ex = catchThrowableOfType(BindException.class, () -> bind(environment));
			assertThat(ex).as(property).isNotNull();
			assertThat(ex.getProperty().getName().toString()).isEqualTo(property);
			assertThat(ex.getProperty().getValue()).isEqualTo(value);
			assertThat(ex).rootCause().hasMessageContaining(reasons.get(value));
		});
	}

	@Test
	void mixedIpFamiliesAreRefused() {
		set("rdma.counter-sets.a.flow.source-ip", "10.0.0.0/8");
		set("rdma.counter-sets.a.flow.destination-ip", "fd00::/64");
		assertThat(problems()).singleElement()
			.satisfies((problem) -> assertThat(problem.requirement()).contains("same IP family"));
	}

	@Test
	void etherTypeContradictingThePrefixIsRefused() {
		set("rdma.counter-sets.a.flow.ether-type", "0x86dd");
		set("rdma.counter-sets.a.flow.source-ip", "10.0.0.0/8");
		assertThat(problems()).singleElement().satisfies((problem) -> {
			assertThat(problem.property()).isEqualTo("rdma.counter-sets.a.flow.ether-type");
			assertThat(problem.value()).isEqualTo("0x86dd");
			assertThat(problem.requirement()).contains("must match the IPv4 prefix 10.0.0.0/8").contains("0x0800");
		});
	}

	@Test
	void duplicateAndNegativeCounterIndexesAreRefused() {
		set("rdma.counter-sets.dup.counters.packets", "0");
		set("rdma.counter-sets.dup.counters.bytes", "0");
		set("rdma.counter-sets.neg.counters.packets", "-1");
		assertThat(problems()).extracting(Problem::property, Problem::value)
			.containsExactly(tuple("rdma.counter-sets.dup.counters.bytes", "0"),
					tuple("rdma.counter-sets.neg.counters.packets", "-1"));
		assertThat(problems().get(0).requirement()).contains("already used by packets");
		assertThat(problems().get(1).requirement()).contains("0 to " + CounterSetDefinition.MAX_COUNTER_INDEX);
	}

	@Test
	void outOfRangeFlowNumbersAreRefusedEach() {
		set("rdma.counter-sets.a.flow.vlan-id", "4096");
		set("rdma.counter-sets.a.flow.ether-type", "70000");
		set("rdma.counter-sets.a.flow.priority", "-1");
		set("rdma.counter-sets.a.flow.protocol", "udp");
		set("rdma.counter-sets.a.flow.source-port", "65536");
		assertThat(problems()).extracting(Problem::property)
			.containsExactly("rdma.counter-sets.a.flow.ether-type", "rdma.counter-sets.a.flow.vlan-id",
					"rdma.counter-sets.a.flow.source-port", "rdma.counter-sets.a.flow.priority");
	}

	@Test
	void invalidSetNameIsRefusedWithWhatANameIs() {
		set("rdma.counter-sets.9lives.flow.protocol", "udp");
		assertThat(problems()).singleElement().satisfies((problem) -> {
			assertThat(problem.property()).isEqualTo("rdma.counter-sets.9lives");
			assertThat(problem.value()).isEqualTo("9lives");
			assertThat(problem.requirement()).contains("start with a letter", "/actuator/rdma/{set}");
		});
	}

	@Test
	void negativeReadCacheTtlIsRefused() {
		set("rdma.read-cache-ttl", "-1s");
		assertThat(problems()).extracting(Problem::property, Problem::value)
			.containsExactly(tuple("rdma.read-cache-ttl", "-1s"));
	}

	@Test
	void readCacheTtlBelowOneHundredMillisecondsIsRefusedNamingTheRangeAndWhy() {
		for (String ttl : List.of("0", "0ms", "99ms")) {
			set("rdma.read-cache-ttl", ttl);
			InvalidConfigurationPropertyValueException ex = catchThrowableOfType(
					InvalidConfigurationPropertyValueException.class, this::check);
			assertThat(ex).as("rdma.read-cache-ttl=%s", ttl).isNotNull();
			assertThat(ex.getName()).isEqualTo("rdma.read-cache-ttl");
			assertThat(ex.getValue()).as("the value as written").isEqualTo(ttl);
			assertThat(ex.getReason()).contains("100ms to 10m", "one read");
		}
	}

	@Test
	void readCacheTtlBeyondTenMinutesIsRefusedAsWrittenWithTheReason() {
		set("rdma.read-cache-ttl", "100000d");
		assertThat(problems()).singleElement().satisfies((problem) -> {
			assertThat(problem.property()).isEqualTo("rdma.read-cache-ttl");
			assertThat(problem.value()).isEqualTo("100000d");
			assertThat(problem.requirement()).contains("100ms to 10m", "stale values");
		});
	}

	@Test
	void readCacheTtlOfOneHundredMillisecondsIsAccepted() {
		set("rdma.read-cache-ttl", "100ms");
		RdmaProperties properties = bind(this.environment);
		assertThat(new RdmaPropertiesChecks(this.environment).check(properties)).isEmpty();
		assertThat(properties.readCacheTtl()).isEqualTo(Duration.ofMillis(100));
	}

	@Test
	void reopenBackoffMaxBelowTheInitialWaitIsRefusedShowingTheInitialWaitAsWritten() {
		set("rdma.events.reopen-backoff.initial", "5000ms");
		set("rdma.events.reopen-backoff.max", "1s");
		assertThat(problems()).singleElement().satisfies((problem) -> {
			assertThat(problem.property()).isEqualTo("rdma.events.reopen-backoff.max");
			assertThat(problem.value()).isEqualTo("1s");
			assertThat(problem.requirement()).contains("at least rdma.events.reopen-backoff.initial (5000ms)");
		});
	}

	@Test
	void emptyBackendFailsTheBindAsBootBindsItInsteadOfMeaningNative() {
		set("rdma.backend", "");
		BindException ex = catchThrowableOfType(BindException.class,
				() -> Binder.get(this.environment)
					.bind(RdmaProperties.PREFIX, Bindable.of(RdmaProperties.class),
							new NoUnboundElementsBindHandler(BindHandler.DEFAULT)));
		assertThat(ex).cause().isInstanceOf(UnboundConfigurationPropertiesException.class);
		assertThat(((UnboundConfigurationPropertiesException) ex.getCause()).getUnboundProperties())
			.extracting((property) -> property.getName().toString())
			.containsExactly("rdma.backend");
	}

	@Test
	void simulatedPortsBeyondTheEightBitPortNumberAreRefused() {
		set("rdma.backend", "simulated");
		set("rdma.simulated.devices.sim_a.ports", "100000");
		assertThat(problems()).extracting(Problem::property, Problem::value)
			.containsExactly(tuple("rdma.simulated.devices.sim_a.ports", "100000"));
	}

	@Test
	void simulatedTrafficOfASetThatIsNotConfiguredIsRefusedListingTheSets() {
		set("rdma.backend", "simulated");
		set("rdma.counter-sets.storage.flow.protocol", "tcp");
		set("rdma.simulated.traffic.sets.strage.packet-size", "100");
		assertThat(problems()).singleElement().satisfies((problem) -> {
			assertThat(problem.property()).isEqualTo("rdma.simulated.traffic.sets.strage");
			assertThat(problem.value()).isEqualTo("strage");
			assertThat(problem.requirement()).contains("must name a counter set of rdma.counter-sets", "[storage]");
		});
	}

	@Test
	void portCounterGlobThatCanMatchNoCounterIsRefusedNamingTheEntry() {
		set("rdma.port-counters.include", "port_*,[");
		assertThat(problems()).singleElement().satisfies((problem) -> {
			assertThat(problem.property()).isEqualTo("rdma.port-counters.include[1]");
			assertThat(problem.value()).isEqualTo("[");
			assertThat(problem.requirement()).contains("'*' (any run) and '?'");
		});
	}

	@Test
	void blankLibraryIsRefusedOnTheNativeBackendAndBadSimulatedDevicesOnTheSimulatedOne() {
		set("rdma.native.library", "");
		assertThat(problems()).extracting(Problem::property).containsExactly("rdma.native.library");
		set("rdma.backend", "simulated");
		set("rdma.simulated.devices[sim/0].ports", "0");
		assertThat(problems()).extracting(Problem::property)
			.containsExactly("rdma.simulated.devices.sim/0", "rdma.simulated.devices.sim/0.ports");
	}

	@Test
	void deviceOptionsOfAnInvalidDeviceNameAreRefused() {
		set("rdma.devices[mlx5/0].fail-on-unavailable", "false");
		assertThat(problems()).singleElement().satisfies((problem) -> {
			assertThat(problem.property()).isEqualTo("rdma.devices.mlx5/0");
			assertThat(problem.requirement()).contains("RDMA device name such as mlx5_0");
		});
	}

	@Test
	void deviceOptionsFromEnvironmentVariablesAreRefusedWithTheJsonThatWorks() {
		this.environment.getPropertySources()
			.addLast(new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
					Map.of("RDMA_DEVICES_MLX5_0_FAILONUNAVAILABLE", "false", "PATH", "/usr/bin")));
		assertThat(problems()).singleElement().satisfies((problem) -> {
			assertThat(problem.property()).isEqualTo("RDMA_DEVICES_MLX5_0_FAILONUNAVAILABLE");
			assertThat(problem.value()).isEqualTo("false");
			assertThat(problem.requirement()).contains("SPRING_APPLICATION_JSON",
					"{\"rdma\":{\"devices\":{\"mlx5_0\":{\"fail-on-unavailable\":false}}}}");
		});
	}

	@Test
	void everyProblemIsListedInOneException() {
		set("rdma.counter-sets.b.port", "0");
		set("rdma.read-cache-ttl", "-5s");
		set("rdma.counter-sets.a.flow.source-port", "1");
		InvalidRdmaConfigurationException ex = catchThrowableOfType(InvalidRdmaConfigurationException.class,
				this::check);
		assertThat(ex.problems()).hasSize(3);
		assertThat(ex).hasMessageContaining("rdma.counter-sets.b.port=0")
			.hasMessageContaining("rdma.read-cache-ttl=-5s")
			.hasMessageContaining("rdma.counter-sets.a.flow.source-port=1");
	}

	@Test
	void checkKeepsNothingBetweenCalls() {
		RdmaPropertiesChecks checks = new RdmaPropertiesChecks(this.environment);
		set("rdma.counter-sets.storage.device", "mlx5_1");
		assertThat(checks.check(bind(this.environment))).singleElement().satisfies((set) -> {
			assertThat(set.definition().name()).isEqualTo("storage");
			assertThat(set.device()).isEqualTo("mlx5_1");
		});
		set("rdma.counter-sets.storage.port", "0");
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class)
			.isThrownBy(() -> checks.check(bind(this.environment)));
		set("rdma.counter-sets.storage.port", "1");
		assertThat(checks.check(bind(this.environment))).hasSize(1);
	}

	@Test
	void udpDestinationPortOfRoceV2IsWarnedAboutOnceAsWritten(CapturedOutput output) {
		set("rdma.counter-sets.roce.flow.protocol", "udp");
		set("rdma.counter-sets.roce.flow.destination-port", "4791");
		set("rdma.counter-sets.storage.flow.protocol", "tcp");
		set("rdma.counter-sets.storage.flow.destination-port", "4791");
		assertThat(check()).hasSize(2);
		assertThat(output).containsOnlyOnce("rdma.counter-sets.roce.flow.destination-port=4791 with udp is RoCEv2")
			.containsOnlyOnce("count another port, or disable RoCE on the device")
			.doesNotContain("rdma.counter-sets.storage.flow.destination-port=4791");
	}

	@Test
	void vlanEtherTypeAndPortsUnderANonIpEtherTypeAreRefusedAsWritten() {
		set("rdma.counter-sets.a.flow.ether-type", "0x8100");
		assertThat(problems()).singleElement().satisfies((problem) -> {
			assertThat(problem.property()).isEqualTo("rdma.counter-sets.a.flow.ether-type");
			assertThat(problem.value()).isEqualTo("0x8100");
			assertThat(problem.requirement()).contains("rdma.counter-sets.a.flow.vlan-id");
		});
		this.values.clear();
		set("rdma.counter-sets.a.flow.ether-type", "0x8915");
		set("rdma.counter-sets.a.flow.protocol", "tcp");
		assertThat(problems()).singleElement().satisfies((problem) -> {
			assertThat(problem.property()).isEqualTo("rdma.counter-sets.a.flow.ether-type");
			assertThat(problem.requirement()).contains("is not IP");
		});
	}

	private void set(String name, String value) {
		this.values.put(name, value);
	}

	private CounterSetTarget onlySet() {
		List<CounterSetTarget> plan = check();
		assertThat(plan).hasSize(1);
		return plan.get(0);
	}

	private List<Problem> problems() {
		RuntimeException ex = catchThrowableOfType(RuntimeException.class, this::check);
		if (ex instanceof InvalidConfigurationPropertyValueException invalid) {
			return List.of(new Problem(invalid.getName(), invalid.getValue(), invalid.getReason()));
		}
		assertThat(ex).as("check failure").isInstanceOf(InvalidRdmaConfigurationException.class);
		return ((InvalidRdmaConfigurationException) ex).problems();
	}

	private List<CounterSetTarget> check() {
		return new RdmaPropertiesChecks(this.environment).check(bind(this.environment));
	}

	private static RdmaProperties bind(MockEnvironment environment) {
		return Binder.get(environment).bindOrCreate(RdmaProperties.PREFIX, RdmaProperties.class);
	}

}
