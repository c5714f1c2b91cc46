package io.github.rdmacounters.verbs;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.rdmacounters.core.CounterPoint;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.Flow;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.core.ReadMode;
import io.github.rdmacounters.testsupport.BoundCounters;
import io.github.rdmacounters.testsupport.FakeVerbs;
import io.github.rdmacounters.testsupport.FakeVerbsExtension;
import io.github.rdmacounters.testsupport.NativeBuildProbe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link NativeDevice}: the query-port paths of {@code verbs.h}, close order,
 * closed-object behaviour and reads racing a close.
 *
 * @author rdma-counters
 */
@ExtendWith(FakeVerbsExtension.class)
class NativeDeviceTests {

	/** The fake marks ports queried through the full-size op with this bit. */
	private static final int FULL_SIZE_MARK = 0x8000;

	private final FakeVerbs fake = FakeVerbs.get();

	private final NativeBackend backend = this.fake.backend();

	@Test
	void queryPortUsesTheFullSizeOpOfAnExtendedContext() {
		this.fake.device("mlx5_0").add();
		try (NativeDevice device = (NativeDevice) this.backend.open("mlx5_0")) {
			IbvPortAttr attr = device.queryPortAttr(1);
			assertThat(attr.port_cap_flags2 & FULL_SIZE_MARK).isEqualTo(FULL_SIZE_MARK);
			assertThat(attr.state).isEqualTo(PortState.ACTIVE.nativeValue());
		}
	}

	@Test
	void queryPortFallsBackToTheExportedCompatSymbolWhenSzHidesTheOp() {
		this.fake.device("mlx5_0").contextSize(NativeBuildProbe.value("needed_sz.query_port") - 1).add();
		try (NativeDevice device = (NativeDevice) this.backend.open("mlx5_0")) {
			IbvPortAttr attr = device.queryPortAttr(1);
			assertThat(attr.port_cap_flags2).isZero();
			assertThat(device.queryPort(1).state()).isEqualTo(PortState.ACTIVE);
			assertThat(device.queryPort(1).activeMtu()).isEqualTo(1024);
		}
	}

	@Test
	void queryPortFallsBackToTheExportedCompatSymbolOnLegacyContext() {
		this.fake.device("mthca0").legacyContext(true).portState(1, PortState.INIT).add();
		try (NativeDevice device = (NativeDevice) this.backend.open("mthca0")) {
			assertThat(device.queryPortAttr(1).port_cap_flags2).isZero();
			assertThat(device.queryPort(1).state()).isEqualTo(PortState.INIT);
		}
	}

	@Test
	void queryFailuresNameVerbAndErrno() {
		this.fake.device("mlx5_0").add();
		try (RdmaDevice device = this.backend.open("mlx5_0")) {
			this.fake.failNext("ibv_query_device", Errno.EIO);
			assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(device::queryDevice)
				.withMessage("ibv_query_device failed: EIO (5) Input/output error: device mlx5_0");
			this.fake.failNext("ibv_query_port", Errno.ENODEV);
			assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(() -> device.queryPort(1))
				.withMessageStartingWith("ibv_query_port failed: ENODEV (19) No such device");
		}
	}

	@Test
	void closeDestroysChildrenBeforeParentsAndLeavesNothingAlive() {
		this.fake.device("mlx5_0").ports(2).add();
		RdmaDevice device = this.backend.open("mlx5_0");
		List<Counters> counters = new ArrayList<>();
		List<Flow> flows = new ArrayList<>();
		for (int port = 1; port <= 2; port++) {
			Counters c = device.createCounters();
			c.attach(CounterType.PACKETS, 0);
			flows.add(device.createFlow(port, FlowSpec.any(), c));
			counters.add(c);
		}
		counters.add(device.createCounters());
		assertThat(this.fake.liveObjects()).as("context, pd, cq, a qp per port, 3 counters, 2 flows").isEqualTo(10);
		device.close();
		assertThat(this.fake.liveObjects()).isZero();
		assertThat(this.fake.misuseCount()).as(this.fake.misuseLog().toString()).isZero();
		assertThat(device.isClosed()).isTrue();
		assertThat(counters).allMatch(Counters::isClosed);
		assertThat(flows).allMatch(Flow::isClosed);
		device.close();
		counters.forEach(Counters::close);
		flows.forEach(Flow::close);
	}

