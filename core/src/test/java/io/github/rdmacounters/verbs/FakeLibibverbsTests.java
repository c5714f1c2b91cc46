package io.github.rdmacounters.verbs;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.testsupport.FakeVerbs;
import io.github.rdmacounters.testsupport.FakeVerbsExtension;
import io.github.rdmacounters.testsupport.NativeBuildProbe;
import io.github.rdmacounters.verbs.IbvHandles.IbvContext;
import io.github.rdmacounters.verbs.IbvHandles.IbvCq;
import io.github.rdmacounters.verbs.IbvHandles.IbvDevice;
import io.github.rdmacounters.verbs.IbvHandles.IbvPd;
import io.github.rdmacounters.verbs.IbvHandles.IbvQp;
import io.github.rdmacounters.verbs.VerbsOps.Op;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of the fake libibverbs itself, driven through raw calls the binding never makes:
 * it must behave like mlx5 and the kernel where the binding's API keeps users from going,
 * and it must record misuse instead of accepting it.
 *
 * @author rdma-counters
 */
@ExtendWith(FakeVerbsExtension.class)
class FakeLibibverbsTests {

	private final FakeVerbs fake = FakeVerbs.get();

	private final IbvLibrary lib = Native.load(this.fake.libraryPath(), IbvLibrary.class);

	private IbvContext open(String name) {
		Pointer list = this.lib.ibv_get_device_list(new IntByReference());
		try {
			for (int i = 0;; i++) {
				Pointer device = list.getPointer((long) i * Native.POINTER_SIZE);
				assertThat(device).as("device %s", name).isNotNull();
				if (name.equals(this.lib.ibv_get_device_name(new IbvDevice(device)))) {
					return this.lib.ibv_open_device(new IbvDevice(device));
				}
			}
		}
		finally {
			this.lib.ibv_free_device_list(list);
		}
	}

	private static Function op(IbvContext context, Op op) {
		Function function = VerbsOps.of(context.getPointer()).get(op);
		assertThat(function).as(op.verb()).isNotNull();
		return function;
	}

	private static Pointer createCounters(IbvContext context, int compMask) {
		Memory attr = new Memory(4);
		attr.setInt(0, compMask);
		return (Pointer) op(context, Op.CREATE_COUNTERS).invoke(Pointer.class,
				new Object[] { context.getPointer(), attr });
	}

	private static int attach(IbvContext context, Pointer counters, int description, int index, Pointer flow) {
		Memory attr = new Memory(12);
		attr.setInt(0, description);
		attr.setInt(4, index);
		attr.setInt(8, 0);
		return op(context, Op.ATTACH_COUNTERS_POINT_FLOW).invokeInt(new Object[] { counters, attr, flow });
	}

	private static int read(IbvContext context, Pointer counters, int count, int flags) {
		Memory values = new Memory(8L * Math.max(count, 1));
		return op(context, Op.READ_COUNTERS).invokeInt(new Object[] { counters, values, count, flags });
	}

	private static int destroyCounters(IbvContext context, Pointer counters) {
		return op(context, Op.DESTROY_COUNTERS).invokeInt(new Object[] { counters });
	}

	private int modify(IbvQp qp, int state, int port, int mask) {
		Memory attr = new Memory(RawPacketQueuePairs.QP_ATTR_SIZE);
		attr.clear();
		attr.setInt(RawPacketQueuePairs.QP_ATTR_QP_STATE, state);
		attr.setByte(RawPacketQueuePairs.QP_ATTR_PORT_NUM, (byte) port);
		return this.lib.ibv_modify_qp(qp, attr, mask);
	}

	private static Pointer createFlow(IbvQp qp, int port, Pointer counters) {
		return (Pointer) op(qp.getPointer(), Op.CREATE_FLOW).invoke(Pointer.class,
				new Object[] { qp.getPointer(), FlowEncoder.encode(port, FlowSpec.any(), counters) });
	}

