package io.github.rdmacounters.core;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.InvalidRdmaConfigurationException.Problem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Tests for
 * {@link CounterSetDefinition#of(String, String, Integer, Map, ReadMode, FlowSpec.Builder)}.
 */
class CounterSetDefinitionTests {

	private static final String SET = "rdma.counter-sets.web";

	@Test
	void ofWithoutCountersOrPortHasTheDefaultCountersOnTheFirstActivePort() {
		CounterSetDefinition set = CounterSetDefinition.of(SET, "web", null, Map.of(), ReadMode.FRESH,
				FlowSpec.builder(SET + ".flow").protocol(L4Protocol.TCP).destinationPort(443));

		assertThat(set.indexes()).isEqualTo(CounterSetDefinition.DEFAULT_COUNTERS);
		assertThat(set.port()).isEqualTo(CounterSetDefinition.FIRST_ACTIVE_PORT);
		assertThat(set.spec().destinationPort()).isEqualTo(443);
	}

	@Test
	void ofReportsEveryProblemOfTheSetAndItsFlowUnderTheirProperties() {
		Map<CounterType, Integer> counters = new LinkedHashMap<>();
		counters.put(CounterType.PACKETS, 3);
		counters.put(CounterType.BYTES, 3);

		assertThatExceptionOfType(InvalidRdmaConfigurationException.class)
			.isThrownBy(() -> CounterSetDefinition.of(SET, "9web", 256, counters, ReadMode.FRESH,
					FlowSpec.builder(SET + ".flow").vlanId(4096)))
			.satisfies((ex) -> assertThat(ex.problems()).extracting(Problem::property, Problem::value)
				.containsExactly(tuple(SET, "9web"), tuple(SET + ".port", 256), tuple(SET + ".counters.bytes", 3),
						tuple(SET + ".flow.vlan-id", 4096)))
			.satisfies((ex) -> assertThat(ex.problems().get(2).requirement())
				.isEqualTo("index 3 is already used by packets; give each counter type its own index"));
	}

	@Test
	void ofRefusesACounterIndexAboveTheHighest() {
		assertThatExceptionOfType(InvalidRdmaConfigurationException.class)
			.isThrownBy(() -> CounterSetDefinition.of(SET, "web", 1,
					Map.of(CounterType.PACKETS, CounterSetDefinition.MAX_COUNTER_INDEX + 1), ReadMode.FRESH,
					FlowSpec.builder(SET + ".flow")))
			.withMessageContaining(SET + ".counters.packets=256: must be an index from 0 to 255");
	}

}
