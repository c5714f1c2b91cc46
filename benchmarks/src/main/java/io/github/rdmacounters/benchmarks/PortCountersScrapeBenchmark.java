package io.github.rdmacounters.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;
import io.github.rdmacounters.sysfs.FileSystemSysfsTree;
import io.github.rdmacounters.sysfs.SysfsPortCountersSource;

/**
 * Cost of one port counters scrape: a snapshot (cache time-to-live 0, so every call reads
 * every file) of a 2-port device with 100 counter files (21 IB PMA counters and 29 mlx5
 * {@code hw_counters} per port) plus the state, rate and device files, on a temporary
 * tree laid out like {@code /sys/class/infiniband}. A second benchmark reads the same
 * layout from the simulated device's in-memory tree, which isolates the parsing from the
 * file system.
 *
 * @author rdma-counters
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PortCountersScrapeBenchmark {

	private static final String DEVICE = "mlx5_0";

	private Path root;

	private SysfsPortCountersSource fileSystem;

	private SysfsPortCountersSource simulated;

	/**
	 * Write the tree and create the sources.
	 * @throws IOException if the tree cannot be written
	 */
	@Setup(Level.Trial)
	public void setUp() throws IOException {
		this.root = Files.createTempDirectory("sysfs-bench");
		Path device = this.root.resolve(DEVICE);
		write(device.resolve("fw_ver"), "22.36.1010");
		write(device.resolve("board_id"), "MT_0000000359");
		write(device.resolve("hca_type"), "MT4125");
		write(device.resolve("node_guid"), "0c42:a103:0065:0f2c");
		long value = 1_000_000_007L;
		for (int port = 1; port <= 2; port++) {
			value = HostSysfsTree.writePort(device.resolve("ports").resolve(Integer.toString(port)), value,
					"100 Gb/sec (4X EDR)", "Ethernet");
		}
		this.fileSystem = new SysfsPortCountersSource(DEVICE, new FileSystemSysfsTree(this.root), Duration.ZERO,
				Clock.systemUTC());
		int counters = this.fileSystem.snapshot().ports().stream().mapToInt((port) -> port.counters().size()).sum();
		int expected = 2 * HostSysfsTree.countersPerPort();
		if (counters != expected) {
			throw new IllegalStateException("Expected " + expected + " counters, read " + counters);
		}
		SimulatedBackend backend = new SimulatedBackend(
				List.of(SimulatedDeviceSpec.builder().name(DEVICE).portCount(2).build()));
		this.simulated = backend.portCounters(DEVICE, Duration.ZERO);
	}

	private static void write(Path file, String content) throws IOException {
		Files.createDirectories(file.getParent());
		Files.writeString(file, content + "\n");
	}

	/**
	 * Delete the tree.
	 * @throws IOException if it cannot be deleted
	 */
	@TearDown(Level.Trial)
	public void tearDown() throws IOException {
		List<Path> paths = new ArrayList<>();
		try (Stream<Path> walk = Files.walk(this.root)) {
			walk.sorted(Comparator.reverseOrder()).forEach(paths::add);
		}
		for (Path path : paths) {
			Files.delete(path);
		}
	}

	/**
	 * Read every file of the 2-port tree from the file system.
	 * @return the snapshot
	 */
	@Benchmark
	public PortCountersSnapshot fileSystemSnapshot() {
		return this.fileSystem.snapshot();
	}

	/**
	 * Read the same layout from the simulated device's in-memory tree.
	 * @return the snapshot
	 */
	@Benchmark
	public PortCountersSnapshot simulatedSnapshot() {
		return this.simulated.snapshot();
	}

}