	private static Function op(Pointer qp, Op op) {
		Function function = VerbsOps.of(qp.getPointer(0)).get(op);
		assertThat(function).as(op.verb()).isNotNull();
		return function;
	}

	private final class QueuePair implements AutoCloseable {

		private final IbvPd pd;

		private final IbvCq cq;

		private final IbvQp qp;

		QueuePair(IbvContext context) {
			this(context, 1);
		}

		QueuePair(IbvContext context, int port) {
			FakeLibibverbsTests self = FakeLibibverbsTests.this;
			this.pd = self.lib.ibv_alloc_pd(context);
			this.cq = self.lib.ibv_create_cq(context, 1, null, null, 0);
			IbvQpInitAttr attr = new IbvQpInitAttr();
			attr.send_cq = this.cq.getPointer();
			attr.recv_cq = this.cq.getPointer();
			attr.max_recv_wr = 1;
			attr.max_recv_sge = 1;
			attr.qp_type = IbvLibrary.IBV_QPT_RAW_PACKET;
			this.qp = self.lib.ibv_create_qp(this.pd, attr);
			if (port > 0) {
				assertThat(self.modify(this.qp, IbvLibrary.IBV_QPS_INIT, port,
						IbvLibrary.IBV_QP_STATE | IbvLibrary.IBV_QP_PORT))
					.isZero();
				assertThat(self.modify(this.qp, IbvLibrary.IBV_QPS_RTR, 0, IbvLibrary.IBV_QP_STATE)).isZero();
			}
		}

		@Override
		public void close() {
			FakeLibibverbsTests self = FakeLibibverbsTests.this;
			assertThat(self.lib.ibv_destroy_qp(this.qp)).isZero();
			assertThat(self.lib.ibv_destroy_cq(this.cq)).isZero();
			assertThat(self.lib.ibv_dealloc_pd(this.pd)).isZero();
		}

	}

	@Test
	void createCountersWithCompMaskFailsWithEopnotsupp() {
		this.fake.device("mlx5_0").add();
		IbvContext context = open("mlx5_0");
		assertThat(createCounters(context, 1)).isNull();
		assertThat(Native.getLastError()).isEqualTo(Errno.EOPNOTSUPP);
		assertThat(this.lib.ibv_close_device(context)).isZero();
	}

	@Test
	void attachIsStaticOnlyAndKnowsTwoDescriptions() {
		this.fake.device("mlx5_0").add();
		IbvContext context = open("mlx5_0");
		Pointer counters = createCounters(context, 0);
		assertThat(attach(context, counters, IbvLibrary.IBV_COUNTER_PACKETS, 0, counters)).as("a non-NULL flow")
			.isEqualTo(Errno.EOPNOTSUPP);
		assertThat(attach(context, counters, 2, 0, null)).as("an unknown description").isEqualTo(Errno.EOPNOTSUPP);
		assertThat(attach(context, counters, IbvLibrary.IBV_COUNTER_BYTES, 0, null)).isZero();
		assertThat(destroyCounters(context, counters)).isZero();
		assertThat(this.lib.ibv_close_device(context)).isZero();
	}

	@Test
	void destroyingCountersBoundToAFlowFailsWithEbusyAndReadRejectsUnknownFlags() {
		this.fake.device("mlx5_0").add();
		IbvContext context = open("mlx5_0");
		Pointer counters = createCounters(context, 0);
		assertThat(attach(context, counters, IbvLibrary.IBV_COUNTER_PACKETS, 0, null)).isZero();
		try (QueuePair queuePair = new QueuePair(context)) {
			Pointer flow = (Pointer) op(context, Op.CREATE_FLOW).invoke(Pointer.class,
					new Object[] { queuePair.qp.getPointer(), FlowEncoder.encode(1, FlowSpec.any(), counters) });
			assertThat(flow).isNotNull();
			assertThat(destroyCounters(context, counters)).isEqualTo(Errno.EBUSY);
			assertThat(read(context, counters, 1, 0)).isZero();
			assertThat(read(context, counters, 1, IbvLibrary.IBV_READ_COUNTERS_ATTR_PREFER_CACHED)).isZero();
			assertThat(read(context, counters, 1, 2)).isEqualTo(Errno.EINVAL);
			assertThat(read(context, counters, 0, 0)).isEqualTo(Errno.EINVAL);
			assertThat(this.lib.ibv_destroy_qp(queuePair.qp)).as("a QP with a flow").isEqualTo(Errno.EBUSY);
			assertThat(op(context, Op.DESTROY_FLOW).invokeInt(new Object[] { flow })).isZero();
		}
		assertThat(destroyCounters(context, counters)).isZero();
		assertThat(this.lib.ibv_close_device(context)).isZero();
	}

