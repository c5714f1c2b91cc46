package io.github.rdmacounters.core;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.testsupport.LogCapture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DeviceEventTracker}: the port state the last PORT_ACTIVE or PORT_ERR
 * set, the counts per port and type, failure and reopen bookkeeping, the log level of
 * each event, and that listeners see an event after the tracker took it into account.
 *
 * @author rdma-counters
 */
class DeviceEventTrackerTests {

	private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

	private final DeviceEventTracker tracker = new DeviceEventTracker("mlx5_0");

	private final LogCapture log = LogCapture.of(DeviceEventTracker.class);

	@AfterEach
	void closeLog() {
		this.log.close();
	}

	@Test
	void portErrAndPortActiveSetTheStateOfTheirPortWithTheEventsTime() {
		assertThat(this.tracker.device()).isEqualTo("mlx5_0");
		this.tracker.onEvent(event(DeviceEvent.Type.PORT_ERR, 2, T0));
		assertThat(this.tracker.portState(2))
			.isEqualTo(new PortEventState(2, PortState.DOWN, T0, DeviceEvent.Type.PORT_ERR));
		assertThat(this.tracker.portState(1)).isNull();
		this.tracker.onEvent(event(DeviceEvent.Type.PORT_ACTIVE, 2, T0.plusSeconds(3)));
		assertThat(this.tracker.portState(2))
			.isEqualTo(new PortEventState(2, PortState.ACTIVE, T0.plusSeconds(3), DeviceEvent.Type.PORT_ACTIVE));
	}

	@Test
	void otherEventsChangeNoPortState() {
		this.tracker.onEvent(event(DeviceEvent.Type.PORT_ERR, 1, T0));
		this.tracker.onEvent(event(DeviceEvent.Type.LID_CHANGE, 1, T0.plusSeconds(1)));
		this.tracker.onEvent(event(DeviceEvent.Type.SM_CHANGE, 2, T0.plusSeconds(1)));
		this.tracker.onEvent(event(DeviceEvent.Type.DEVICE_FATAL, 0, T0.plusSeconds(2)));
		assertThat(this.tracker.portState(1).state()).isEqualTo(PortState.DOWN);
		assertThat(this.tracker.portState(2)).isNull();
		assertThat(this.tracker.portState(0)).isNull();
		assertThat(this.tracker.failure()).as("DEVICE_FATAL alone is recorded by the supervisor").isNull();
	}

	@Test
	void eachEventIsCountedByPortAndType() {
		this.tracker.onEvent(event(DeviceEvent.Type.PORT_ERR, 1, T0));
		this.tracker.onEvent(event(DeviceEvent.Type.PORT_ERR, 1, T0));
		this.tracker.onEvent(event(DeviceEvent.Type.PORT_ACTIVE, 1, T0));
		this.tracker.onEvent(event(DeviceEvent.Type.GID_CHANGE, 2, T0));
		this.tracker.onEvent(event(DeviceEvent.Type.DEVICE_FATAL, 0, T0));
		assertThat(this.tracker.count(1, DeviceEvent.Type.PORT_ERR)).isEqualTo(2);
		assertThat(this.tracker.count(1, DeviceEvent.Type.PORT_ACTIVE)).isOne();
		assertThat(this.tracker.count(2, DeviceEvent.Type.PORT_ERR)).isZero();
		assertThat(this.tracker.count(0, DeviceEvent.Type.DEVICE_FATAL)).isOne();
		assertThat(this.tracker.counts()).containsExactly(Map.entry(0, Map.of(DeviceEvent.Type.DEVICE_FATAL, 1L)),
				Map.entry(1, Map.of(DeviceEvent.Type.PORT_ERR, 2L, DeviceEvent.Type.PORT_ACTIVE, 1L)),
				Map.entry(2, Map.of(DeviceEvent.Type.GID_CHANGE, 1L)));
		assertThat(this.tracker.counts().get(1).keySet()).as("by type, in declaration order")
			.containsExactly(DeviceEvent.Type.PORT_ACTIVE, DeviceEvent.Type.PORT_ERR);
	}

