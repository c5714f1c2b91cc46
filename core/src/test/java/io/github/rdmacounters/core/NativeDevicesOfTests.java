package io.github.rdmacounters.core;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.rdmacounters.testsupport.FakeVerbs;
import io.github.rdmacounters.testsupport.FakeVerbsExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ManagedDeviceFactory#devicesOf} on the native backend against the fake
 * libibverbs: the sets that name no device share one probe of the host's devices, which
 * leaves nothing open.
 *
 * @author rdma-counters
 */
@ExtendWith(FakeVerbsExtension.class)
class NativeDevicesOfTests {

	private static final FlowSpec TCP = FlowSpec.builder().protocol(L4Protocol.TCP).build();

	private final FakeVerbs fake = FakeVerbs.get();

	private Map<@Nullable String, List<CounterSetDefinition>> devicesOf(boolean failOnUnavailable,
			CounterSetTarget... sets) {
		return new ManagedDeviceFactory(this.fake.backend(), Duration.ZERO, Clock.systemUTC(), (name) -> null)
			.devicesOf(List.of(sets), "rdma", failOnUnavailable, () -> {
				throw new AssertionError("no set names a network interface");
			});
	}

	private static CounterSetTarget anyDevice(String set) {
		return new CounterSetTarget(CounterSetDefinition.of(set, TCP), null, null);
	}

	@Test
	void setsThatNameNoDeviceShareOneProbeForTheOnlyDeviceWithFlowCounters() {
		this.fake.device("rxe_0").countersSupported(false).add();
		this.fake.device("mlx5_0").add();
		this.fake.device("mlx5_1").flowSteering(false).add();
		Map<@Nullable String, List<CounterSetDefinition>> devices = devicesOf(true, anyDevice("web"),
				new CounterSetTarget(CounterSetDefinition.of("backup", TCP), "mlx5_1", null), anyDevice("storage"));
		assertThat(devices).containsOnlyKeys("mlx5_0", "mlx5_1");
		assertThat(devices.get("mlx5_0")).extracting(CounterSetDefinition::name).containsExactly("web", "storage");
		assertThat(this.fake.calls("ibv_open_device")).as("each device opened once, by the one probe").isEqualTo(3);
		assertThat(this.fake.liveObjects()).isZero();
	}

	@Test
	void noDeviceWithFlowCountersFailsNamingTheFirstSet() {
		this.fake.device("rxe_0").countersSupported(false).add();
		this.fake.device("rxe_1").countersSupported(false).add();
		assertThatExceptionOfType(NoUniqueRdmaDeviceException.class)
			.isThrownBy(() -> devicesOf(true, anyDevice("web"), anyDevice("storage")))
			.withMessageStartingWith("rdma.counter-sets.web names no device");
		assertThat(devicesOf(false, anyDevice("web"))).containsOnlyKeys((String) null);
		assertThat(this.fake.liveObjects()).isZero();
	}

}
