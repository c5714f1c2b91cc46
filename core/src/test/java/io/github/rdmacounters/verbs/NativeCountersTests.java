package io.github.rdmacounters.verbs;

import java.net.InetAddress;

import com.sun.jna.Memory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.rdmacounters.core.CounterPoint;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.Packet;
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
 * Tests for {@link NativeCounters} and the counters verbs reached through the context's
 * op table, against the fake libibverbs.
 *
 * @author rdma-counters
 */
@ExtendWith(FakeVerbsExtension.class)
class NativeCountersTests {

	private final FakeVerbs fake = FakeVerbs.get();

	private final NativeBackend backend = this.fake.backend();

	private static Packet udp(int port, int length) throws Exception {
		return Packet.udp(InetAddress.getByName("10.0.0.1"), 40000, InetAddress.getByName("10.0.0.2"), port, length);
	}

	@Test
	void createCountersWhereProviderHasDummyOpsFailsWithEopnotsuppNamingMlx5() {
		this.fake.device("rxe0").countersSupported(false).add();
		try (RdmaDevice device = this.backend.open("rxe0")) {
			assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(device::createCounters)
				.withMessageStartingWith("ibv_create_counters failed: EOPNOTSUPP (95) Operation not supported")
				.withMessageContaining("only the mlx5 provider implements flow counters")
				.satisfies((ex) -> assertThat(ex.errno()).isEqualTo(Errno.EOPNOTSUPP))
				.satisfies((ex) -> assertThat(ex.verb()).isEqualTo("ibv_create_counters"));
		}
	}

	@Test
	void createCountersOnLegacyContextFailsWithEopnotsuppLikeTheInline() {
		this.fake.device("mthca0").legacyContext(true).add();
		try (RdmaDevice device = this.backend.open("mthca0")) {
			assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(device::createCounters)
				.withMessageStartingWith("ibv_create_counters failed: EOPNOTSUPP (95)")
				.withMessageContaining("not an extended one");
		}
	}

	@Test
	void createCountersWhenSzIsTooShortForTheOpFailsWithEopnotsupp() {
		long needed = NativeBuildProbe.value("needed_sz.create_counters");
		this.fake.device("mlx5_0").contextSize(needed - 1).add();
		try (RdmaDevice device = this.backend.open("mlx5_0")) {
			assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(device::createCounters)
				.withMessageStartingWith("ibv_create_counters failed: EOPNOTSUPP (95)")
				.withMessageContaining("sz " + (needed - 1))
				.withMessageContaining("needs sz " + needed);
		}
	}

	@Test
	void createCountersWhenSzJustCoversTheOpsWorks() throws Exception {
		this.fake.device("mlx5_0").contextSize(NativeBuildProbe.value("needed_sz.read_counters")).add();
		try (RdmaDevice device = this.backend.open("mlx5_0")) {
			Counters counters = BoundCounters.create(device, new CounterPoint(CounterType.PACKETS, 0));
			this.fake.deliver("mlx5_0", 1, udp(9, 64));
			assertThat(counters.read(ReadMode.FRESH).values()).containsExactly(1);
		}
	}

	@Test
	void createCountersWhenProviderFailsReportsErrno() {
		this.fake.device("mlx5_0").add();
		this.fake.failNext("ibv_create_counters", Errno.ENOMEM);
		try (RdmaDevice device = this.backend.open("mlx5_0")) {
			assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(device::createCounters)
				.withMessage("ibv_create_counters failed: ENOMEM (12) Cannot allocate memory");
			assertThat(device.createCounters().isClosed()).isFalse();
		}
	}

	@Test
	void readAfterCloseThrowsClosedWithoutNativeCall() {
		this.fake.device("mlx5_0").add();
		try (RdmaDevice device = this.backend.open("mlx5_0")) {
			Counters counters = BoundCounters.create(device, new CounterPoint(CounterType.PACKETS, 0));
			counters.close();
			this.fake.failAlways("ibv_read_counters", Errno.EIO);
			this.fake.failAlways("ibv_attach_counters_point_flow", Errno.EIO);
			assertThat(counters.isClosed()).isTrue();
			assertThatExceptionOfType(RdmaClosedException.class)
				.isThrownBy(() -> counters.read(new long[1], ReadMode.FRESH))
				.withMessage("Counters on mlx5_0 is closed");
			assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(() -> counters.read(ReadMode.FRESH));
			assertThatExceptionOfType(RdmaClosedException.class)
				.isThrownBy(() -> counters.attach(CounterType.BYTES, 1));
			assertThatExceptionOfType(RdmaClosedException.class)
				.isThrownBy(() -> device.createFlow(1, FlowSpec.any(), counters));
			this.fake.clearFaults();
		}
		assertThat(this.fake.misuseCount()).isZero();
	}

