package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.DeviceDefinition;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException.Problem;
import io.github.rdmacounters.core.IpPrefix;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.MacAddress;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.ReadMode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Tests for binding {@link RdmaProperties} and {@link RdmaPropertiesValidator}.
 *
 * @author rdma-counters
 */
class RdmaPropertiesValidatorTests {

	private final Map<String, String> values = new LinkedHashMap<>();

	@Test
	void defaultsDescribeOneDeviceOnPortOneWithoutSets() {
		RdmaProperties properties = new RdmaProperties();
		assertThat(properties.isEnabled()).isTrue();
		assertThat(properties.getBackend()).isEqualTo(RdmaProperties.Backend.NATIVE);
		assertThat(properties.getNative().getLibrary()).isEqualTo("libibverbs.so.1");
		assertThat(properties.getReadCacheTtl()).isEqualTo(Duration.ofSeconds(1));
		assertThat(properties.isFailOnUnavailable()).isTrue();
		assertThat(properties.getPortCounters().getSysfsRoot()).isEqualTo("/sys/class/infiniband");
		DeviceDefinition plan = RdmaPropertiesValidator.validate(properties);
		assertThat(plan.device()).isNull();
		assertThat(plan.port()).isEqualTo(1);
		assertThat(plan.counterSets()).isEmpty();
	}

	@Test
	void setWithoutCountersCountsPacketsAtZeroAndBytesAtOneWithDontTrapAndFreshReads() {
		this.values.put("rdma.device", "mlx5_0");
		this.values.put("rdma.counter-sets.roce.flow.protocol", "udp");
		this.values.put("rdma.counter-sets.roce.flow.destination-port", "4791");
		CounterSetDefinition set = validateOnlySet();
		assertThat(set.name()).isEqualTo("roce");
		assertThat(set.indexes()).containsExactly(Map.entry(CounterType.PACKETS, 0), Map.entry(CounterType.BYTES, 1));
		assertThat(set.readMode()).isEqualTo(ReadMode.FRESH);
		assertThat(set.spec().dontTrap()).isTrue();
		assertThat(set.spec().protocol()).isEqualTo(L4Protocol.UDP);
		assertThat(set.spec().destinationPort()).isEqualTo(Packet.ROCE_V2_PORT);
	}

