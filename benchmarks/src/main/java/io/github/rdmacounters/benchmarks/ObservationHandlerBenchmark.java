package io.github.rdmacounters.benchmarks;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.DeviceDefinition;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.ManagedDeviceFactory;
import io.github.rdmacounters.netlink.NetlinkBudget;
import io.github.rdmacounters.netlink.ProcessQueuePairs;
import io.github.rdmacounters.netlink.QueuePairCounters;
import io.github.rdmacounters.observation.CounterDeltaObservationHandler;
import io.github.rdmacounters.observation.PortCounterDeltaObservationHandler;
import io.github.rdmacounters.observation.QueuePairCounterDeltaObservationHandler;
import io.github.rdmacounters.simulated.SimulatedBackend;

/**
 * Cost per observation of {@link CounterDeltaObservationHandler} on one counter set of
 * the simulated device, read as the starter reads it (time-to-live 1 s, deadline 500 ms):
 * an observation the handler does not select ({@code unselected}: its
 * {@code supportsContext} is all it costs), one it selects ({@code selected}: two fresh
 * reads, each handed to the reader thread, and two recorded summaries;
 * {@code selected-on-caller} reads on the caller's thread, without a deadline), and the
 * same observation with only a handler that does nothing ({@code baseline}: Micrometer's
 * own cost). {@code port-selected} is a selected observation of
 * {@link PortCounterDeltaObservationHandler} (two fresh snapshots of two port counters of
 * the device's port) and {@code queue-pair-selected} one of
 * {@link QueuePairCounterDeltaObservationHandler} (two fresh reads of this process's
 * queue pairs and their counters over the simulator's RDMA netlink), both with the
 * deadline. The simulator's read is cheap: on mlx5 each fresh read is a firmware command
 * as well, and a netlink read two dumps through the kernel.
 *
 * @author rdma-counters
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ObservationHandlerBenchmark {

	/** Which observation runs, and with which handler. */
	@Param({ "baseline", "unselected", "selected", "selected-on-caller", "port-selected", "queue-pair-selected" })
	public String observation;

	private ManagedDevice device;

	private ObservationRegistry registry;

	private AutoCloseable handler;

	private String name;

	/** Open the simulated device with one set and register the handler. */
	@Setup(Level.Trial)
	public void setUp() {
		SimulatedBackend backend = SimulatedBackend.withDefaultDevice();
		FlowSpec nvme = FlowSpec.builder().protocol(L4Protocol.TCP).destinationPort(4420).build();
		this.device = new ManagedDeviceFactory(backend, Duration.ofSeconds(1), Clock.systemUTC(), (device) -> null)
			.readDeadline("selected-on-caller".equals(this.observation) ? Duration.ZERO : Duration.ofMillis(500))
			.create(new DeviceDefinition(backend.devices().get(0).name(),
					List.of(CounterSetDefinition.of("nvme", nvme)), "rdma"), true);
		this.registry = ObservationRegistry.create();
		if ("baseline".equals(this.observation)) {
			this.registry.observationConfig().observationHandler(new NothingHandler());
		}
		else if ("port-selected".equals(this.observation)) {
			String deviceName = backend.devices().get(0).name();
			List<String> counters = List.of("out_of_sequence", "local_ack_timeout_err");
			PortCounterDeltaObservationHandler ports = new PortCounterDeltaObservationHandler(new SimpleMeterRegistry(),
					Set.of("checkpoint"), List.of(new PortCounterDeltaObservationHandler.Port(deviceName, 1)), counters,
					backend.hostPortCounters(Path.of("/sys/class/infiniband"), deviceName::equals, counters::contains,
							Duration.ZERO, Duration.ofMillis(500)));
			this.handler = ports;
			this.registry.observationConfig().observationHandler(ports);
		}
		else if ("queue-pair-selected".equals(this.observation)) {
			// as the starter builds it: fresh reads of the queue pairs and their counters
			ProcessQueuePairs queuePairs = new ProcessQueuePairs(backend::nldev, ProcessHandle.current().pid(),
					NetlinkBudget.DEFAULT, Duration.ZERO, Clock.systemUTC());
			QueuePairCounters counters = new QueuePairCounters(backend::nldev, queuePairs,
					new QueuePairCounters.Settings(QueuePairCounters.Binding.MANUAL, false,
							"rdma.queue-pairs.counters"),
					NetlinkBudget.DEFAULT, Duration.ZERO, Clock.systemUTC(), (warning) -> {
					}, Duration.ofMillis(500));
			QueuePairCounterDeltaObservationHandler queuePairDeltas = new QueuePairCounterDeltaObservationHandler(
					new SimpleMeterRegistry(), Set.of("checkpoint"),
					List.of("out_of_sequence", "local_ack_timeout_err"), counters::freshSnapshot, () -> {
						counters.close();
						queuePairs.close();
					});
			this.handler = queuePairDeltas;
			this.registry.observationConfig().observationHandler(queuePairDeltas);
		}
		else {
			this.registry.observationConfig()
				.observationHandler(new CounterDeltaObservationHandler(new SimpleMeterRegistry(), Set.of("checkpoint"),
						this.device.counterSets()));
		}
		this.name = "unselected".equals(this.observation) ? "http.server.requests" : "checkpoint";
	}

	/**
	 * Close the handler's readers and the device.
	 * @throws Exception if the handler cannot close
	 */
	@TearDown(Level.Trial)
	public void tearDown() throws Exception {
		if (this.handler != null) {
			this.handler.close();
		}
		this.device.close();
	}

	/**
	 * One observation around no work: start and stop.
	 * @return the observation
	 */
	@Benchmark
	public Observation observe() {
		Observation observation = Observation.start(this.name, this.registry);
		observation.stop();
		return observation;
	}

	/** A handler that handles every observation and does nothing. */
	static final class NothingHandler implements ObservationHandler<Observation.Context> {

		@Override
		public boolean supportsContext(Observation.Context context) {
			return true;
		}

	}

}
