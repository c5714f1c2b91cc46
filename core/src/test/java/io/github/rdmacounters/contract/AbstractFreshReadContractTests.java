package io.github.rdmacounters.contract;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.CounterSetReading;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.DeviceDefinition;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.ManagedDeviceFactory;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.testsupport.BackendControl;
import io.github.rdmacounters.testsupport.MutableClock;
import io.github.rdmacounters.testsupport.TestDevice;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract of {@link CounterSet#readFresh()}, which the deltas of observations rest
 * on, for every backend: within the read cache's time-to-live a plain read reuses the
 * last value, a fresh one reaches the device, and what it read is what plain reads reuse
 * from then on. After each test the device is closed and no native object may be left
 * alive nor any misuse recorded.
 *
 * @author rdma-counters
 */
public abstract class AbstractFreshReadContractTests {

	private static final String DEVICE = "mlx5_0";

	private static final int SIZE = 900;

	private final MutableClock clock = new MutableClock(Instant.parse("2026-12-06T12:00:00Z"));

	private @Nullable BackendControl control;

	private @Nullable ManagedDevice device;

	/**
	 * Create the backend under test with the given devices, and its control.
	 * @param devices the devices the backend shows
	 * @return the control of a new backend
	 */
	protected abstract BackendControl createControl(List<TestDevice> devices);

	@BeforeEach
	void openDeviceWithOneSet() {
		BackendControl created = createControl(List.of(TestDevice.mlx5(DEVICE)));
		this.control = created;
		FlowSpec nvme = FlowSpec.builder().protocol(L4Protocol.TCP).destinationPort(4420).build();
		this.device = new ManagedDeviceFactory(created.backend(), Duration.ofHours(1), this.clock, (name) -> null)
			.create(new DeviceDefinition(DEVICE, List.of(CounterSetDefinition.of("nvme", nvme)), "rdma"), true);
	}

	@AfterEach
	void closeAndCheckNothingIsLeft() {
		BackendControl current = this.control;
		ManagedDevice managed = this.device;
		if (current == null || managed == null) {
			return;
		}
		current.clearFaults();
		managed.close();
		assertThat(current.misuse()).as("misuse").isEmpty();
		assertThat(current.liveObjects()).as("live objects: %s", current.liveDescription()).isZero();
	}

	private CounterSet set() {
		ManagedDevice managed = this.device;
		assertThat(managed).isNotNull();
		return managed.counterSets().get(0);
	}

	private void send(int packets) {
		BackendControl current = this.control;
		assertThat(current).isNotNull();
		for (int i = 0; i < packets; i++) {
			assertThat(current.deliver(DEVICE, 1,
					Packet.tcp(address("192.0.2.10"), 40000, address("192.0.2.20"), 4420, SIZE)))
				.isOne();
		}
	}

	@Test
	void withinTheTimeToLiveAPlainReadReusesTheLastValueAndAFreshReadSeesTheNewTraffic() {
		send(2);
		assertThat(set().read().value(CounterType.PACKETS)).isEqualTo(2);
		send(3);
		assertThat(set().read().value(CounterType.PACKETS)).as("cached").isEqualTo(2);
		CounterSetReading fresh = set().readFresh();
		assertThat(fresh.isSuccess()).isTrue();
		assertThat(fresh.stall()).isNull();
		assertThat(fresh.value(CounterType.PACKETS)).isEqualTo(5);
		assertThat(fresh.value(CounterType.BYTES)).isEqualTo(5L * SIZE);
	}

	@Test
	void plainReadsReuseWhatAFreshReadRead() {
		assertThat(set().read().value(CounterType.PACKETS)).isZero();
		send(4);
		assertThat(set().readFresh().value(CounterType.PACKETS)).isEqualTo(4);
		send(1);
		assertThat(set().read().value(CounterType.PACKETS)).isEqualTo(4);
		assertThat(set().readFresh().value(CounterType.PACKETS)).isEqualTo(5);
	}

	private static InetAddress address(String text) {
		try {
			return InetAddress.getByName(text);
		}
		catch (UnknownHostException ex) {
			throw new IllegalArgumentException(ex);
		}
	}

}