	@Test
	void everyFlowFieldBindsIntoTheFlowSpec() {
		String prefix = "rdma.counter-sets.full.";
		this.values.put(prefix + "counters.bytes", "0");
		this.values.put(prefix + "read-mode", "prefer-cached");
		this.values.put(prefix + "flow.source-mac", "02:00:5e:10:00:01");
		this.values.put(prefix + "flow.destination-mac", "02-00-5E-10-00-02");
		this.values.put(prefix + "flow.vlan-id", "100");
		this.values.put(prefix + "flow.source-ip", "fd00::/64");
		this.values.put(prefix + "flow.destination-ip", "fd00:1::1");
		this.values.put(prefix + "flow.protocol", "TCP");
		this.values.put(prefix + "flow.source-port", "5000");
		this.values.put(prefix + "flow.destination-port", "6000");
		this.values.put(prefix + "flow.priority", "3");
		this.values.put(prefix + "flow.dont-trap", "false");
		CounterSetDefinition set = validateOnlySet();
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
	void yamlInTheDocumentedShapeBindsEveryProperty() throws IOException {
		List<PropertySource<?>> sources = new YamlPropertySourceLoader().load("rdma-full.yml",
				new ClassPathResource("rdma-full.yml", getClass()));
		RdmaProperties properties = new RdmaProperties();
		new Binder(ConfigurationPropertySources.from(sources)).bind(RdmaProperties.PREFIX,
				Bindable.ofInstance(properties));
		assertThat(properties.getReadCacheTtl()).isEqualTo(Duration.ofMillis(500));
		assertThat(properties.getPortCounters().getInclude()).containsExactly("port_*");
		assertThat(properties.getPortCounters().getExclude()).containsExactly("port_xmit_wait");
		DeviceDefinition plan = RdmaPropertiesValidator.validate(properties);
		assertThat(plan.device()).isEqualTo("mlx5_0");
		assertThat(plan.counterSets()).extracting(CounterSetDefinition::name).containsExactly("roce", "rocev1");
		CounterSetDefinition roce = plan.counterSets().get(0);
		assertThat(roce.indexes()).containsExactly(Map.entry(CounterType.PACKETS, 0), Map.entry(CounterType.BYTES, 1));
		assertThat(roce.spec().describe()).isEqualTo("src 10.0.0.0/24 dst 10.0.1.0/24 udp dst-port 4791");
		CounterSetDefinition rocev1 = plan.counterSets().get(1);
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
		this.values.put("rdma.counter-sets.rocev1.flow.ether-type", "0x8915");
		assertThat(validateOnlySet().spec().etherType()).isEqualTo(0x8915);
	}

	@Test
	void blankDeviceMeansTheOnlyDevice() {
		this.values.put("rdma.device", " ");
		assertThat(RdmaPropertiesValidator.validate(bind()).device()).isNull();
	}

	@Test
	void portZeroIsRejectedNamingPropertyValueAndRange() {
		this.values.put("rdma.port", "0");
		assertThat(problems()).extracting(Problem::property, Problem::value).containsExactly(tuple("rdma.port", "0"));
		assertThat(problems().get(0).requirement()).contains("1 to 255");
	}

	@Test
	void portsWithoutProtocolAreRejectedNamingThePortAsWritten() {
		this.values.put("rdma.counter-sets.roce.flow.destination-port", "4791");
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
			this.values.clear();
			this.values.put(property, value);
			BindException ex = catchThrowableOfType(BindException.class, this::bind);
			assertThat(ex).as(property).isNotNull();
			assertThat(ex.getProperty().getName().toString()).isEqualTo(property);
			assertThat(ex.getProperty().getValue()).isEqualTo(value);
			assertThat(ex).rootCause().hasMessageContaining(reasons.get(value));
		});
	}

	@Test
	void mixedIpFamiliesAreRejected() {
		this.values.put("rdma.counter-sets.a.flow.source-ip", "10.0.0.0/8");
		this.values.put("rdma.counter-sets.a.flow.destination-ip", "fd00::/64");
		assertThat(problems()).singleElement()
			.satisfies((problem) -> assertThat(problem.requirement()).contains("same IP family"));
	}

	@Test
	void etherTypeContradictingThePrefixIsRejected() {
		this.values.put("rdma.counter-sets.a.flow.ether-type", "0x86dd");
		this.values.put("rdma.counter-sets.a.flow.source-ip", "10.0.0.0/8");
		assertThat(problems()).singleElement().satisfies((problem) -> {
			assertThat(problem.property()).isEqualTo("rdma.counter-sets.a.flow.ether-type");
			assertThat(problem.value()).isEqualTo("0x86dd");
			assertThat(problem.requirement()).contains("must match the IPv4 prefix 10.0.0.0/8").contains("0x0800");
		});
	}

	@Test
	void duplicateAndNegativeCounterIndexesAreRejected() {
		this.values.put("rdma.counter-sets.dup.counters.packets", "0");
		this.values.put("rdma.counter-sets.dup.counters.bytes", "0");
		this.values.put("rdma.counter-sets.neg.counters.packets", "-1");
		assertThat(problems()).extracting(Problem::property, Problem::value)
			.containsExactly(tuple("rdma.counter-sets.dup.counters.bytes", "0"),
					tuple("rdma.counter-sets.neg.counters.packets", "-1"));
		assertThat(problems().get(0).requirement()).contains("already used by packets");
		assertThat(problems().get(1).requirement()).contains("0 to " + RdmaPropertiesValidator.MAX_COUNTER_INDEX);
	}

	@Test
	void outOfRangeFlowNumbersAreRejected() {
		this.values.put("rdma.counter-sets.a.flow.vlan-id", "4096");
		this.values.put("rdma.counter-sets.a.flow.ether-type", "70000");
		this.values.put("rdma.counter-sets.a.flow.priority", "-1");
		this.values.put("rdma.counter-sets.a.flow.protocol", "udp");
		this.values.put("rdma.counter-sets.a.flow.source-port", "65536");
		assertThat(problems()).extracting(Problem::property)
			.containsExactly("rdma.counter-sets.a.flow.ether-type", "rdma.counter-sets.a.flow.vlan-id",
					"rdma.counter-sets.a.flow.source-port", "rdma.counter-sets.a.flow.priority");
	}

	@Test
	void negativeReadCacheTtlIsRejected() {
		this.values.put("rdma.read-cache-ttl", "-1s");
		assertThat(problems()).extracting(Problem::property).containsExactly("rdma.read-cache-ttl");
	}

	@Test
	void readCacheTtlBelowOneHundredMillisecondsIsRejectedNamingTheMinimumAndWhy() {
		for (String ttl : List.of("0", "0ms", "99ms")) {
			this.values.put("rdma.read-cache-ttl", ttl);
			InvalidConfigurationPropertyValueException ex = catchThrowableOfType(
					InvalidConfigurationPropertyValueException.class, this::validate);
			assertThat(ex).as("rdma.read-cache-ttl=%s", ttl).isNotNull();
			assertThat(ex.getName()).isEqualTo("rdma.read-cache-ttl");
			assertThat(ex.getValue()).as("the value as written").isEqualTo(ttl);
			assertThat(ex.getReason()).contains("at least 100ms", "one device read per set");
		}
	}

	@Test
	void readCacheTtlBeyondTenMinutesIsRejectedAsWrittenWithTheReason() {
		this.values.put("rdma.read-cache-ttl", "100000d");
		assertThat(problems()).singleElement().satisfies((problem) -> {
			assertThat(problem.property()).isEqualTo("rdma.read-cache-ttl");
			assertThat(problem.value()).isEqualTo("100000d");
			assertThat(problem.requirement()).contains("at most 10m", "stale values");
		});
	}

	@Test
	void emptyBackendIsRejectedInsteadOfMeaningNative() {
		this.values.put("rdma.backend", "");
		assertThat(problems()).singleElement().satisfies((problem) -> {
			assertThat(problem.property()).isEqualTo("rdma.backend");
			assertThat(problem.value()).isEqualTo("");
			assertThat(problem.requirement()).contains("native", "simulated");
		});
	}

	@Test
	void simulatedPortsBeyondTheEightBitPortNumberAreRejected() {
		this.values.put("rdma.backend", "simulated");
		this.values.put("rdma.simulated.ports", "100000");
		assertThat(problems()).extracting(Problem::property, Problem::value)
			.containsExactly(tuple("rdma.simulated.ports", "100000"));
	}

	@Test
	void portCounterGlobThatCanMatchNoCounterIsRejectedNamingTheEntry() {
		this.values.put("rdma.port-counters.include", "port_*,[");
		assertThat(problems()).singleElement().satisfies((problem) -> {
			assertThat(problem.property()).isEqualTo("rdma.port-counters.include[1]");
			assertThat(problem.value()).isEqualTo("[");
			assertThat(problem.requirement()).contains("'*' (any run) and '?'");
		});
	}

	@Test
	void readCacheTtlOfOneHundredMillisecondsIsAccepted() {
		this.values.put("rdma.read-cache-ttl", "100ms");
		RdmaProperties properties = bind();
		RdmaPropertiesValidator.validate(properties);
		assertThat(properties.getReadCacheTtl()).isEqualTo(Duration.ofMillis(100));
	}

	@Test
	void counterSetNamedLikeOneOfTheStartersBeansIsRejected() {
		for (String name : List.of("rdmaRegistry", "rdmaManagedDevice", "rdmaBackend", "rdmaFlowMetrics",
				"rdmaPropertiesChecks", "rdmaCountersBeanRegistrar", "rdmaEventPublisher", "rdmaEventMetrics", "rdmaUi",
				"rdmaUiRoutes")) {
			this.values.clear();
			this.values.put("rdma.counter-sets." + name + ".flow.protocol", "udp");
			assertThat(problems()).singleElement().satisfies((problem) -> {
				assertThat(problem.property()).isEqualTo("rdma.counter-sets." + name);
				assertThat(problem.value()).isEqualTo(name);
				assertThat(problem.requirement()).contains("starter's own beans", "choose another set name");
			});
		}
	}

	@Test
	void simulatedPortBeyondTheSimulatedPortsIsRejected() {
		this.values.put("rdma.backend", "simulated");
		this.values.put("rdma.simulated.ports", "2");
		this.values.put("rdma.port", "3");
		assertThat(problems()).singleElement().satisfies((problem) -> {
			assertThat(problem.property()).isEqualTo("rdma.port");
			assertThat(problem.requirement()).contains("1 to 2");
		});
	}

	@Test
	void blankLibraryAndBadSimulatedDeviceAreRejectedForTheirBackend() {
		this.values.put("rdma.native.library", "");
		assertThat(problems()).extracting(Problem::property).containsExactly("rdma.native.library");
		this.values.put("rdma.backend", "simulated");
		this.values.put("rdma.simulated.ports", "0");
		this.values.put("rdma.simulated.device-name", "../sim");
		assertThat(problems()).extracting(Problem::property)
			.containsExactly("rdma.simulated.device-name", "rdma.simulated.ports");
	}

	@Test
	void everyProblemIsListedInOneException() {
		this.values.put("rdma.port", "0");
		this.values.put("rdma.read-cache-ttl", "-5s");
		this.values.put("rdma.counter-sets.a.flow.source-port", "1");
		InvalidRdmaConfigurationException ex = catchThrowableOfType(InvalidRdmaConfigurationException.class,
				this::validate);
		assertThat(ex.problems()).hasSize(3);
		assertThat(ex).hasMessageContaining("rdma.port=0")
			.hasMessageContaining("rdma.read-cache-ttl=-5s")
			.hasMessageContaining("rdma.counter-sets.a.flow.source-port=1");
	}

	private CounterSetDefinition validateOnlySet() {
		DeviceDefinition plan = validate();
		assertThat(plan.counterSets()).hasSize(1);
		return plan.counterSets().get(0);
	}

	private List<Problem> problems() {
		RuntimeException ex = catchThrowableOfType(RuntimeException.class, this::validate);
		if (ex instanceof InvalidConfigurationPropertyValueException invalid) {
			return List.of(new Problem(invalid.getName(), invalid.getValue(), invalid.getReason()));
		}
		assertThat(ex).as("validation failure").isInstanceOf(InvalidRdmaConfigurationException.class);
		return ((InvalidRdmaConfigurationException) ex).problems();
	}

	private DeviceDefinition validate() {
		return RdmaPropertiesValidator.validate(bind(), this.values::get);
	}

	private RdmaProperties bind() {
		RdmaProperties properties = new RdmaProperties();
		new Binder(new MapConfigurationPropertySource(this.values)).bind(RdmaProperties.PREFIX,
				Bindable.ofInstance(properties));
		return properties;
	}

}
