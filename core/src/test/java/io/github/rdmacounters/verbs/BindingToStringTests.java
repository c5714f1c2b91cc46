package io.github.rdmacounters.verbs;

import java.util.ArrayList;
import java.util.List;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.PointerType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.Flow;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.testsupport.FakeVerbs;
import io.github.rdmacounters.testsupport.FakeVerbsExtension;
import io.github.rdmacounters.verbs.IbvHandles.IbvContext;
import io.github.rdmacounters.verbs.IbvHandles.IbvCounters;
import io.github.rdmacounters.verbs.IbvHandles.IbvCq;
import io.github.rdmacounters.verbs.IbvHandles.IbvDevice;
import io.github.rdmacounters.verbs.IbvHandles.IbvFlow;
import io.github.rdmacounters.verbs.IbvHandles.IbvPd;
import io.github.rdmacounters.verbs.IbvHandles.IbvQp;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that no object of the binding shows a native address in its {@code toString()}:
 * devices, counters, flows, typed handles and structures.
 *
 * @author rdma-counters
 */
@ExtendWith(FakeVerbsExtension.class)
class BindingToStringTests {

	private final FakeVerbs fake = FakeVerbs.get();

	@Test
	void noToStringOfTheBindingShowsANativeAddress() {
		this.fake.device("mlx5_0").add();
		Memory somewhere = new Memory(64);
		List<Object> objects = new ArrayList<>();
		try (RdmaDevice device = this.fake.backend().open("mlx5_0")) {
			Counters counters = device.createCounters();
			counters.attach(CounterType.PACKETS, 0);
			Flow flow = device.createFlow(1, FlowSpec.builder().protocol(L4Protocol.UDP).destinationPort(4791).build(),
					counters);
			objects.addAll(List.of(device, counters, flow, ((NativeCounters) counters).handle()));
			objects.add(((NativeDevice) device).queryPortAttr(1));
			for (PointerType handle : List.of(new IbvDevice(somewhere), new IbvContext(), new IbvPd(), new IbvCq(),
					new IbvQp(), new IbvCounters(somewhere), new IbvFlow(somewhere))) {
				objects.add(handle);
				PointerType pointed = newHandle(handle.getClass());
				pointed.setPointer(somewhere);
				objects.add(pointed);
			}
			IbvDeviceAttr deviceAttr = new IbvDeviceAttr();
			deviceAttr.fw_ver[0] = '2';
			IbvQpInitAttr qpAttr = new IbvQpInitAttr();
			qpAttr.send_cq = somewhere;
			qpAttr.recv_cq = new Pointer(0xdead_beefL);
			qpAttr.qp_type = IbvLibrary.IBV_QPT_RAW_PACKET;
			objects.addAll(List.of(deviceAttr, qpAttr, new IbvPortAttr()));
			for (Object object : objects) {
				assertThat(object.toString()).as(object.getClass().getSimpleName())
					.doesNotContain("0x")
					.doesNotContain("native@")
					.doesNotContainIgnoringCase(Long.toHexString(Pointer.nativeValue(somewhere)))
					.doesNotContainIgnoringCase("deadbeef");
			}
			assertThat(((NativeCounters) counters).handle()).hasToString("struct ibv_counters *");
			assertThat(qpAttr.toString()).startsWith("ibv_qp_init_attr[qp_type=8");
		}
	}

	private static PointerType newHandle(Class<? extends PointerType> type) {
		try {
			return type.getConstructor().newInstance();
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
