package io.github.rdmacounters.benchmarks;

import java.net.InetAddress;
import java.util.concurrent.TimeUnit;

import com.sun.jna.Function;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.ReadMode;
import io.github.rdmacounters.testsupport.FakeVerbs;

/**
 * Cost of one read of a 2-counter set (packets and bytes of a VXLAN flow) through the JNA
 * binding, against the fake libibverbs, beside the cheapest JNA calls of an empty native
 * function in the same run: direct mapping, a {@link Function} call (the route the
 * binding uses for the inline verbs) and an interface-mapped call. Run with
 * {@code -prof gc} to see the bytes allocated per read.
 *
 * @author rdma-counters
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CountersReadBenchmark {

	private static final Object[] NO_ARGS = {};

	private FakeVerbs fake;

	private RdmaDevice device;

	private Counters counters;

	private Function noopFunction;

	private NoopLibrary noopInterface;

	private final long[] values = new long[2];

	/** The VXLAN UDP port: traffic of the host that a flow sees. */
	private static final int VXLAN_PORT = 4789;

	/**
	 * Open a fake mlx5 device with a flow of UDP to the VXLAN port that fed its counters
	 * one packet. Not RoCEv2 (UDP 4791): the fake's device has RoCE enabled, and on a
	 * RoCE port the HCA takes RoCEv2 packets before any flow sees them.
	 * @throws Exception if the setup fails
	 */
	@Setup(Level.Trial)
	public void setUp() throws Exception {
		this.fake = FakeVerbs.get();
		this.fake.reset();
		this.fake.device("mlx5_0").add();
		this.device = this.fake.backend().open("mlx5_0");
		this.counters = this.device.createCounters();
		this.counters.attach(CounterType.PACKETS, 0);
		this.counters.attach(CounterType.BYTES, 1);
		this.device.createFlow(1, FlowSpec.builder().protocol(L4Protocol.UDP).destinationPort(VXLAN_PORT).build(),
				this.counters);
		this.fake.deliver("mlx5_0", 1, Packet.udp(InetAddress.getByName("192.168.10.1"), 49152,
				InetAddress.getByName("192.168.10.2"), VXLAN_PORT, 1024));
		Native.register(DirectNoop.class, this.fake.libraryPath());
		this.noopFunction = NativeLibrary.getInstance(this.fake.libraryPath()).getFunction("fake_noop");
		this.noopInterface = Native.load(this.fake.libraryPath(), NoopLibrary.class);
		this.counters.read(this.values, ReadMode.FRESH);
		if (this.values[0] != 1 || this.values[1] != 1024) {
			throw new IllegalStateException(
					"Expected 1 packet of 1024 bytes, read " + this.values[0] + ", " + this.values[1]);
		}
	}

	/**
	 * Close the device and check that nothing leaked.
	 */
	@TearDown(Level.Trial)
	public void tearDown() {
		this.device.close();
		this.fake.assertClean();
	}

	/**
	 * Read packets and bytes of the flow through the binding.
	 * @return the values
	 */
	@Benchmark
	public long[] readTwoCounters() {
		this.counters.read(this.values, ReadMode.FRESH);
		return this.values;
	}

	/**
	 * Call an empty native function through a direct-mapped native method.
	 * @return 0
	 */
	@Benchmark
	public int noopDirectMapping() {
		return DirectNoop.fake_noop();
	}

	/**
	 * Call an empty native function through {@link Function#invokeInt(Object[])}.
	 * @return 0
	 */
	@Benchmark
	public int noopFunction() {
		return this.noopFunction.invokeInt(NO_ARGS);
	}

	/**
	 * Call an empty native function through an interface-mapped {@link Library}.
	 * @return 0
	 */
	@Benchmark
	public int noopInterfaceMapping() {
		return this.noopInterface.fake_noop();
	}

	/**
	 * Direct mapping of the fake's empty function.
	 */
	public static final class DirectNoop {

		private DirectNoop() {
		}

		/**
		 * The fake's empty function.
		 * @return 0
		 */
		public static native int fake_noop();

	}

	/**
	 * Interface mapping of the fake's empty function.
	 */
	public interface NoopLibrary extends Library {

		/**
		 * The fake's empty function.
		 * @return 0
		 */
		int fake_noop();

	}

}