	@Test
	void flowWithTwoCountActionsFailsWithEinval() {
		this.fake.device("mlx5_0").add();
		IbvContext context = open("mlx5_0");
		Pointer counters = createCounters(context, 0);
		assertThat(attach(context, counters, IbvLibrary.IBV_COUNTER_PACKETS, 0, null)).isZero();
		Memory single = FlowEncoder.encode(1, FlowSpec.any(), counters);
		int size = (int) single.size();
		Memory twice = new Memory(size + FlowEncoder.COUNT_SIZE);
		twice.clear();
		twice.write(0, single.getByteArray(0, size), 0, size);
		twice.write(size, single.getByteArray(size - FlowEncoder.COUNT_SIZE, FlowEncoder.COUNT_SIZE), 0,
				FlowEncoder.COUNT_SIZE);
		twice.setShort(FlowEncoder.ATTR_SIZE_FIELD, (short) (size + FlowEncoder.COUNT_SIZE));
		twice.setByte(FlowEncoder.ATTR_NUM_OF_SPECS, (byte) 3);
		try (QueuePair queuePair = new QueuePair(context)) {
			Object flow = op(context, Op.CREATE_FLOW).invoke(Pointer.class,
					new Object[] { queuePair.qp.getPointer(), twice });
			assertThat(flow).isNull();
			assertThat(Native.getLastError()).isEqualTo(Errno.EINVAL);
		}
		assertThat(destroyCounters(context, counters)).isZero();
		assertThat(this.lib.ibv_close_device(context)).isZero();
	}

	@Test
	void dummyOpsOfNonMlx5ProvidersReturnEopnotsupp() {
		this.fake.device("rxe0").countersSupported(false).add();
		IbvContext context = open("rxe0");
		Memory notACounters = new Memory(8);
		assertThat(createCounters(context, 0)).isNull();
		assertThat(Native.getLastError()).isEqualTo(Errno.EOPNOTSUPP);
		assertThat(attach(context, notACounters, 0, 0, null)).isEqualTo(Errno.EOPNOTSUPP);
		assertThat(read(context, notACounters, 1, 0)).isEqualTo(Errno.EOPNOTSUPP);
		assertThat(destroyCounters(context, notACounters)).isEqualTo(Errno.EOPNOTSUPP);
		assertThat(this.lib.ibv_close_device(context)).isZero();
	}

	@Test
	void callsOnDestroyedHandlesAreRecordedAsMisuseNotAccepted() {
		this.fake.device("mlx5_0").add();
		IbvContext context = open("mlx5_0");
		Pointer counters = createCounters(context, 0);
		assertThat(destroyCounters(context, counters)).isZero();
		assertThat(read(context, counters, 1, 0)).isEqualTo(Errno.EINVAL);
		assertThat(destroyCounters(context, counters)).isEqualTo(Errno.EINVAL);
		assertThat(this.lib.ibv_close_device(context)).isZero();
		assertThat(this.lib.ibv_close_device(context)).isEqualTo(Errno.EINVAL);
		assertThat(this.fake.misuseLog()).containsExactly("read_counters: counters handle used after it was destroyed",
				"destroy_counters: counters handle used after it was destroyed",
				"ibv_close_device: context handle used after it was destroyed");
		assertThat(this.fake.misuseCount()).isEqualTo(3);
		this.fake.reset();
	}