	@Test
	void closeWhenDestroyFailsThrowsAndDeviceCloseRetries() {
		this.fake.device("mlx5_0").add();
		RdmaDevice device = this.backend.open("mlx5_0");
		Counters counters = device.createCounters();
		this.fake.failNext("ibv_destroy_counters", Errno.EIO);
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(counters::close)
			.withMessageStartingWith("ibv_destroy_counters failed: EIO (5)");
		assertThat(counters.isClosed()).isTrue();
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(() -> counters.read(ReadMode.FRESH));
		device.close();
		assertThat(this.fake.liveObjects()).isZero();
	}

	@Test
	void countersAreUsableWithoutFlowByAdvancedUsersAndCloseCleanly() {
		this.fake.device("mlx5_0").add();
		try (RdmaDevice device = this.backend.open("mlx5_0")) {
			try (Counters counters = device.createCounters()) {
				counters.attach(CounterType.PACKETS, 0);
				assertThat(counters.isBound()).isFalse();
			}
		}
	}

	@Test
	void toStringNamesDeviceAndPointsButNoAddress() {
		this.fake.device("mlx5_0").add();
		try (RdmaDevice device = this.backend.open("mlx5_0")) {
			Counters counters = device.createCounters();
			counters.attach(CounterType.PACKETS, 0);
			var flow = device.createFlow(1,
					FlowSpec.builder()
						.destinationPort(4791)
						.protocol(io.github.rdmacounters.core.L4Protocol.UDP)
						.build(),
					counters);
			assertThat(counters.toString())
				.isEqualTo("Counters on mlx5_0 [CounterPoint[type=PACKETS, index=0]], bound");
			assertThat(flow.toString()).isEqualTo("Flow[flow 'udp dst-port 4791' on mlx5_0 port 1]");
			assertThat(device.toString()).isEqualTo("NativeDevice[mlx5_0]");
			assertThat(counters + " " + flow + " " + device).doesNotContainPattern("(?i)0x[0-9a-f]{6,}|native@");
		}
	}

	@Test
	void readsUsePreparedCallsOnThisPlatformAndFunctionCallsGiveTheSameResults() throws Exception {
		this.fake.device("mlx5_0").add();
		NativeBackend plain = new NativeBackend(this.fake.libraryPath(), false);
		try (RdmaDevice prepared = this.backend.open("mlx5_0"); RdmaDevice unprepared = plain.open("mlx5_0")) {
			NativeCounters fast = (NativeCounters) prepared.createCounters();
			NativeCounters slow = (NativeCounters) unprepared.createCounters();
			assertThat(ReadCountersCall.create(((NativeDevice) prepared).ops().get(VerbsOps.Op.READ_COUNTERS),
					fast.handle().getPointer(), new Memory(Long.BYTES)))
				.as("prepared calls on this platform")
				.isNotNull();
			int priority = 0;
			for (NativeCounters counters : new NativeCounters[] { fast, slow }) {
				counters.attach(CounterType.PACKETS, 0);
				counters.attach(CounterType.BYTES, 2);
				// one table per priority: a packet matches one flow in each
				counters.device().createFlow(1, FlowSpec.builder().priority(priority++).build(), counters);
			}
			this.fake.deliver("mlx5_0", 1, udp(4789, 100));
			this.fake.deliver("mlx5_0", 1, udp(4789, 28));
			for (ReadMode mode : ReadMode.values()) {
				long[] a = new long[3];
				long[] b = new long[3];
				fast.read(a, mode);
				slow.read(b, mode);
				assertThat(a).containsExactly(2, 0, 128).isEqualTo(b);
			}
			for (NativeCounters counters : new NativeCounters[] { fast, slow }) {
				assertThatExceptionOfType(RdmaOperationException.class)
					.isThrownBy(() -> counters.read(new long[2], ReadMode.FRESH))
					.withMessageContaining("need 3 slots, but the array has 2");
			}
		}
	}

	@Test
	void readIntoAShortArrayNeverOverflowsItEvenWhenTheProviderAcceptsTheShortCount() throws Exception {
		this.fake.device("mlx5_0").add();
		try (RdmaDevice device = this.backend.open("mlx5_0")) {
			Counters counters = BoundCounters.create(device, new CounterPoint(CounterType.PACKETS, 0),
					new CounterPoint(CounterType.BYTES, 2));
			this.fake.deliver("mlx5_0", 1, udp(4789, 300));
			long[] shortValues = new long[2];
			assertThatExceptionOfType(RdmaOperationException.class)
				.isThrownBy(() -> counters.read(shortValues, ReadMode.FRESH))
				.withMessageStartingWith("ibv_read_counters failed: EINVAL (22)")
				.withMessageContaining("need 3 slots, but the array has 2");
			this.fake.shortReads(true);
			counters.read(shortValues, ReadMode.FRESH);
			assertThat(shortValues).containsExactly(1, 0);
		}
	}

}
