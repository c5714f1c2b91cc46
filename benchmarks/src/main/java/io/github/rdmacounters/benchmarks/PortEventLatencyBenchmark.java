package io.github.rdmacounters.benchmarks;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import org.springframework.boot.health.contributor.Status;

import io.github.rdmacounters.actuate.health.RdmaHealthIndicator;
import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.DeviceDefinition;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.ManagedDeviceFactory;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.ReadMode;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;
import io.github.rdmacounters.testsupport.FakeVerbs;

/**
 * Latency from an injected {@code IBV_EVENT_PORT_ERR} to the RDMA health indicator
 * reporting DOWN: the port is taken down (state DOWN, then the event), and the operation
 * ends when {@code RdmaHealthIndicator.health()}, called in a loop, returns DOWN. On the
 * native backend the event goes through the fake libibverbs' {@code async_fd} (a pipe),
 * the reader's {@code poll}, {@code ibv_get_async_event} and {@code ibv_ack_async_event};
 * on the simulated backend it is delivered by the raising call. Before each operation the
 * port is brought back up and the indicator is UP again (not measured).
 *
 * @author rdma-counters
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PortEventLatencyBenchmark {

	private static final String DEVICE = "mlx5_0";

	@Param({ "native", "simulated" })
	public String backend;

	private FakeVerbs fake;

	private SimulatedBackend simulated;

	private ManagedDevice managed;

	private RdmaHealthIndicator indicator;

	/**
	 * Open a device with one counter set and its health indicator.
	 */
	@Setup(Level.Trial)
	public void open() {
		RdmaBackend rdma;
		if ("native".equals(this.backend)) {
			this.fake = FakeVerbs.get();
			this.fake.reset();
			this.fake.device(DEVICE).add();
			rdma = this.fake.backend();
		}
		else {
			this.simulated = new SimulatedBackend(List.of(SimulatedDeviceSpec.builder().name(DEVICE).build()));
			rdma = this.simulated;
		}
		CounterSetDefinition all = new CounterSetDefinition("all", 1, Map.of(CounterType.PACKETS, 0), ReadMode.FRESH,
				FlowSpec.any());
		this.managed = new ManagedDeviceFactory(rdma, Duration.ofSeconds(1), Clock.systemUTC(), (name) -> null)
			.create(new DeviceDefinition(DEVICE, List.of(all), "rdma"), true);
		this.indicator = new RdmaHealthIndicator(this.managed);
	}

	/**
	 * Bring the port up and wait until the indicator is UP.
	 */
	@Setup(Level.Invocation)
	public void portUp() {
		if (this.fake != null) {
			this.fake.portUp(DEVICE, 1);
		}
		else {
			this.simulated.setPortState(DEVICE, 1, PortState.ACTIVE);
		}
		while (this.indicator.health().getStatus() != Status.UP) {
			Thread.onSpinWait();
		}
	}

	/**
	 * Take the port down and wait until the indicator is DOWN.
	 * @return the status
	 */
	@Benchmark
	public Status portErrToHealthDown() {
		if (this.fake != null) {
			this.fake.portDown(DEVICE, 1);
		}
		else {
			this.simulated.setPortState(DEVICE, 1, PortState.DOWN);
		}
		Status status;
		while ((status = this.indicator.health().getStatus()) != Status.DOWN) {
			Thread.onSpinWait();
		}
		return status;
	}

	/**
	 * Close the device.
	 */
	@TearDown(Level.Trial)
	public void close() {
		this.managed.close();
		if (this.fake != null) {
			this.fake.assertClean();
		}
	}

}
