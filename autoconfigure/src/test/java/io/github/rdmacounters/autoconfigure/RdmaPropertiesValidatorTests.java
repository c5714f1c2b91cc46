package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
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
		assertThat(problems()).extracting(Problem::property, Problem::value).containsExactly(tuple("rdma.port", 0));
		assertThat(problems().get(0).requirement()).contains("1 or more");
	}

	@Test
	void portsWithoutProtocolAreRejected() {
		this.values.put("rdma.counter-sets.roce.flow.destination-port", "4791");
		assertThat(problems()).singleElement().satisfies((problem) -> {
			assertThat(problem.property()).isEqualTo("rdma.counter-sets.roce.flow.protocol");
			assertThat(problem.value()).isNull();
			assertThat(problem.requirement()).contains("tcp or udp");
		});
	}

	@Test
	void badPrefixesAndMacsAreRejectedWithTheParsersReason() {
		this.values.put("rdma.counter-sets.a.flow.source-ip", "10.0.0.0/33");
		this.values.put("rdma.counter-sets.a.flow.destination-ip", "rdma.example");
		this.values.put("rdma.counter-sets.a.flow.source-mac", "02:00:5e:10:00");
		assertThat(problems()).extracting(Problem::property, Problem::value)
			.containsExactly(tuple("rdma.counter-sets.a.flow.source-mac", "02:00:5e:10:00"),
					tuple("rdma.counter-sets.a.flow.source-ip", "10.0.0.0/33"),
					tuple("rdma.counter-sets.a.flow.destination-ip", "rdma.example"));
		assertThat(problems()).extracting(Problem::requirement)
			.anySatisfy((reason) -> assertThat(reason).contains("0 to 32"))
			.anySatisfy((reason) -> assertThat(reason).contains("no host names"))
			.anySatisfy((reason) -> assertThat(reason).contains("six hex octets"));
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
			assertThat(problem.property()).isEqualTo("rdma.counter-sets.a.flow");
			assertThat(problem.requirement()).contains("contradicts").contains("0x0800");
		});
	}

	@Test
	void duplicateAndNegativeCounterIndexesAreRejected() {
		this.values.put("rdma.counter-sets.dup.counters.packets", "0");
		this.values.put("rdma.counter-sets.dup.counters.bytes", "0");
		this.values.put("rdma.counter-sets.neg.counters.packets", "-1");
		assertThat(problems()).extracting(Problem::property, Problem::value)
			.containsExactly(tuple("rdma.counter-sets.dup.counters.bytes", 0),
					tuple("rdma.counter-sets.neg.counters.packets", -1));
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
			InvalidRdmaConfigurationException ex = catchThrowableOfType(InvalidRdmaConfigurationException.class,
					() -> RdmaPropertiesValidator.validate(bind()));
			assertThat(ex).as("rdma.read-cache-ttl=%s", ttl).isNotNull();
			assertThat(ex.problems()).singleElement().satisfies((problem) -> {
				assertThat(problem.property()).isEqualTo("rdma.read-cache-ttl");
				assertThat(problem.requirement()).contains("at least 100ms", "one device read per set");
			});
			assertThat(ex).hasMessageContaining(
					"rdma.read-cache-ttl=" + Duration.parse(ttl.equals("99ms") ? "PT0.099S" : "PT0S"));
		}
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
		for (String name : List.of("rdmaRegistry", "rdmaManagedDevice", "rdmaBackend", "rdmaFlowMetrics")) {
			this.values.clear();
			this.values.put("rdma.counter-sets." + name + ".flow.protocol", "udp");
			assertThat(problems()).singleElement().satisfies((problem) -> {
				assertThat(problem.property()).isEqualTo("rdma.counter-sets." + name);
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
				() -> RdmaPropertiesValidator.validate(bind()));
		assertThat(ex.problems()).hasSize(3);
		assertThat(ex).hasMessageContaining("rdma.port=0")
			.hasMessageContaining("rdma.read-cache-ttl=PT-5S")
			.hasMessageContaining("rdma.counter-sets.a.flow.protocol=(not set)");
	}

	private CounterSetDefinition validateOnlySet() {
		DeviceDefinition plan = RdmaPropertiesValidator.validate(bind());
		assertThat(plan.counterSets()).hasSize(1);
		return plan.counterSets().get(0);
	}

	private List<Problem> problems() {
		InvalidRdmaConfigurationException ex = catchThrowableOfType(InvalidRdmaConfigurationException.class,
				() -> RdmaPropertiesValidator.validate(bind()));
		assertThat(ex).as("validation failure").isNotNull();
		return ex.problems();
	}

	private RdmaProperties bind() {
		RdmaProperties properties = new RdmaProperties();
		new Binder(new MapConfigurationPropertySource(this.values)).bind(RdmaProperties.PREFIX,
				Bindable.ofInstance(properties));
		return properties;
	}

}
