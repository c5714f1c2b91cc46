package io.github.rdmacounters.observation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.rdmacounters.observation.PortCounterDeltaObservationHandler.Port;
import io.github.rdmacounters.sysfs.HostSysfs;
import io.github.rdmacounters.sysfs.SysfsHostPortCountersSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PortCounterDeltaObservationHandler} over a sysfs tree of an mlx5 RoCE device, as
 * the native backend reads it (files kept open and read again at each snapshot): the
 * values the files show at the start and stop make the delta, and a counter that went
 * back records none.
 *
 * @author rdma-counters
 */
class SysfsPortCounterDeltaObservationTests {

	private static final String DEVICE = "mlx5_1";

	private static final String OUT_OF_SEQUENCE = "ports/1/hw_counters/out_of_sequence";

	@TempDir
	Path temp;

	private final MeterRegistry meterRegistry = new SimpleMeterRegistry();

	private final ObservationRegistry observationRegistry = ObservationRegistry.create();

	private PortCounterDeltaObservationHandler handler;

	private HostSysfs sysfs;

	private void start() {
		this.sysfs = HostSysfs.fourKinds(this.temp);
		List<String> counters = List.of("out_of_sequence", "np_cnp_sent");
		SysfsHostPortCountersSource source = SysfsHostPortCountersSource.of(this.sysfs.root(), DEVICE::equals,
				counters::contains, Duration.ZERO, Duration.ofSeconds(5));
		this.handler = new PortCounterDeltaObservationHandler(this.meterRegistry, Set.of("checkpoint"),
				List.of(new Port(DEVICE, 1)), counters, source);
		this.observationRegistry.observationConfig().observationHandler(this.handler);
	}

	@AfterEach
	void close() throws Exception {
		if (this.handler != null) {
			this.handler.close();
		}
	}

	private void write(String relative, long value) throws IOException {
		Files.writeString(this.sysfs.file(DEVICE, relative), value + "\n");
	}

	private DistributionSummary summary(String counter) {
		return this.meterRegistry.get(PortCounterDeltaObservationHandler.COUNTER)
			.tags("observation", "checkpoint", "device", DEVICE, "port", "1", "counter", counter, "overlapped", "false")
			.summary();
	}

	@Test
	void theDeltaIsWhatTheFilesShowAtTheStopLessWhatTheyShowedAtTheStart() throws IOException {
		start();
		write(OUT_OF_SEQUENCE, 100);
		Observation observation = Observation.createNotStarted("checkpoint", this.observationRegistry).start();
		write(OUT_OF_SEQUENCE, 112);
		observation.stop();
		assertThat(summary("out_of_sequence").totalAmount()).isEqualTo(12);
		assertThat(summary("np_cnp_sent").count()).isOne();
		assertThat(summary("np_cnp_sent").totalAmount()).isZero();
	}

	@Test
	void aCounterThatWentBackRecordsNoDeltaAndCountsTheFailure() throws IOException {
		start();
		write(OUT_OF_SEQUENCE, 100);
		Observation observation = Observation.createNotStarted("checkpoint", this.observationRegistry).start();
		write(OUT_OF_SEQUENCE, 3);
		observation.stop();
		assertThat(summary("out_of_sequence").count()).isZero();
		assertThat(this.meterRegistry.get(PortCounterDeltaObservationHandler.READ_FAILURES).counter().count()).isOne();
	}

	@Test
	void aCounterFileThatCannotBeReadAtTheStopRecordsNoDelta() throws IOException {
		start();
		Observation observation = Observation.createNotStarted("checkpoint", this.observationRegistry).start();
		Files.writeString(this.sysfs.file(DEVICE, OUT_OF_SEQUENCE), "N/A (no PMA)\n");
		observation.stop();
		assertThat(summary("out_of_sequence").count()).isZero();
		assertThat(this.meterRegistry.get(PortCounterDeltaObservationHandler.READ_FAILURES).counter().count()).isOne();
	}

}
