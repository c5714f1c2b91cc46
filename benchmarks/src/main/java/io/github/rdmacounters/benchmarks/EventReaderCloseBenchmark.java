package io.github.rdmacounters.benchmarks;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.testsupport.FakeVerbs;
import io.github.rdmacounters.verbs.NativeBackend;

/**
 * Cost of closing a native device whose event reader runs: {@code close()} stops the
 * reader (an {@code eventfd} wakes its {@code poll}), joins the thread, then closes the
 * context. The device is opened and its reader started before each operation (not
 * measured). Target: well under a second, whatever the reader's 100 ms poll timeout.
 *
 * @author rdma-counters
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class EventReaderCloseBenchmark {

	private static final String DEVICE = "mlx5_0";

	private FakeVerbs fake;

	private NativeBackend backend;

	private RdmaDevice device;

	/**
	 * Add a fake device.
	 */
	@Setup(Level.Trial)
	public void addDevice() {
		this.fake = FakeVerbs.get();
		this.fake.reset();
		this.fake.device(DEVICE).add();
		this.backend = this.fake.backend();
	}

	/**
	 * Open the device and start its event reader.
	 */
	@Setup(Level.Invocation)
	public void open() {
		this.device = this.backend.open(DEVICE);
		this.device.addEventListener((event) -> {
		});
	}

	/**
	 * Close the device: stop and join the reader, close the context.
	 */
	@Benchmark
	public void closeWithReader() {
		this.device.close();
	}

	/**
	 * Check that nothing was left open.
	 */
	@TearDown(Level.Trial)
	public void check() {
		this.fake.assertClean();
	}

}
