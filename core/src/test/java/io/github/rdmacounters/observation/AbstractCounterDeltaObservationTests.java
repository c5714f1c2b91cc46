package io.github.rdmacounters.observation;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.DeviceDefinition;
import io.github.rdmacounters.core.Errno;
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
 * {@link CounterDeltaObservationHandler} on a backend: observations around known traffic
 * of a set's flow record exactly that traffic, overlapping ones are marked, unselected
 * ones cost nothing. The sets keep readings for an hour, so a delta over a cached value
 * would show as zero.
 *
 * @author rdma-counters
 */
abstract class AbstractCounterDeltaObservationTests {

	private static final String DEVICE = "mlx5_0";

	private static final int NVME_PORT = 4420;

	private static final int SIZE = 1500;

	private static final InetAddress CLIENT = address("192.0.2.10");

	private static final InetAddress SERVER = address("192.0.2.20");

	private final MutableClock clock = new MutableClock(Instant.parse("2026-12-06T12:00:00Z"));

	private final MeterRegistry meterRegistry = new SimpleMeterRegistry();

	private final ObservationRegistry observationRegistry = ObservationRegistry.create();

	private @Nullable BackendControl control;

	private @Nullable ManagedDevice device;

	/**
	 * Create the backend under test with the given devices, and its control.
	 * @param devices the devices the backend shows
	 * @return the control of a new backend
	 */
	protected abstract BackendControl createControl(List<TestDevice> devices);

