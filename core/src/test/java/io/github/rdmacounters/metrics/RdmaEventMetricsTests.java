package io.github.rdmacounters.metrics;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.DeviceDefinition;
import io.github.rdmacounters.core.DeviceEvent;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.ManagedDeviceFactory;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RdmaEventMetrics}: meters for every port of every managed device.
 *
 * @author rdma-counters
 */
class RdmaEventMetricsTests {

	private final SimulatedBackend backend = new SimulatedBackend(
			List.of(SimulatedDeviceSpec.builder().name("mlx5_0").portCount(2).build(),
					SimulatedDeviceSpec.builder().name("mlx5_1").portCount(3).build()));

	private final ManagedDeviceFactory factory = new ManagedDeviceFactory(this.backend, Duration.ofSeconds(1),
			Clock.systemUTC(), (name) -> null);

	private final ManagedDevice first = this.factory.create(new DeviceDefinition("mlx5_0", List.of(), "rdma"), true);

	private final ManagedDevice second = this.factory.create(new DeviceDefinition("mlx5_1", List.of(), "rdma"), true);

	private final MeterRegistry registry = new SimpleMeterRegistry();

	private final RdmaEventMetrics metrics = new RdmaEventMetrics(new RdmaRegistry(List.of(this.first, this.second)));

	@AfterEach
	void close() {
		this.metrics.close();
		this.first.close();
		this.second.close();
	}

	@Test
	void everyPortOfEveryDeviceHasItsEventCountersAndStateChangeGauge() {
		this.metrics.bindTo(this.registry);
		assertThat(this.registry.find(RdmaEventMetrics.LAST_STATE_CHANGE).timeGauges())
			.extracting((gauge) -> gauge.getId().getTag("device") + "/" + gauge.getId().getTag("port"))
			.containsExactlyInAnyOrder("mlx5_0/1", "mlx5_0/2", "mlx5_1/1", "mlx5_1/2", "mlx5_1/3");
		int portEventTypes = (int) java.util.Arrays.stream(DeviceEvent.Type.values())
			.filter(DeviceEvent.Type::isPortEvent)
			.count();
		assertThat(this.registry.find(RdmaEventMetrics.EVENTS).tag("device", "mlx5_1").functionCounters())
			.hasSize(3 * portEventTypes + 1);
		assertThat(this.registry.find(RdmaEventMetrics.EVENTS)
			.tags("device", "mlx5_0", "event", "device_fatal")
			.functionCounters()).singleElement()
			.satisfies((counter) -> assertThat(counter.getId().getTag("port")).isEqualTo("0"));
	}

	@Test
	void anEventOnAPortThatIsNotTheConfiguredOneIsCountedOnThatPort() {
		this.metrics.bindTo(this.registry);
		this.backend.setPortState("mlx5_1", 3, PortState.DOWN);
		assertThat(this.registry.get(RdmaEventMetrics.EVENTS)
			.tags("device", "mlx5_1", "port", "3", "event", "port_err")
			.functionCounter()
			.count()).isOne();
		assertThat(this.registry.get(RdmaEventMetrics.EVENTS)
			.tags("device", "mlx5_1", "port", "1", "event", "port_err")
			.functionCounter()
			.count()).isZero();
		assertThat(this.registry.get(RdmaEventMetrics.LAST_STATE_CHANGE)
			.tags("device", "mlx5_1", "port", "3")
			.timeGauge()
			.value()).isPositive();
		assertThat(this.registry.get(RdmaEventMetrics.LAST_STATE_CHANGE)
			.tags("device", "mlx5_1", "port", "1")
			.timeGauge()
			.value()).isNaN();
	}

	@Test
	void closeRemovesTheMetersOfEveryPortAndDeviceAndNoOtherMeter() {
		Counter other = Counter.builder("other.meter").register(this.registry);
		this.metrics.bindTo(this.registry);
		List<String> ports = List.of("mlx5_0/1", "mlx5_0/2", "mlx5_1/1", "mlx5_1/2", "mlx5_1/3");
		assertThat(this.registry.find(RdmaEventMetrics.EVENTS).tag("event", "port_err").meters())
			.extracting(RdmaEventMetricsTests::devicePort)
			.containsExactlyInAnyOrderElementsOf(ports);
		assertThat(this.registry.find(RdmaEventMetrics.LAST_STATE_CHANGE).meters())
			.extracting(RdmaEventMetricsTests::devicePort)
			.containsExactlyInAnyOrderElementsOf(ports);
		assertThat(this.registry.find(RdmaEventMetrics.EVENTS).tag("event", "device_fatal").meters())
			.extracting(RdmaEventMetricsTests::devicePort)
			.containsExactlyInAnyOrder("mlx5_0/0", "mlx5_1/0");
		for (String name : List.of(RdmaEventMetrics.FAILED, RdmaEventMetrics.REOPENS)) {
			assertThat(this.registry.find(name).meters()).as(name)
				.extracting((meter) -> meter.getId().getTag("device"))
				.containsExactlyInAnyOrder("mlx5_0", "mlx5_1");
		}

		this.metrics.close();

		assertThat(this.registry.getMeters()).containsExactly(other);
	}

	private static String devicePort(Meter meter) {
		return meter.getId().getTag("device") + "/" + meter.getId().getTag("port");
	}

}
