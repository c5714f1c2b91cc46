package io.github.rdmacounters.benchmarks;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
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

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.core.ReadMode;
import io.github.rdmacounters.metrics.RdmaFlowMetrics;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedBackendControl;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;
import io.github.rdmacounters.testsupport.MutableClock;

/**
 * Cost of one Prometheus scrape ({@link PrometheusMeterRegistry#scrape()}) of a registry
 * with the JVM meters a Spring Boot application has, without counter sets
 * ({@code sets=0}) and with 1,000 counter sets on the simulated device
 * ({@code sets=1000}, 3,000 series) bound by {@link RdmaFlowMetrics} as Micrometer
 * {@code FunctionCounter}s. Before every scrape, outside the measured time, the sets'
 * memoised reads are expired, so each scrape reads every set exactly once, as scrapes
 * further apart than the read cache time-to-live do; the set-up checks that one scrape
 * makes exactly one {@code ibv_read_counters} per set.
 * <p>
 * {@link #scrapeConstantSeries} is the control: the same registry with the same 3,000
 * series names and tags as Micrometer function counters over constant values, without
 * counter sets behind them: Micrometer's own cost for that many series. The difference
 * between the two is what the reads of the sets add. The set-up checks that both give the
 * same flow series text.
 *
 * @author rdma-counters
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = "-Xmx1g")
public class PrometheusScrapeBenchmark {

	@Param({ "0", "1000" })
	public int sets;

	private PrometheusMeterRegistry constantRegistry;

	private PrometheusMeterRegistry registry;

	private ManagedDevice managedDevice;

	private RdmaFlowMetrics metrics;

	private List<CounterSet> counterSets;

	/**
	 * The clock of the sets' read cache, moved past the time-to-live before each scrape.
	 */
	private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T12:00:00Z"));

	/**
	 * Build the registry, the device, the sets and their traffic.
	 * @throws UnknownHostException never: the addresses are literals
	 */
	@Setup(Level.Trial)
	public void setUp() throws UnknownHostException {
		this.registry = registryWithJvmMeters();
		this.constantRegistry = registryWithJvmMeters();
		SimulatedBackend backend = SimulatedBackend.withDefaultDevice();
		RdmaDevice device = backend.open(SimulatedDeviceSpec.DEFAULT_NAME);
		this.counterSets = new ArrayList<>();
		InetAddress client = InetAddress.getByName("192.0.2.10");
		InetAddress server = InetAddress.getByName("192.0.2.20");
		for (int i = 0; i < this.sets; i++) {
			int port = 10_000 + i;
			FlowSpec spec = FlowSpec.builder().protocol(L4Protocol.UDP).destinationPort(port).build();
			Counters counters = device.createCounters();
			counters.attach(CounterType.PACKETS, 0);
			counters.attach(CounterType.BYTES, 1);
			device.createFlow(1, spec, counters);
			this.counterSets.add(new CounterSet("set-" + i, device.name(), 1, spec,
					Map.of(CounterType.PACKETS, 0, CounterType.BYTES, 1), ReadMode.FRESH, counters,
					Duration.ofSeconds(1), this.clock));
			backend.deliver(device.name(), 1, Packet.udp(client, 49152, server, port, 1024 + i));
		}
		for (int i = 0; i < this.sets; i++) {
			Tags tags = Tags.of("device", device.name(), "port", "1", "set", "set-" + i);
			long packets = 1;
			long bytes = 1024 + i;
			FunctionCounter.builder(RdmaFlowMetrics.PACKETS, this, (b) -> packets)
				.baseUnit("packets")
				.description("Packets matched by the flow of the counter set")
				.tags(tags)
				.register(this.constantRegistry);
			FunctionCounter.builder(RdmaFlowMetrics.BYTES, this, (b) -> bytes)
				.baseUnit("bytes")
				.description("Bytes of the packets matched by the flow of the counter set")
				.tags(tags)
				.register(this.constantRegistry);
			FunctionCounter.builder(RdmaFlowMetrics.READ_FAILURES, this, (b) -> 0)
				.description("Reads of the counter set that failed")
				.tags(tags)
				.register(this.constantRegistry);
		}
		this.managedDevice = new ManagedDevice(device, this.counterSets, null);
		this.metrics = new RdmaFlowMetrics(new RdmaRegistry(List.of(this.managedDevice)));
		this.metrics.bindTo(this.registry);
		SimulatedBackendControl control = SimulatedBackendControl.of(backend);
		expireReads();
		control.clearVerbCalls();
		String check = this.registry.scrape();
		long reads = control.verbCalls().stream().filter((call) -> call.startsWith("ibv_read_counters")).count();
		if (reads != this.sets) {
			throw new IllegalStateException("One scrape read the " + this.sets + " sets " + reads + " times");
		}
		if (this.sets > 0 && !check
			.contains("rdma_flow_packets_total{device=\"" + device.name() + "\",port=\"1\",set=\"set-0\"} 1.0")) {
			throw new IllegalStateException("The scrape does not show the simulated traffic");
		}
		if (!flowLines(check).equals(flowLines(this.constantRegistry.scrape()))) {
			throw new IllegalStateException("The flow series differ from the constant series of the control");
		}
	}

	/**
	 * Move the clock of the sets past their read cache time-to-live before each scrape,
	 * outside the measured time: a scrape further apart from the last than the
	 * time-to-live finds them expired.
	 */
	@Setup(Level.Invocation)
	public void expireReads() {
		this.clock.advance(Duration.ofSeconds(1));
	}

	/**
	 * Scrape once, reading every set once.
	 * @return the scrape text
	 */
	@Benchmark
	public String scrape() {
		return this.registry.scrape();
	}

	/**
	 * Control: scrape the same number of series over constant values, with no set behind
	 * them.
	 * @return the scrape text
	 */
	@Benchmark
	public String scrapeConstantSeries() {
		return this.constantRegistry.scrape();
	}

	private static List<String> flowLines(String scrape) {
		return scrape.lines().filter((line) -> line.contains("rdma_flow_")).sorted().toList();
	}

	private static PrometheusMeterRegistry registryWithJvmMeters() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		new JvmMemoryMetrics().bindTo(registry);
		new JvmThreadMetrics().bindTo(registry);
		new ClassLoaderMetrics().bindTo(registry);
		new ProcessorMetrics().bindTo(registry);
		new UptimeMetrics().bindTo(registry);
		return registry;
	}

	/**
	 * Remove the meters, close the device and the registries.
	 */
	@TearDown(Level.Trial)
	public void tearDown() {
		this.metrics.close();
		this.managedDevice.close();
		this.registry.close();
		this.constantRegistry.close();
	}

}