	@Test
	void closingAContextWithLiveChildrenIsRecordedAsMisuseAndFreesThem() {
		this.fake.device("mlx5_0").add();
		IbvContext context = open("mlx5_0");
		Pointer counters = createCounters(context, 0);
		IbvPd pd = this.lib.ibv_alloc_pd(context);
		IbvContext other = open("mlx5_0");
		IbvPd otherPd = this.lib.ibv_alloc_pd(other);
		assertThat(this.lib.ibv_close_device(context)).isZero();
		assertThat(this.fake.misuseLog()).containsExactly("ibv_close_device: 2 objects of the context are still alive");
		assertThat(this.fake.liveDescription()).as("the other context keeps its children").isEqualTo("context, pd");
		assertThat(destroyCounters(context, counters)).isEqualTo(Errno.EINVAL);
		assertThat(this.lib.ibv_dealloc_pd(pd)).isEqualTo(Errno.EINVAL);
		assertThat(this.fake.misuseLog()).containsExactly("ibv_close_device: 2 objects of the context are still alive",
				"destroy_counters: counters handle used after its context was closed",
				"ibv_dealloc_pd: pd handle used after its context was closed");
		assertThat(this.lib.ibv_dealloc_pd(otherPd)).isZero();
		assertThat(this.lib.ibv_close_device(other)).isZero();
		this.fake.reset();
	}

	@Test
	void rawPacketQueuePairMovesResetInitRtrAndTakesFlowsInAnyStateLikeTheKernel() {
		this.fake.device("mlx5_0").ports(2).add();
		IbvContext context = open("mlx5_0");
		Pointer counters = createCounters(context, 0);
		assertThat(attach(context, counters, IbvLibrary.IBV_COUNTER_PACKETS, 0, null)).isZero();
		try (QueuePair queuePair = new QueuePair(context, 0)) {
			IbvQp qp = queuePair.qp;
			// ib_uverbs_ex_create_flow checks the QP type, not its state
			Pointer early = createFlow(qp, 1, counters);
			assertThat(early).as("a flow on a RESET QP").isNotNull();
			assertThat(op(context, Op.DESTROY_FLOW).invokeInt(new Object[] { early })).isZero();
			int state = IbvLibrary.IBV_QP_STATE;
			int port = IbvLibrary.IBV_QP_PORT;
			assertThat(modify(qp, IbvLibrary.IBV_QPS_RTR, 0, state)).as("RESET to RTR").isEqualTo(Errno.EINVAL);
			assertThat(modify(qp, IbvLibrary.IBV_QPS_INIT, 2, state)).as("INIT without port").isEqualTo(Errno.EINVAL);
			assertThat(modify(qp, IbvLibrary.IBV_QPS_INIT, 2, port)).as("no state bit").isEqualTo(Errno.EINVAL);
			assertThat(modify(qp, IbvLibrary.IBV_QPS_INIT, 3, state | port)).as("no port 3").isEqualTo(Errno.EINVAL);
			assertThat(modify(qp, IbvLibrary.IBV_QPS_INIT, 2, state | port)).isZero();
			assertThat(modify(qp, IbvLibrary.IBV_QPS_RTR, 0, state | port)).as("RTR with port").isEqualTo(Errno.EINVAL);
			assertThat(modify(qp, IbvLibrary.IBV_QPS_RTR, 0, state)).isZero();
			assertThat(createFlow(qp, 3, counters)).as("a flow on a port the device lacks").isNull();
			assertThat(Native.getLastError()).isEqualTo(Errno.EINVAL);
			Pointer flow = createFlow(qp, 2, counters);
			assertThat(flow).isNotNull();
			assertThat(this.fake.flows()).containsExactly("mlx5_0 port 2 priority 0 flags 0x2 specs eth,count");
			assertThat(op(context, Op.DESTROY_FLOW).invokeInt(new Object[] { flow })).isZero();
		}
		assertThat(destroyCounters(context, counters)).isZero();
		assertThat(this.lib.ibv_close_device(context)).isZero();
	}

