package io.github.rdmacounters.benchmarks;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

import io.github.rdmacounters.core.HostPortCountersSnapshot;

/**
 * Cost of one host-wide sysfs snapshot of a host of 2-port devices (8 unless told), back
 * to back (see {@link AbstractHostSysfsBenchmark}).
 * {@code scripts/host-sysfs-snapshot.sh} runs it beside node_exporter's infiniband
 * collector on the same tree.
 *
 * @author rdma-counters
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class HostSysfsSnapshotBenchmark extends AbstractHostSysfsBenchmark {

	/**
	 * Read every device, port and counter of the host.
	 * @return the snapshot
	 */
	@Benchmark
	public HostPortCountersSnapshot hostSnapshot() {
		return source().snapshot();
	}

}