	@Test
	void portErrAndDeviceFatalAreLoggedAtWarnPortActiveAtInfoTheOthersAtDebug() {
		this.tracker.onEvent(event(DeviceEvent.Type.PORT_ERR, 1, T0));
		this.tracker.onEvent(event(DeviceEvent.Type.PORT_ACTIVE, 1, T0));
		this.tracker.onEvent(event(DeviceEvent.Type.DEVICE_FATAL, 0, T0));
		this.tracker.onEvent(event(DeviceEvent.Type.PKEY_CHANGE, 2, T0));
		assertThat(this.log.messages(Level.WARNING)).containsExactly(
				"RDMA IBV_EVENT_PORT_ERR on mlx5_0 port 1: the port left ACTIVE (link down)",
				"RDMA IBV_EVENT_DEVICE_FATAL on mlx5_0: the device is unusable and will be reopened when it is present again");
		assertThat(this.log.messages(Level.INFO))
			.containsExactly("RDMA IBV_EVENT_PORT_ACTIVE on mlx5_0 port 1: the port is ACTIVE");
		assertThat(this.log.messages(Level.FINE)).containsExactly("RDMA IBV_EVENT_PKEY_CHANGE on mlx5_0 port 2");
	}

	@Test
	void listenersGetEachEventAfterTheTrackerTookItIntoAccountUntilRemoved() {
		List<String> seen = new ArrayList<>();
		DeviceEventListener listener = (event) -> seen.add(event.type() + " "
				+ this.tracker.count(event.port(), event.type()) + " " + this.tracker.portState(event.port()));
		this.tracker.addListener(listener);
		this.tracker.onEvent(event(DeviceEvent.Type.PORT_ERR, 1, T0));
		this.tracker.removeListener(listener);
		this.tracker.onEvent(event(DeviceEvent.Type.PORT_ACTIVE, 1, T0));
		assertThat(seen)
			.containsExactly("PORT_ERR 1 " + new PortEventState(1, PortState.DOWN, T0, DeviceEvent.Type.PORT_ERR));
	}

	@Test
	void aFailureIsRecordedUntilTheReopenWhichForgetsThePortStates() {
		assertThat(this.tracker.failure()).isNull();
		assertThat(this.tracker.failedAt()).isNull();
		assertThat(this.tracker.failures()).isZero();
		assertThat(this.tracker.reopens()).isZero();
		this.tracker.onEvent(event(DeviceEvent.Type.PORT_ERR, 1, T0));
		Instant before = Instant.now();
		this.tracker.failed("IBV_EVENT_DEVICE_FATAL");
		assertThat(this.tracker.failure()).isEqualTo("IBV_EVENT_DEVICE_FATAL");
		assertThat(this.tracker.failedAt()).isBetween(before, Instant.now());
		assertThat(this.tracker.failures()).isOne();
		assertThat(this.tracker.portState(1)).as("kept while failed").isNotNull();
		assertThat(this.log.messages(Level.WARNING))
			.contains("RDMA device mlx5_0 failed (IBV_EVENT_DEVICE_FATAL); reopening it");
		this.tracker.reopened();
		assertThat(this.tracker.failure()).isNull();
		assertThat(this.tracker.failedAt()).as("when it last failed").isNotNull();
		assertThat(this.tracker.reopens()).isOne();
		assertThat(this.tracker.portState(1)).as("unknown again after the reopen").isNull();
		assertThat(this.tracker.count(1, DeviceEvent.Type.PORT_ERR)).as("counts are kept").isOne();
		assertThat(this.log.messages(Level.INFO))
			.containsExactly("RDMA device mlx5_0 is back: reopened with its counter sets");
		this.tracker.failed("ibv_read_counters failed: EIO");
		this.tracker.reopened();
		assertThat(this.tracker.failures()).isEqualTo(2);
		assertThat(this.tracker.reopens()).isEqualTo(2);
	}

	private static DeviceEvent event(DeviceEvent.Type type, int port, Instant time) {
		return new DeviceEvent("mlx5_0", port, type, time);
	}

}
