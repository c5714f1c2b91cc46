package io.github.rdmacounters.observation;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
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
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.HostPortCountersSnapshot;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.ReadStall;
import io.github.rdmacounters.observation.PortCounterDeltaObservationHandler.Port;
import io.github.rdmacounters.simulated.RoceOperation;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PortCounterDeltaObservationHandler} on the simulated backend: an observation
 * around known RoCEv2 operations records exactly the {@code hw_counters/} they moved,
 * which no flow counter sees; overlapping ones are marked, unselected ones read nothing,
 * and a stalled read records no delta.
 *
 * @author rdma-counters
 */
class SimulatedPortCounterDeltaObservationTests {

	private static final String DEVICE = "sim_mlx5_0";

	private static final List<String> COUNTERS = List.of("rx_write_requests", "rx_read_requests");

	private final SimulatedBackend backend = new SimulatedBackend(
			List.of(SimulatedDeviceSpec.builder().name(DEVICE).build()));

	private final CountingSource source = new CountingSource(
			this.backend.hostPortCounters(Path.of("unused"), DEVICE::equals, COUNTERS::contains, Duration.ZERO));

	private final MeterRegistry meterRegistry = new SimpleMeterRegistry();

	private final ObservationRegistry observationRegistry = ObservationRegistry.create();

	private final PortCounterDeltaObservationHandler handler = new PortCounterDeltaObservationHandler(
			this.meterRegistry, Set.of("checkpoint"), List.of(new Port(DEVICE, 1)), COUNTERS, this.source);

	SimulatedPortCounterDeltaObservationTests() {
		this.observationRegistry.observationConfig().observationHandler(this.handler);
	}

	@AfterEach
	void close() throws Exception {
		this.handler.close();
	}

