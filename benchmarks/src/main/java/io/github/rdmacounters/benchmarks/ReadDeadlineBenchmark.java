package io.github.rdmacounters.benchmarks;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.github.rdmacounters.core.ReadCache;

/**
 * Cost of the read deadline per read: a {@link ReadCache} without time-to-live whose read
 * does almost nothing, read on the caller's thread ({@code none}) or handed to a reader
 * thread that the caller waits for at most the deadline ({@code 500ms}). The difference
 * is what the deadline adds to every read that misses the cache.
 *
 * @author rdma-counters
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ReadDeadlineBenchmark {

	/** The deadline: {@code none} reads on the caller's thread. */
	@Param({ "none", "500ms" })
	public String deadline;

	private ReadCache<Long> cache;

	private long reads;

	/** Create the cache. */
	@Setup
	public void setUp() {
		Duration limit = "none".equals(this.deadline) ? ReadCache.NO_DEADLINE
				: Duration.ofMillis(Long.parseLong(this.deadline.replace("ms", "")));
		this.cache = new ReadCache<>(Duration.ZERO, Clock.systemUTC(), limit);
	}

	/**
	 * One read that misses the cache.
	 * @return the value read
	 */
	@Benchmark
	public Long read() {
		return this.cache.get(() -> ++this.reads);
	}

}
