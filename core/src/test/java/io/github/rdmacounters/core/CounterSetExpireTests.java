package io.github.rdmacounters.core;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.rdmacounters.testsupport.ScriptedDevice;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link CounterSet#expire()}.
 */
class CounterSetExpireTests {

	private final ScriptedDevice device = new ScriptedDevice("mlx5_0", "simulated");

	@Test
	void readAfterExpireReadsTheDeviceDespiteTheTtl() {
		CounterSet set = this.device.counterSet("roce", FlowSpec.any(), Duration.ofHours(1));
		set.read();
		this.device.counters().get(0).add(2, 200);

		set.expire();

		assertThat(set.read().value(CounterType.PACKETS)).isEqualTo(2);
		assertThat(this.device.counters().get(0).reads()).isEqualTo(2);
	}

	@Test
	void readsAfterExpireShareTheNewReadWithinTheTtl() {
		CounterSet set = this.device.counterSet("roce", FlowSpec.any(), Duration.ofHours(1));
		set.read();

		set.expire();
		set.read();
		set.read();

		assertThat(this.device.counters().get(0).reads()).isEqualTo(2);
	}

}