	@Test
	void modifyingADestroyedQueuePairIsRecordedAsMisuse() {
		this.fake.device("mlx5_0").add();
		IbvContext context = open("mlx5_0");
		QueuePair queuePair = new QueuePair(context, 0);
		queuePair.close();
		assertThat(modify(queuePair.qp, IbvLibrary.IBV_QPS_INIT, 1, IbvLibrary.IBV_QP_STATE | IbvLibrary.IBV_QP_PORT))
			.isEqualTo(Errno.EINVAL);
		assertThat(this.fake.misuseLog()).containsExactly("ibv_modify_qp: qp handle used after it was destroyed");
		assertThat(this.lib.ibv_close_device(context)).isZero();
		this.fake.reset();
	}

	@Test
	void anUnfreedDeviceListIsALiveObject() {
		this.fake.device("mlx5_0").add();
		IntByReference count = new IntByReference();
		Pointer list = this.lib.ibv_get_device_list(count);
		assertThat(count.getValue()).isEqualTo(1);
		assertThat(this.fake.liveDescription()).isEqualTo("device list");
		this.lib.ibv_free_device_list(list);
		assertThat(this.fake.liveObjects()).isZero();
	}

	@Test
	void faultsFailTheNextCallOrAllCallsUntilCleared() {
		this.fake.device("mlx5_0").add();
		IbvContext context = open("mlx5_0");
		IbvPortAttr attr = new IbvPortAttr();
		this.fake.failNext("ibv_query_port", Errno.EIO);
		assertThat(this.lib.ibv_query_port(context, (byte) 1, attr)).isEqualTo(Errno.EIO);
		assertThat(this.lib.ibv_query_port(context, (byte) 1, attr)).isZero();
		this.fake.failAlways("ibv_query_port", Errno.ENODEV);
		assertThat(this.lib.ibv_query_port(context, (byte) 1, attr)).isEqualTo(Errno.ENODEV);
		assertThat(this.lib.ibv_query_port(context, (byte) 1, attr)).isEqualTo(Errno.ENODEV);
		this.fake.clearFaults();
		assertThat(this.lib.ibv_query_port(context, (byte) 1, attr)).isZero();
		assertThat(this.lib.ibv_close_device(context)).isZero();
	}

	@Test
	void contextsAreLaidOutAsLibibverbsDoes() {
		this.fake.device("mlx5_0")
			.add()
			.device("old0")
			.legacyContext(true)
			.add()
			.device("short0")
			.contextSize(NativeBuildProbe.value("needed_sz.query_device_ex"))
			.add();
		IbvContext extended = open("mlx5_0");
		IbvContext legacy = open("old0");
		IbvContext shortTable = open("short0");
		assertThat(extended.getPointer().getLong(VerbsOps.ABI_COMPAT_OFFSET)).isEqualTo(-1L);
		assertThat(extended.getPointer().getLong(VerbsOps.SZ_OFFSET))
			.isEqualTo(NativeBuildProbe.value("sizeof(verbs_context)"));
		assertThat(VerbsOps.of(extended.getPointer()).get(Op.QUERY_PORT)).isNotNull();
		assertThat(VerbsOps.of(legacy.getPointer()).extended()).isFalse();
		assertThat(VerbsOps.of(legacy.getPointer()).get(Op.CREATE_FLOW)).isNull();
		VerbsOps shortOps = VerbsOps.of(shortTable.getPointer());
		assertThat(shortOps.get(Op.CREATE_FLOW)).isNotNull();
		assertThat(shortOps.get(Op.DESTROY_FLOW)).isNotNull();
		assertThat(shortOps.get(Op.CREATE_COUNTERS)).isNull();
		assertThat(shortOps.get(Op.QUERY_PORT)).isNull();
		for (IbvContext context : new IbvContext[] { extended, legacy, shortTable }) {
			assertThat(this.lib.ibv_close_device(context)).isZero();
		}
	}

}
