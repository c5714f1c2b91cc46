package io.github.rdmacounters.benchmarks;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;

import io.github.rdmacounters.core.HostPortCountersSnapshot;

/**
 * One host-wide sysfs snapshot of a host of 2-port devices (8 unless told) per iteration,
 * after a pause, the way a scrape comes: the pattern node_exporter's
 * {@code node_scrape_collector_duration_seconds} is measured in, where each scrape
 * follows an idle gap (see {@link AbstractHostSysfsBenchmark}), so both readers are timed
 * in the same pattern; {@link HostSysfsSnapshotBenchmark} times snapshots back to back.
 *
 * @author rdma-counters
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 50)
@Measurement(iterations = 400)
@Fork(1)
public class HostSysfsScrapeBenchmark extends AbstractHostSysfsBenchmark {

	/**
	 * Leave the gap between two scrapes, outside the measured time.
	 * @throws InterruptedException if interrupted
	 */
	@Setup(Level.Iteration)
	public void pause() throws InterruptedException {
		Thread.sleep(10);
	}

	/**
	 * Read every device, port and counter of the host once.
	 * @return the snapshot
	 */
	@Benchmark
	public HostPortCountersSnapshot scrape() {
		return source().snapshot();
	}

}