	@BeforeEach
	void openDeviceWithOneSetAndRegisterTheHandler() {
		BackendControl created = createControl(List.of(TestDevice.mlx5(DEVICE)));
		this.control = created;
		FlowSpec nvme = FlowSpec.builder().protocol(L4Protocol.TCP).destinationPort(NVME_PORT).build();
		this.device = new ManagedDeviceFactory(created.backend(), Duration.ofHours(1), this.clock, (name) -> null)
			.create(new DeviceDefinition(DEVICE, List.of(CounterSetDefinition.of("nvme", nvme)), "rdma"), true);
		this.observationRegistry.observationConfig()
			.observationHandler(new CounterDeltaObservationHandler(this.meterRegistry, Set.of("checkpoint", "batch"),
					this.device.counterSets()));
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

	private BackendControl control() {
		BackendControl current = this.control;
		assertThat(current).isNotNull();
		return current;
	}

	private CounterSet set() {
		ManagedDevice managed = this.device;
		assertThat(managed).isNotNull();
		return managed.counterSets().get(0);
	}

	private void send(int packets) {
		for (int i = 0; i < packets; i++) {
			assertThat(control().deliver(DEVICE, 1, Packet.tcp(CLIENT, 40000, SERVER, NVME_PORT, SIZE))).isOne();
		}
	}

	private Observation observation(String name) {
		return Observation.createNotStarted(name, this.observationRegistry);
	}

	private @Nullable DistributionSummary summary(String meter, String observation, boolean overlapped) {
		return this.meterRegistry.find(meter)
			.tags("observation", observation, "set", "nvme", "overlapped", Boolean.toString(overlapped))
			.summary();
	}

	private long recorded(String meter, String observation, boolean overlapped) {
		DistributionSummary summary = summary(meter, observation, overlapped);
		return (summary != null) ? summary.count() : 0;
	}

	private DistributionSummary requiredSummary(String meter, String observation, boolean overlapped) {
		DistributionSummary summary = summary(meter, observation, overlapped);
		assertThat(summary).as("%s of %s, overlapped=%s", meter, observation, overlapped).isNotNull();
		return summary;
	}

	@Test
	void anObservationAroundNPacketsOfTheSetsFlowRecordsNPacketsAndNTimesTheSizeInBytes() {
		send(3);
		// a cached reading of the set, which a delta must not start from
		assertThat(set().read().value(CounterType.PACKETS)).isEqualTo(3);
		send(2);
		Observation observation = observation("checkpoint");
		observation.observe(() -> send(7));

		DistributionSummary packets = requiredSummary(CounterDeltaObservationHandler.PACKETS, "checkpoint", false);
		assertThat(packets.count()).isOne();
		assertThat(packets.totalAmount()).isEqualTo(7);
		assertThat(packets.getId().getBaseUnit()).isEqualTo("packets");
		DistributionSummary bytes = requiredSummary(CounterDeltaObservationHandler.BYTES, "checkpoint", false);
		assertThat(bytes.count()).isOne();
		assertThat(bytes.totalAmount()).isEqualTo(7.0 * SIZE);
		assertThat(bytes.getId().getBaseUnit()).isEqualTo("bytes");
		assertThat(observation.getContext().getHighCardinalityKeyValues()).contains(
				KeyValue.of("rdma.nvme.packets", "7"), KeyValue.of("rdma.nvme.bytes", Long.toString(7L * SIZE)),
				KeyValue.of("rdma.nvme.overlapped", "false"));
		assertThat(observation.getContext().getLowCardinalityKeyValues()).isEmpty();
	}

	@Test
	void twoOverlappingObservationsSeeEachOthersTrafficAndAreBothMarkedOverlapped() {
		Observation first = observation("checkpoint").start();
		send(3);
		Observation second = observation("batch").start();
		send(2);
		first.stop();
		send(1);
		second.stop();

		assertThat(requiredSummary(CounterDeltaObservationHandler.PACKETS, "checkpoint", true).totalAmount())
			.isEqualTo(5);
		assertThat(requiredSummary(CounterDeltaObservationHandler.PACKETS, "batch", true).totalAmount()).isEqualTo(3);
		assertThat(recorded(CounterDeltaObservationHandler.PACKETS, "checkpoint", false)).isZero();
		assertThat(recorded(CounterDeltaObservationHandler.PACKETS, "batch", false)).isZero();
		assertThat(first.getContext().getHighCardinalityKeyValue("rdma.nvme.overlapped"))
			.isEqualTo(KeyValue.of("rdma.nvme.overlapped", "true"));
	}

	@Test
	void anObservationWithinAnotherIsOverlappedAsIsTheOuterOneAndALaterOneIsNot() {
		Observation outer = observation("checkpoint").start();
		send(1);
		observation("batch").observe(() -> send(4));
		outer.stop();
		observation("checkpoint").observe(() -> send(2));

		assertThat(requiredSummary(CounterDeltaObservationHandler.PACKETS, "batch", true).totalAmount()).isEqualTo(4);
		assertThat(requiredSummary(CounterDeltaObservationHandler.PACKETS, "checkpoint", true).totalAmount())
			.isEqualTo(5);
		DistributionSummary exclusive = requiredSummary(CounterDeltaObservationHandler.PACKETS, "checkpoint", false);
		assertThat(exclusive.count()).isOne();
		assertThat(exclusive.totalAmount()).isEqualTo(2);
	}

	@Test
	void aHandlerRegisteredBeforeItSeesTheDeltasWhenTheObservationStopsAsATracingHandlerWould() {
		// Boot registers Micrometer Tracing's handler before the handlers outside its
		// groups,
		// and Micrometer stops handlers in reverse order: the span ends after the deltas
		ObservationRegistry registry = ObservationRegistry.create();
		List<KeyValue> seenAtStop = new ArrayList<>();
		registry.observationConfig().observationHandler(new ObservationHandler<Observation.Context>() {

			@Override
			public boolean supportsContext(Observation.Context context) {
				return true;
			}

			@Override
			public void onStop(Observation.Context context) {
				context.getHighCardinalityKeyValues().forEach(seenAtStop::add);
			}

		});
		ManagedDevice managed = this.device;
		assertThat(managed).isNotNull();
		registry.observationConfig()
			.observationHandler(new CounterDeltaObservationHandler(this.meterRegistry, Set.of("checkpoint"),
					managed.counterSets()));
		Observation.createNotStarted("checkpoint", registry).observe(() -> send(2));

		assertThat(seenAtStop).contains(KeyValue.of("rdma.nvme.packets", "2"),
				KeyValue.of("rdma.nvme.bytes", Long.toString(2L * SIZE)), KeyValue.of("rdma.nvme.overlapped", "false"));
	}

	@Test
	void anObservationThatIsNotSelectedRecordsNothingAndReadsNothing() {
		long reads = set().reads().reads();
		Observation observation = observation("http.server.requests");
		observation.observe(() -> send(5));

		assertThat(this.meterRegistry.find(CounterDeltaObservationHandler.PACKETS).meters()).isEmpty();
		assertThat(this.meterRegistry.find(CounterDeltaObservationHandler.BYTES).meters()).isEmpty();
		assertThat(observation.getContext().getHighCardinalityKeyValues()).isEmpty();
		assertThat(set().reads().reads()).isEqualTo(reads);
	}

	@Test
	void aFailedReadRecordsNoDeltaAndCountsTheFailure() {
		Observation observation = observation("checkpoint").start();
		send(2);
		control().failNext("ibv_read_counters", Errno.EIO);
		observation.stop();

		Counter failures = this.meterRegistry.find(CounterDeltaObservationHandler.READ_FAILURES)
			.tags("observation", "checkpoint", "set", "nvme")
			.counter();
		assertThat(failures).isNotNull();
		assertThat(failures.count()).isOne();
		assertThat(recorded(CounterDeltaObservationHandler.PACKETS, "checkpoint", false)).isZero();
		assertThat(recorded(CounterDeltaObservationHandler.BYTES, "checkpoint", false)).isZero();
		assertThat(observation.getContext().getHighCardinalityKeyValues()).isEmpty();
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
