package io.github.rdmacounters.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import io.github.rdmacounters.core.HostPortCountersSnapshot;
import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.sysfs.BenchmarkSysfsTrees;
import io.github.rdmacounters.sysfs.FileSystemSysfsTree;
import io.github.rdmacounters.sysfs.SysfsHostPortCountersSource;

/**
 * The host tree and the source of the host-wide snapshot benchmarks: a
 * {@link SysfsHostPortCountersSource} with a cache time-to-live of 0 (every snapshot
 * lists the root and reads every file) over a host of 8 devices × 2 ports unless
 * {@link #devices} says otherwise ({@link HostSysfsTree}: ports of 49 counters each, plus
 * state, rate and device files), reading every counter file or, for a comparison of the
 * same work, only the {@code counters/} files node_exporter 1.5 reads.
 *
 * @author rdma-counters
 */
@State(Scope.Benchmark)
public abstract class AbstractHostSysfsBenchmark {

	/**
	 * The {@code class/infiniband} directory to read; empty to write a tree in a
	 * temporary directory.
	 */
	@Param("")
	public String root;

	/**
	 * Which counter files are read: {@code all} ({@code counters/} and
	 * {@code hw_counters/}), or {@code pma} (only the 21 IB PMA files of
	 * {@code counters/}, what node_exporter 1.5's collector reads).
	 */
	@Param({ "all", "pma" })
	public String counters;

	/**
	 * How the files are read: {@code kept} open and read again at offset 0, as the source
	 * reads sysfs, or opened at {@code each} read, as it reads other file systems (the
	 * benchmark's tree is on an ordinary file system).
	 */
	@Param({ "kept", "each" })
	public String files;

	/**
	 * How many devices of 2 ports the tree has (written so, or as given in
	 * {@link #root}).
	 */
	@Param("8")
	public int devices;

	private @Nullable Path written;

	private FileSystemSysfsTree tree;

	private SysfsHostPortCountersSource source;

	/**
	 * Write the tree (unless one is given) and create the source.
	 * @throws IOException if the tree cannot be written
	 */
	@Setup(Level.Trial)
	public void setUp() throws IOException {
		Path root;
		if (this.root.isEmpty()) {
			this.written = Files.createTempDirectory("host-sysfs-bench");
			root = HostSysfsTree.write(this.written, this.devices);
		}
		else {
			root = Paths.get(this.root);
		}
		boolean pma = "pma".equals(this.counters);
		NameFilter counterFilter = pma ? NameFilter.of(HostSysfsTree.PMA_COUNTERS, List.of()) : NameFilter.all();
		this.tree = BenchmarkSysfsTrees.tree(root, "kept".equals(this.files));
		this.source = new SysfsHostPortCountersSource(this.tree, NameFilter.all(), counterFilter, Duration.ZERO,
				Clock.systemUTC());
		HostPortCountersSnapshot snapshot = this.source.snapshot();
		int perPort = pma ? HostSysfsTree.PMA_COUNTERS.size() : HostSysfsTree.countersPerPort();
		int expected = this.devices * HostSysfsTree.PORTS * perPort;
		int counters = snapshot.devices()
			.stream()
			.map(PortCountersSnapshot::ports)
			.flatMap(List::stream)
			.mapToInt((port) -> port.counters().size())
			.sum();
		if (snapshot.presentDevices().size() != this.devices || counters != expected) {
			throw new IllegalStateException("Expected " + this.devices + " devices and " + expected + " counters in "
					+ root + ", read " + snapshot.presentDevices() + " and " + counters);
		}
	}

	/**
	 * Close the files the tree keeps open and delete the tree if this benchmark wrote it.
	 * @throws IOException if it cannot be deleted
	 */
	@TearDown(Level.Trial)
	public void tearDown() throws IOException {
		this.tree.close();
		if (this.written != null) {
			HostSysfsTree.delete(this.written);
		}
	}

	/**
	 * Return the source over the tree.
	 * @return the source
	 */
	protected SysfsHostPortCountersSource source() {
		return this.source;
	}

}
