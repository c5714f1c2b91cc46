package io.github.rdmacounters.actuate.health;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.DeviceNotFoundException;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.core.ReadMode;
import io.github.rdmacounters.testsupport.ScriptedDevice;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RdmaHealthIndicator}.
 */
class RdmaHealthIndicatorTests {

	private static final FlowSpec ROCE = FlowSpec.builder().protocol(L4Protocol.UDP).destinationPort(4791).build();

	private final ScriptedDevice device = new ScriptedDevice("mlx5_0", "simulated");

	@Test
	void healthWhenDeviceOpenPortActiveAndSetsReadableIsUp() {
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ZERO);

		Health health = health(new ManagedDevice(this.device, List.of(roce), null));

		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("backend", "simulated")
			.containsEntry("device", "mlx5_0")
			.containsEntry("portStates", Map.of("1", Map.of("state", "ACTIVE", "physicalState", "LinkUp")))
			.doesNotContainKeys("reason", "port", "portState", "physicalState");
		assertThat(setDetails(health, "roce")).containsEntry("status", "UP").containsEntry("failedReads", 0L);
	}

	@Test
	void healthWhenPortIsDownIsDownWithTheReason() {
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ZERO);
		this.device.setPortState(PortState.DOWN);

		Health health = health(new ManagedDevice(this.device, List.of(roce), null));

		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails())
			.containsEntry("portStates", Map.of("1", Map.of("state", "DOWN", "physicalState", "Disabled")))
			.containsEntry("reason", "Port 1 is DOWN (physical state Disabled)");
	}

	@Test
	void healthWhenASetCannotBeReadIsDownWithTheErrno() {
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ZERO);
		this.device.counters().get(0).failReads(new RdmaOperationException("ibv_read_counters", Errno.EINVAL));

		Health health = health(new ManagedDevice(this.device, List.of(roce), null));

		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("reason",
				"Counter set 'roce' could not be read: ibv_read_counters failed: EINVAL (22) Invalid argument");
		assertThat(setDetails(health, "roce")).containsEntry("status", "DOWN")
			.containsEntry("failedReads", 1L)
			.containsEntry("error", "ibv_read_counters failed: EINVAL (22) Invalid argument");
	}

	@Test
	void healthWhenDeviceIsMissingIsDownWithTheCause() {
		ManagedDevice missing = ManagedDevice.unavailable("mlx5_1", "native",
				new DeviceNotFoundException("mlx5_1", List.of("mlx5_0")));

		Health health = health(missing);

		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("backend", "native")
			.containsEntry("device", "mlx5_1")
			.containsEntry("reason", "Device unavailable: No RDMA device named 'mlx5_1'; devices found: mlx5_0");
	}

	@Test
	void healthWhenDeviceIsMissingWithConfiguredSetsIsDownWithTheDeviceReasonAndListsTheSets() {
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ZERO);
		this.device.counters().get(0).failReads(new RdmaOperationException("ibv_read_counters", Errno.ENODEV));
		ManagedDevice missing = ManagedDevice.unavailable("mlx5_1", "native",
				new DeviceNotFoundException("mlx5_1", List.of("mlx5_0")), null, List.of(roce));

		Health health = health(missing);

		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("reason",
				"Device unavailable: No RDMA device named 'mlx5_1'; devices found: mlx5_0");
		assertThat(setDetails(health, "roce")).containsEntry("status", "DOWN")
			.containsEntry("failedReads", 1L)
			.containsEntry("error", "ibv_read_counters failed: ENODEV (19) No such device");
	}

	@Test
	void closingAnUnavailableDeviceClosesItsSetsAndClosingAgainIsHarmless() {
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ZERO);
		ManagedDevice missing = ManagedDevice.unavailable("mlx5_1", "native",
				new DeviceNotFoundException("mlx5_1", List.of("mlx5_0")), null, List.of(roce));

		missing.close();
		missing.close();

		assertThat(this.device.counters().get(0).isClosed()).isTrue();
		assertThat(missing.counterSets()).containsExactly(roce);
	}

	@Test
	void healthWhenPortQueryFailsIsDown() {
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ZERO);
		this.device.failPortQuery(new RdmaOperationException("ibv_query_port", Errno.EIO));

		Health health = health(new ManagedDevice(this.device, List.of(roce), null));

		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("reason",
				"Port 1 could not be queried: ibv_query_port failed: EIO (5) Input/output error");
	}

	@Test
	void healthAfterCloseIsDownWithoutReadingTheDevice() {
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ZERO);
		ManagedDevice managed = new ManagedDevice(this.device, List.of(roce), null);
		managed.close();

		Health health = health(managed);

		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("reason", "Device mlx5_0 is closed");
		assertThat(this.device.counters().get(0).reads()).isZero();
	}

	@Test
	void healthChecksWithinTheReadCacheTtlShareOneDeviceRead() {
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ofMinutes(1));
		RdmaHealthIndicator indicator = new RdmaHealthIndicator(new ManagedDevice(this.device, List.of(roce), null));
		roce.read();

		indicator.health();
		indicator.health();

		assertThat(this.device.counters().get(0).reads()).isEqualTo(1);
	}

	@Test
	void healthOfSetsOnTwoPortsReportsTheStateOfEachPortTheyCountOn() {
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ZERO);
		CounterSet storage = counterSet(this.device, "storage", 2);

		Health health = health(new ManagedDevice(this.device, List.of(roce, storage), null));

		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("portStates",
				Map.of("1", Map.of("state", "ACTIVE", "physicalState", "LinkUp"), "2",
						Map.of("state", "ACTIVE", "physicalState", "LinkUp")));
		assertThat(setDetails(health, "storage")).containsEntry("status", "UP");
	}

	@Test
	void healthWhenBothPortsAreDownNamesEachPortInTheReason() {
		CounterSet roce = this.device.counterSet("roce", ROCE, Duration.ZERO);
		CounterSet storage = counterSet(this.device, "storage", 2);
		this.device.setPortState(PortState.DOWN);

		Health health = health(new ManagedDevice(this.device, List.of(roce, storage), null));

		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("reason",
				"Port 1 is DOWN (physical state Disabled); Port 2 is DOWN (physical state Disabled)");
	}

	@Test
	void healthOfADeviceWithoutCounterSetsReportsNoPortStates() {
		Health health = health(new ManagedDevice(this.device, List.of(), null));

		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("portStates", Map.of()).containsEntry("counterSets", Map.of());
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> setDetails(Health health, String set) {
		Map<String, Object> sets = (Map<String, Object>) health.getDetails().get("counterSets");
		return (Map<String, Object>) sets.get(set);
	}

	/**
	 * A set with a packets and a bytes counter fed by a RoCE flow on the given port.
	 */
	private static CounterSet counterSet(RdmaDevice device, String name, int port) {
		Counters handle = device.createCounters();
		handle.attach(CounterType.PACKETS, 0);
		handle.attach(CounterType.BYTES, 1);
		device.createFlow(port, ROCE, handle);
		return new CounterSet(name, device.name(), port, ROCE, Map.of(CounterType.PACKETS, 0, CounterType.BYTES, 1),
				ReadMode.FRESH, handle, Duration.ZERO, Clock.systemUTC());
	}

	private static Health health(ManagedDevice device) {
		Health health = new RdmaHealthIndicator(device).health();
		assertThat(health).isNotNull();
		return health;
	}

}
