package io.github.rdmacounters.sample;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;
import org.springframework.test.context.ActiveProfiles;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.event.RdmaPortStateChangedEvent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link SimulatedLinkFlapper}: the port goes down and comes back, and the
 * traffic of the other devices goes on while it is down.
 */
@ActiveProfiles("faults")
@SpringBootTest(properties = { "sample.link-flap.interval-ms=4000", "sample.link-flap.down-ms=3000",
		"sample.traffic.interval-ms=50", "rdma.read-cache-ttl=100ms" })
class SimulatedLinkFlapperTests {

	@Autowired
	private RdmaRegistry registry;

	@Autowired
	private PortStates states;

	@Test
	void thePortComesBackAndTrafficGoesOnWhileItIsDown() {
		CounterSet storage = this.registry.counterSet("storage");
		assertThat(storage).isNotNull();
		await().atMost(Duration.ofSeconds(15)).until(() -> this.states.last() == PortState.DOWN);
		long atDown = storage.read().value(CounterType.PACKETS);
		await().atMost(Duration.ofSeconds(2))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> storage.read().value(CounterType.PACKETS) > atDown);
		assertThat(this.states.last()).as("the port is still down").isEqualTo(PortState.DOWN);
		await().atMost(Duration.ofSeconds(10)).until(() -> this.states.last() == PortState.ACTIVE);
		assertThat(this.states.changes).startsWith(PortState.DOWN, PortState.ACTIVE);
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Config {

		@Bean
		PortStates portStates() {
			return new PortStates();
		}

	}

	static class PortStates {

		final List<PortState> changes = new CopyOnWriteArrayList<>();

		@EventListener
		void onPortStateChanged(RdmaPortStateChangedEvent event) {
			if (event.getDevice().name().equals("sim_mlx5_0") && event.getPort() == 1) {
				this.changes.add(event.getState());
			}
		}

		PortState last() {
			return this.changes.isEmpty() ? null : this.changes.get(this.changes.size() - 1);
		}

	}

}
