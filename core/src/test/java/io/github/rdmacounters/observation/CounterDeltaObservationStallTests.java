package io.github.rdmacounters.observation;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.ReadMode;
import io.github.rdmacounters.testsupport.ScriptedDevice;
import io.github.rdmacounters.testsupport.ScriptedDevice.ScriptedCounters;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link CounterDeltaObservationHandler} on a set whose read gets stuck where the native
 * call would be: the observation still stops within the read deadline, and records no
 * delta but a failure. The set counts packets only, so there is no bytes summary.
 *
 * @author rdma-counters
 */
@Timeout(30)
class CounterDeltaObservationStallTests {

	private static final Duration DEADLINE = Duration.ofMillis(100);

	private final CountDownLatch release = new CountDownLatch(1);

	private final ScriptedDevice device = new ScriptedDevice("mlx5_0", "native");

	private final ScriptedCounters counters = (ScriptedCounters) this.device.createCounters();

	private final MeterRegistry meterRegistry = new SimpleMeterRegistry();

	private final ObservationRegistry observations = ObservationRegistry.create();

	CounterDeltaObservationStallTests() {
		this.counters.attach(CounterType.PACKETS, 0);
		this.device.createFlow(1, FlowSpec.any(), this.counters);
		CounterSet set = new CounterSet("nvme", "mlx5_0", 1, FlowSpec.any(), Map.of(CounterType.PACKETS, 0),
				ReadMode.FRESH, this.counters, Duration.ofHours(1), Clock.systemUTC(), DEADLINE);
		this.observations.observationConfig()
			.observationHandler(
					new CounterDeltaObservationHandler(this.meterRegistry, Set.of("checkpoint"), List.of(set)));
	}

	@AfterEach
	void let() {
		this.release.countDown();
	}

	@Test
	void aPacketsOnlySetRecordsPacketsAndRegistersNoBytesSummary() {
		Observation.createNotStarted("checkpoint", this.observations).observe(() -> this.counters.add(3, 0));

		assertThat(this.meterRegistry.get(CounterDeltaObservationHandler.PACKETS)
			.tags("observation", "checkpoint", "set", "nvme", "overlapped", "false")
			.summary()
			.totalAmount()).isEqualTo(3);
		assertThat(this.meterRegistry.find(CounterDeltaObservationHandler.BYTES).meters()).isEmpty();
	}

	@Test
	void aReadStuckAtTheStopEndsTheObservationAtTheDeadlineWithoutADeltaAndCountsAFailure() {
		Observation observation = Observation.createNotStarted("checkpoint", this.observations).start();
		this.counters.add(5, 0);
		this.counters.beforeRead(() -> {
			try {
				this.release.await(20, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		long started = System.nanoTime();
		observation.stop();

		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(DEADLINE.plusMillis(900));
		Counter failures = this.meterRegistry.get(CounterDeltaObservationHandler.READ_FAILURES)
			.tags("observation", "checkpoint", "set", "nvme")
			.counter();
		assertThat(failures.count()).isOne();
		assertThat(this.meterRegistry.get(CounterDeltaObservationHandler.PACKETS)
			.tags("observation", "checkpoint", "set", "nvme", "overlapped", "false")
			.summary()
			.count()).isZero();
		assertThat(observation.getContext().getHighCardinalityKeyValues()).isEmpty();
	}

}
