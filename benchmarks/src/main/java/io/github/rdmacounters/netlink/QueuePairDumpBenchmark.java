package io.github.rdmacounters.netlink;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Cost of one {@code RDMA_NLDEV_CMD_RES_QP_GET} dump of a device with many queue pairs,
 * decoded into {@link NldevQueuePair}s by {@link RdmaNetlink#queuePairs}, against the
 * fake nldev kernel of the core tests on a socketpair: the production send, receive
 * ({@code MSG_PEEK | MSG_TRUNC}, then the datagram), framing checks and attribute
 * decoding, plus the fake's work of building the messages. Run with {@code -prof gc} to
 * see the bytes allocated per dump.
 *
 * @author rdma-counters
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class QueuePairDumpBenchmark {

	@Param({ "10000" })
	private int queuePairs;

	private RdmaNetlink client;

	private NldevDevice device;

	/**
	 * Describe a device with the queue pairs, half of them of one process.
	 */
	@Setup
	public void setUp() {
		FakeNldev fake = FakeNldev.get();
		fake.reset();
		int mlx = fake.addDevice("mlx5_0", 1, 1, "28.39.1002", "roce");
		fake.addQueuePairs(mlx, 1, this.queuePairs / 2, 0x100, 2, 3, 4242);
		fake.addQueuePairs(mlx, 1, this.queuePairs / 2, 0x100 + this.queuePairs / 2, 4, 3, 4343);
		this.client = fake.client();
		this.device = this.client.device("mlx5_0");
	}

	/**
	 * Close the client.
	 */
	@TearDown
	public void tearDown() {
		this.client.close();
	}

	/**
	 * Dump and decode the queue pairs.
	 * @return the queue pairs
	 */
	@Benchmark
	public List<NldevQueuePair> dumpQueuePairs() {
		return this.client.queuePairs(this.device, NetlinkBudget.DEFAULT);
	}

}
