package io.github.rdmacounters.netlink;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A dense host's queue pair dump: 10,000 queue pairs of one device, of this process and
 * others, through the production client against the fake kernel. The dump must fit the
 * default budget; its time is printed as a figure ({@code QueuePairDumpBenchmark} in
 * {@code benchmarks/} measures it properly), not asserted.
 *
 * @author rdma-counters
 */
class QueuePairDumpTests {

	private static final int QUEUE_PAIRS = 10_000;

	private final FakeNldev fake = FakeNldev.get();

	private RdmaNetlink client;

	private NldevDevice device;

	@BeforeEach
	void setUp() {
		this.fake.reset();
		int mlx = this.fake.addDevice("mlx5_0", 2, 1, "28.39.1002", "roce");
		long pid = ProcessHandle.current().pid();
		this.fake.addQueuePairs(mlx, 1, QUEUE_PAIRS / 2, 0x100, 2, 3, pid);
		this.fake.addQueuePairs(mlx, 2, QUEUE_PAIRS / 4, 0x100 + QUEUE_PAIRS / 2, 4, 3, pid + 1);
		this.fake.addQueuePairs(mlx, 1, QUEUE_PAIRS / 4, 0x100 + 3 * QUEUE_PAIRS / 4, 2, 6, pid + 2);
		this.client = this.fake.client();
		this.device = this.client.device("mlx5_0");
	}

	@AfterEach
	void tearDown() {
		this.client.close();
	}

	@Test
	void tenThousandQueuePairsFitTheDefaultBudget() {
		NetlinkDump dump;
		try (NetlinkSocket socket = this.fake.connect()) {
			dump = socket.dump(NetlinkRequest.builder(RdmaNldev.type(RdmaNldev.CMD_RES_QP_GET), "RES_QP_GET")
				.u32(RdmaNldev.ATTR_DEV_INDEX, this.device.index())
				.build(), NetlinkBudget.DEFAULT);
		}
		assertThat(dump.messages().size()).isLessThanOrEqualTo(NetlinkBudget.DEFAULT.maxMessages() / 4);
		assertThat(dump.bytes()).isLessThanOrEqualTo(NetlinkBudget.DEFAULT.maxBytes() / 4);
		long start = System.nanoTime();
		List<NldevQueuePair> queuePairs = this.client.queuePairs(this.device, NetlinkBudget.DEFAULT);
		long elapsed = System.nanoTime() - start;
		assertThat(queuePairs).hasSize(QUEUE_PAIRS);
		assertThat(queuePairs.get(QUEUE_PAIRS - 1).lqpn()).isEqualTo(0x100 + QUEUE_PAIRS - 1);
		Map<Long, Long> byPid = queuePairs.stream()
			.collect(Collectors.groupingBy(NldevQueuePair::pid, Collectors.counting()));
		long pid = ProcessHandle.current().pid();
		assertThat(byPid).containsOnly(Map.entry(pid, (long) QUEUE_PAIRS / 2),
				Map.entry(pid + 1, (long) QUEUE_PAIRS / 4), Map.entry(pid + 2, (long) QUEUE_PAIRS / 4));
		System.out.printf(
				"10,000-QP dump: %d messages in %d datagrams, %d bytes; one cold dump and decode took %.1f ms%n",
				dump.messages().size(), dump.datagrams(), dump.bytes(), elapsed / 1e6);
	}

}