	private void roce(int operations, RoceOperation operation) {
		try {
			Packet packet = Packet.udp(InetAddress.getByName("192.0.2.1"), 50000, InetAddress.getByName("192.0.2.2"),
					Packet.ROCE_V2_PORT, 1024);
			for (int i = 0; i < operations; i++) {
				this.backend.deliverRoce(DEVICE, 1, packet, operation);
			}
		}
		catch (UnknownHostException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private DistributionSummary summary(String counter, boolean overlapped) {
		return this.meterRegistry.get(PortCounterDeltaObservationHandler.COUNTER)
			.tags("observation", "checkpoint", "device", DEVICE, "port", "1", "counter", counter, "overlapped",
					Boolean.toString(overlapped))
			.summary();
	}

	@Test
	void anObservationAroundNRoceWritesRecordsNWriteRequestsAndNoReads() {
		roce(5, RoceOperation.WRITE);
		List<KeyValue> keyValues = new ArrayList<>();
		Observation observation = Observation.createNotStarted("checkpoint", this.observationRegistry).start();
		roce(7, RoceOperation.WRITE);
		observation.stop();
		observation.getContext().getHighCardinalityKeyValues().forEach(keyValues::add);
		roce(3, RoceOperation.WRITE);
		assertThat(summary("rx_write_requests", false).count()).isOne();
		assertThat(summary("rx_write_requests", false).totalAmount()).isEqualTo(7);
		assertThat(summary("rx_read_requests", false).count()).isOne();
		assertThat(summary("rx_read_requests", false).totalAmount()).isZero();
		assertThat(summary("rx_write_requests", true).count()).isZero();
		assertThat(keyValues).contains(KeyValue.of("rdma." + DEVICE + ".1.rx_write_requests", "7"),
				KeyValue.of("rdma." + DEVICE + ".1.rx_read_requests", "0"),
				KeyValue.of("rdma." + DEVICE + ".1.overlapped", "false"));
		assertThat(this.source.snapshots).isEqualTo(2);
	}

	@Test
	void twoOverlappingObservationsSeeEachOthersOperationsAndAreBothMarkedOverlapped() {
		Observation first = Observation.createNotStarted("checkpoint", this.observationRegistry).start();
		roce(2, RoceOperation.READ);
		Observation second = Observation.createNotStarted("checkpoint", this.observationRegistry).start();
		roce(3, RoceOperation.READ);
		first.stop();
		second.stop();
		assertThat(summary("rx_read_requests", true).count()).isEqualTo(2);
		assertThat(summary("rx_read_requests", true).totalAmount()).isEqualTo(5 + 3);
		assertThat(summary("rx_read_requests", false).count()).isZero();
	}

	@Test
	void anObservationThatIsNotSelectedRecordsNothingAndReadsNothing() {
		Observation observation = Observation.createNotStarted("http.server.requests", this.observationRegistry)
			.start();
		roce(4, RoceOperation.WRITE);
		observation.stop();
		assertThat(this.meterRegistry.find(PortCounterDeltaObservationHandler.COUNTER).meters()).isEmpty();
		assertThat(this.source.snapshots).isZero();
	}

	@Test
	void aStalledReadRecordsNoDeltaAndCountsTheFailure() {
		Observation observation = Observation.createNotStarted("checkpoint", this.observationRegistry).start();
		roce(4, RoceOperation.WRITE);
		this.source.stalled = true;
		observation.stop();
		assertThat(summary("rx_write_requests", false).count()).isZero();
		assertThat(summary("rx_write_requests", true).count()).isZero();
		Counter failures = this.meterRegistry.get(PortCounterDeltaObservationHandler.READ_FAILURES)
			.tags("observation", "checkpoint", "device", DEVICE, "port", "1")
			.counter();
		assertThat(failures.count()).isOne();
		assertThat(observation.getContext().getHighCardinalityKeyValues()).isEmpty();
	}

	@Test
	void aCounterThatWentBackRecordsNoDelta() {
		this.source.back = true;
		Observation observation = Observation.createNotStarted("checkpoint", this.observationRegistry).start();
		this.source.back = false;
		observation.stop();
		assertThat(summary("rx_write_requests", false).count()).isZero();
		assertThat(this.meterRegistry.get(PortCounterDeltaObservationHandler.READ_FAILURES).counter().count()).isOne();
	}

	@Test
	void aPortTheDeviceDoesNotHaveRecordsNoDelta() {
		PortCounterDeltaObservationHandler other = new PortCounterDeltaObservationHandler(this.meterRegistry,
				Set.of("other"), List.of(new Port(DEVICE, 9)), COUNTERS, this.source);
		this.observationRegistry.observationConfig().observationHandler(other);
		Observation.createNotStarted("other", this.observationRegistry).start().stop();
		assertThat(this.meterRegistry.find(PortCounterDeltaObservationHandler.COUNTER).meters())
			.allSatisfy((meter) -> assertThat(((DistributionSummary) meter).count()).isZero());
		assertThat(this.meterRegistry.get(PortCounterDeltaObservationHandler.READ_FAILURES)
			.tag("observation", "other")
			.counter()
			.count()).isOne();
	}

	/**
	 * Counts the snapshots taken and makes the next one stall, or show the counters
	 * reset.
	 */
	private static final class CountingSource implements HostPortCountersSource {

		private final HostPortCountersSource delegate;

		int snapshots;

		volatile boolean stalled;

		volatile boolean back;

		CountingSource(HostPortCountersSource delegate) {
			this.delegate = delegate;
		}

		@Override
		public HostPortCountersSnapshot snapshot() {
			this.snapshots++;
			HostPortCountersSnapshot snapshot = this.delegate.snapshot();
			if (this.stalled) {
				return new HostPortCountersSnapshot(List.of(), Instant.now(),
						new ReadStall("port counters", Duration.ofSeconds(1), 1));
			}
			if (this.back) {
				return new HostPortCountersSnapshot(snapshot.devices()
					.stream()
					.map((device) -> new io.github.rdmacounters.core.PortCountersSnapshot(device.deviceName(),
							device.firmwareVersion(), device.boardId(), device.hcaType(), device.nodeGuid(),
							device.ports()
								.stream()
								.map((port) -> new io.github.rdmacounters.core.PortStatus(port.port(), port.link(),
										port.counters()
											.keySet()
											.stream()
											.collect(java.util.stream.Collectors.toMap((name) -> name,
													(name) -> Long.MAX_VALUE)),
										port.groups(), port.unreadable(), port.missing(), port.presence()))
								.toList(),
							device.readAt(), device.presence(), device.identity()))
					.toList(), snapshot.readAt());
			}
			return snapshot;
		}

	}

}