	@Test
	void everyCallAfterCloseThrowsClosedWithoutNativeCall() {
		this.fake.device("mlx5_0").add();
		RdmaDevice device = this.backend.open("mlx5_0");
		Counters counters = BoundCounters.create(device, new CounterPoint(CounterType.PACKETS, 0));
		device.close();
		for (String verb : List.of("ibv_query_device", "ibv_query_port", "ibv_create_counters", "ibv_read_counters",
				"ibv_attach_counters_point_flow", "ibv_create_flow")) {
			this.fake.failAlways(verb, Errno.EIO);
		}
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(device::queryDevice)
			.withMessage("Device mlx5_0 is closed");
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(() -> device.queryPort(1));
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(device::createCounters);
		assertThatExceptionOfType(RdmaClosedException.class)
			.isThrownBy(() -> device.createFlow(1, FlowSpec.any(), counters));
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(() -> counters.read(ReadMode.FRESH))
			.withMessage("Counters on mlx5_0 is closed");
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(() -> counters.attach(CounterType.BYTES, 1));
		this.fake.clearFaults();
	}

	@Test
	void closeWhenCloseDeviceFailsThrowsAndSecondCloseRetries() {
		this.fake.device("mlx5_0").add();
		RdmaDevice device = this.backend.open("mlx5_0");
		this.fake.failNext("ibv_close_device", Errno.EIO);
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(device::close)
			.withMessageStartingWith("ibv_close_device failed: EIO (5)");
		assertThat(device.isClosed()).isTrue();
		assertThat(this.fake.liveObjects()).isEqualTo(1);
		device.close();
		assertThat(this.fake.liveObjects()).isZero();
	}

	@Test
	void countersClosedAfterTheirDeviceClosedTheContextMakeNoNativeCall() {
		this.fake.device("mlx5_0").add();
		RdmaDevice device = this.backend.open("mlx5_0");
		Counters counters = device.createCounters();
		counters.attach(CounterType.PACKETS, 0);
		Flow flow = device.createFlow(1, FlowSpec.any(), counters);
		this.fake.failAlways("ibv_destroy_counters", Errno.EIO);
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(device::close)
			.withMessageStartingWith("ibv_destroy_counters failed: EIO (5)");
		this.fake.clearFaults();
		assertThat(this.fake.liveObjects()).as("ibv_close_device freed the counters").isZero();
		counters.close();
		flow.close();
		device.close();
		assertThat(counters.isClosed()).isTrue();
		assertThat(this.fake.misuseLog()).as("no call on a handle of the closed context")
			.containsExactly("ibv_close_device: 1 objects of the context are still alive");
		this.fake.reset();
	}

	@Test
	void flowAndCountersClosedAfterTheirDeviceClosedTheContextMakeNoNativeCall() {
		this.fake.device("mlx5_0").add();
		RdmaDevice device = this.backend.open("mlx5_0");
		Counters counters = device.createCounters();
		counters.attach(CounterType.PACKETS, 0);
		Flow flow = device.createFlow(1, FlowSpec.any(), counters);
		this.fake.failAlways("ibv_destroy_flow", Errno.EIO);
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(device::close)
			.withMessageStartingWith("ibv_destroy_flow failed: EIO (5)");
		this.fake.clearFaults();
		assertThat(this.fake.liveObjects()).as("ibv_close_device freed every child").isZero();
		List<String> afterDeviceClose = this.fake.misuseLog();
		assertThat(afterDeviceClose).hasSize(1).allMatch((entry) -> entry.startsWith("ibv_close_device: "));
		flow.close();
		counters.close();
		assertThat(flow.isClosed()).isTrue();
		assertThat(counters.isBound()).isFalse();
		assertThat(this.fake.misuseLog()).as("no call on a handle of the closed context").isEqualTo(afterDeviceClose);
		this.fake.reset();
	}

	@Test
	void closeWhenADestroyFailsButTheContextClosesForgetsEveryChild() {
		this.fake.device("mlx5_0").add();
		RdmaDevice device = this.backend.open("mlx5_0");
		Counters counters = BoundCounters.create(device, new CounterPoint(CounterType.PACKETS, 0));
		this.fake.failNext("ibv_destroy_qp", Errno.EIO);
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(device::close)
			.withMessageStartingWith("ibv_destroy_qp failed: EIO (5)");
		int misuse = this.fake.misuseCount();
		device.close();
		counters.close();
		assertThat(this.fake.misuseCount()).as("a second close retries nothing of the freed context").isEqualTo(misuse);
		this.fake.reset();
	}

}
