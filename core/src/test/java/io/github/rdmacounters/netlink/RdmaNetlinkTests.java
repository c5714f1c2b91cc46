package io.github.rdmacounters.netlink;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.LongStream;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.RdmaOperationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link RdmaNetlink} and {@link NetlinkSocket} against the fake RDMA netlink
 * kernel ({@code fake_nldev.c}), which answers on socketpair ends as {@code nldev.c}
 * does.
 *
 * @author rdma-counters
 */
class RdmaNetlinkTests {

	private static final int RC = 2;

	private static final int UD = 4;

	private static final int GSI = 1;

	private static final int RTS = 3;

	private static final int ERR = 6;

	private final FakeNldev fake = FakeNldev.get();

	private int mlx;

	private RdmaNetlink client;

	@BeforeEach
	void setUp() {
		this.fake.reset();
		this.mlx = this.fake.addDevice("mlx5_0", 1, 0x0c42a10300b1c2d3L, "28.39.1002", "roce");
		this.fake.addCounter(this.mlx, 1, "out_of_sequence", 3);
		this.fake.addCounter(this.mlx, 1, "rnr_nak_retry_err", 0);
		this.fake.addOptionalCounter(this.mlx, 1, "cc_rx_ce_pkts", true, 17);
		this.fake.addOptionalCounter(this.mlx, 1, "cc_rx_cnp_pkts", false, 5);
		this.fake.addOptionalCounter(this.mlx, 1, "cc_tx_cnp_pkts", false, 6);
		this.client = this.fake.client();
	}

	@AfterEach
	void tearDown() {
		this.client.close();
	}

	@Test
	void devicesListsEveryDeviceWithItsPortsAndGuid() {
		this.fake.addDevice("irdma1", 2, 0x1L, "", "iw");
		List<NldevDevice> devices = this.client.devices();
		assertThat(devices).containsExactly(
				new NldevDevice(this.mlx, "mlx5_0", 1, 0x0c42a10300b1c2d3L, "28.39.1002", "roce"),
				new NldevDevice(this.mlx + 1, "irdma1", 2, 0x1L, null, "iw"));
	}

	@Test
	void counterStatusMarksOptionalCountersAndWhichAreEnabled() {
		assertThat(this.client.counterStatus(this.client.device("mlx5_0"), 1)).containsExactly(
				new HwCounterStatus("out_of_sequence", 0, false, true),
				new HwCounterStatus("rnr_nak_retry_err", 1, false, true),
				new HwCounterStatus("cc_rx_ce_pkts", 2, true, true),
				new HwCounterStatus("cc_rx_cnp_pkts", 3, true, false),
				new HwCounterStatus("cc_tx_cnp_pkts", 4, true, false));
	}

	@Test
	void portCountersLeaveOutDisabledOptionalCounters() {
		this.fake.setCounter(this.mlx, 1, "out_of_sequence", 0xfffffffffffffff0L);
		Map<String, Long> counters = this.client.portCounters(this.client.device("mlx5_0"), 1);
		assertThat(counters).containsExactly(Map.entry("out_of_sequence", 0xfffffffffffffff0L),
				Map.entry("rnr_nak_retry_err", 0L), Map.entry("cc_rx_ce_pkts", 17L));
	}

	@Test
	void setOptionalCountersReplacesTheEnabledSet() {
		NldevDevice device = this.client.device("mlx5_0");
		this.client.setOptionalCounters(device, 1, List.of("cc_rx_cnp_pkts", "cc_tx_cnp_pkts"));
		assertThat(this.fake.counterEnabled(this.mlx, 1, "cc_rx_ce_pkts")).isFalse();
		assertThat(this.client.portCounters(device, 1)).containsOnlyKeys("out_of_sequence", "rnr_nak_retry_err",
				"cc_rx_cnp_pkts", "cc_tx_cnp_pkts");
		this.client.setOptionalCounters(device, 1, List.of());
		assertThat(this.client.counterStatus(device, 1)).filteredOn(HwCounterStatus::optional)
			.noneMatch(HwCounterStatus::enabled);
	}

	@Test
	void enableOptionalCountersKeepsThoseAnotherToolEnabled() {
		NldevDevice device = this.client.device("mlx5_0");
		assertThat(this.client.enableOptionalCounters(device, 1, List.of("cc_tx_cnp_pkts", "cc_rx_ce_pkts")))
			.containsExactly("cc_tx_cnp_pkts");
		assertThat(this.client.counterStatus(device, 1)).filteredOn(HwCounterStatus::enabled)
			.extracting(HwCounterStatus::name)
			.containsExactly("out_of_sequence", "rnr_nak_retry_err", "cc_rx_ce_pkts", "cc_tx_cnp_pkts");
		assertThat(this.fake.count("stat_set")).isOne();
		assertThat(this.client.enableOptionalCounters(device, 1, List.of("cc_tx_cnp_pkts"))).isEmpty();
		assertThat(this.fake.count("stat_set")).isOne();
	}

	@Test
	void setOptionalCountersWithANameThatIsNotOptionalFailsBeforeSending() {
		NldevDevice device = this.client.device("mlx5_0");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.client.setOptionalCounters(device, 1, List.of("out_of_sequence")))
			.withMessage("'out_of_sequence' is not an optional counter of mlx5_0 port 1; its optional counters are "
					+ "[cc_rx_ce_pkts, cc_rx_cnp_pkts, cc_tx_cnp_pkts]");
		assertThat(this.fake.count("stat_set")).isZero();
	}

	@Test
	void setOptionalCountersWithoutCapNetAdminIsEpermNamingTheCommandToRun() {
		this.fake.capNetAdmin(false);
		try (RdmaNetlink unprivileged = this.fake.client()) {
			NldevDevice device = unprivileged.device("mlx5_0");
			assertThatExceptionOfType(RdmaOperationException.class)
				.isThrownBy(() -> unprivileged.setOptionalCounters(device, 1, List.of("cc_rx_cnp_pkts")))
				.satisfies((ex) -> assertThat(ex.errno()).isEqualTo(Errno.EPERM))
				.withMessage("RDMA_NLDEV_CMD_STAT_SET of mlx5_0 port 1 failed: EPERM (1) Operation not permitted: "
						+ "setting optional counters needs CAP_NET_ADMIN; an operator can run instead: rdma "
						+ "statistic set link mlx5_0/1 optional-counters cc_rx_cnp_pkts");
			assertThat(this.fake.count("eperm")).isOne();
			assertThat(this.fake.counterEnabled(this.mlx, 1, "cc_rx_cnp_pkts")).isFalse();
			// reading needs no privilege, and the socket is still usable
			assertThat(unprivileged.portCounters(device, 1)).containsKey("cc_rx_ce_pkts");
		}
	}

	@Test
	void aDeviceThatWentAwayIsEinvalAsNldevAnswers() {
		NldevDevice device = this.client.device("mlx5_0");
		this.fake.removeDevice(this.mlx);
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(() -> this.client.portCounters(device, 1))
			.withMessage("RDMA_NLDEV_CMD_STAT_GET of mlx5_0 port 1 failed: EINVAL (22) Invalid argument");
		// a dump reports the error in NLMSG_DONE (netlink_dump_done)
		assertThatExceptionOfType(RdmaOperationException.class)
			.isThrownBy(() -> this.client.queuePairs(device, NetlinkBudget.DEFAULT))
			.withMessage("RDMA_NLDEV_CMD_RES_QP_GET of mlx5_0 failed: EINVAL (22) Invalid argument");
		assertThat(this.client.devices()).isEmpty();
	}

	@Test
	void anInvalidPortIsEinval() {
		NldevDevice device = this.client.device("mlx5_0");
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(() -> this.client.counterStatus(device, 2))
			.satisfies((ex) -> assertThat(ex.errno()).isEqualTo(Errno.EINVAL));
	}

	@Test
	void queuePairsGivesPidTypeAndStateOfEachOne() {
		long pid = ProcessHandle.current().pid();
		this.fake.addKernelQueuePair(this.mlx, 1, 1, GSI, "ib_core");
		this.fake.addQueuePairs(this.mlx, 1, 2, 100, RC, RTS, pid);
		this.fake.addQueuePairs(this.mlx, 1, 1, 200, UD, ERR, 4242);
		List<NldevQueuePair> queuePairs = this.client.queuePairs(this.client.device("mlx5_0"), NetlinkBudget.DEFAULT);
		assertThat(queuePairs).containsExactly(new NldevQueuePair(1, 1, GSI, RTS, null, "ib_core"),
				new NldevQueuePair(1, 100, RC, RTS, pid, null), new NldevQueuePair(1, 101, RC, RTS, pid, null),
				new NldevQueuePair(1, 200, UD, ERR, 4242L, null));
		assertThat(queuePairs.get(3).typeName()).isEqualTo("UD");
		assertThat(queuePairs.get(3).stateName()).isEqualTo("ERR");
	}

	@Test
	void aMultipartDumpContinuesWhereTheLastMessageStopped() {
		this.fake.dumpSize(512);
		this.fake.addQueuePairs(this.mlx, 1, 300, 1000, RC, RTS, 7);
		try (NetlinkSocket socket = this.fake.connect()) {
			NetlinkDump dump = socket.dump(qpDump(), NetlinkBudget.DEFAULT);
			assertThat(dump.datagrams()).isGreaterThan(50);
			assertThat(dump.messages()).hasSize(dump.datagrams() - 1);
		}
		List<NldevQueuePair> queuePairs = this.client.queuePairs(this.client.device("mlx5_0"), NetlinkBudget.DEFAULT);
		assertThat(queuePairs).extracting(NldevQueuePair::lqpn)
			.containsExactlyElementsOf(LongStream.range(1000, 1300).boxed().toList());
	}

	@Test
	void aDumpOverItsBudgetFailsAndClosesTheSocket() {
		this.fake.dumpSize(512);
		this.fake.addQueuePairs(this.mlx, 1, 300, 1000, RC, RTS, 7);
		NetlinkSocket socket = this.fake.connect();
		assertThatExceptionOfType(NetlinkBudgetExceededException.class)
			.isThrownBy(() -> socket.dump(qpDump(), new NetlinkBudget(10, 1 << 20)))
			.withMessageStartingWith("The RDMA_NLDEV_CMD_RES_QP_GET dump exceeded its budget of 10 messages and "
					+ "1048576 bytes (it had sent 11 messages and ")
			.satisfies((ex) -> assertThat(ex.messages()).isEqualTo(11));
		assertThat(socket.isClosed()).isTrue();
		assertThatExceptionOfType(NetlinkBudgetExceededException.class)
			.isThrownBy(() -> this.client.queuePairs(this.client.device("mlx5_0"), new NetlinkBudget(1000, 4096)))
			.satisfies((ex) -> assertThat(ex.bytes()).isGreaterThan(4096));
		// the client opens a new socket for the next request
		assertThat(this.client.queuePairs(this.client.device("mlx5_0"), NetlinkBudget.DEFAULT)).hasSize(300);
	}

	@Test
	void datagramsLargerThanTheInitialBufferAreReadWhole() {
		// MSG_PEEK | MSG_TRUNC gives the length of a 64 KiB datagram before it is read
		this.fake.dumpSize(64 * 1024);
		this.fake.addQueuePairs(this.mlx, 1, 2000, 1, RC, RTS, 7);
		try (NetlinkSocket socket = this.fake.connect()) {
			NetlinkDump dump = socket.dump(qpDump(), NetlinkBudget.DEFAULT);
			assertThat(dump.bytes() / dump.datagrams()).isGreaterThan(32 * 1024);
		}
		assertThat(this.client.queuePairs(this.client.device("mlx5_0"), NetlinkBudget.DEFAULT)).hasSize(2000)
			.extracting(NldevQueuePair::lqpn)
			.endsWith(2000L);
	}

	@Test
	void aRequestWithoutAnswerTimesOutAndClosesTheSocket() {
		NetlinkSocket socket = this.fake.connect(Duration.ofMillis(200));
		this.fake.inject("silent");
		assertThatExceptionOfType(RdmaOperationException.class)
			.isThrownBy(() -> socket
				.exchange(NetlinkRequest.builder(RdmaNldev.type(RdmaNldev.CMD_GET), "RDMA_NLDEV_CMD_GET")
					.u32(RdmaNldev.ATTR_DEV_INDEX, this.mlx)
					.build()))
			.withMessage("recv(NETLINK_RDMA) failed: EAGAIN (11) Resource temporarily unavailable: no reply to "
					+ "RDMA_NLDEV_CMD_GET in time");
		assertThat(socket.isClosed()).isTrue();
	}

	@Test
	void aReplyWithAnotherSequenceNumberIsAProtocolErrorAndTheClientRecovers() {
		NldevDevice device = this.client.device("mlx5_0");
		this.fake.inject("seq");
		assertThatExceptionOfType(NetlinkProtocolException.class).isThrownBy(() -> this.client.portCounters(device, 1))
			.withMessageContaining("arrived while the NETLINK_RDMA socket waited for the reply to "
					+ "RDMA_NLDEV_CMD_STAT_GET of mlx5_0 port 1");
		assertThat(this.client.portCounters(device, 1)).containsKey("out_of_sequence");
	}

	@Test
	void aReplyForAnotherPortIdIsAProtocolError() {
		NldevDevice device = this.client.device("mlx5_0");
		this.fake.inject("pid");
		assertThatExceptionOfType(NetlinkProtocolException.class).isThrownBy(() -> this.client.counterStatus(device, 1))
			.withMessageContaining("reached the NETLINK_RDMA socket of port id " + ProcessHandle.current().pid());
	}

	@Test
	void aCommandWithoutDumpIsEinvalWhenDumped() {
		// rdma_nl_rcv_msg: NLM_F_DUMP on an op without .dump
		try (NetlinkSocket socket = this.fake.connect()) {
			NetlinkRequest request = NetlinkRequest
				.builder(RdmaNldev.type(RdmaNldev.CMD_STAT_GET_STATUS), "RDMA_NLDEV_CMD_STAT_GET_STATUS dump")
				.build();
			assertThatExceptionOfType(RdmaOperationException.class)
				.isThrownBy(() -> socket.dump(request, NetlinkBudget.DEFAULT))
				.satisfies((ex) -> assertThat(ex.errno()).isEqualTo(Errno.EINVAL));
			assertThat(socket.isClosed()).isFalse();
		}
	}

	@Test
	void closeClosesTheSocketOnce() {
		// connections named by inode: the fake is shared with the threads other tests
		// left, so a count of open connections moves under this test
		List<Long> inodes = new CopyOnWriteArrayList<>();
		RdmaNetlink client = new RdmaNetlink(() -> this.fake.connect(Duration.ofSeconds(10), inodes::add));
		client.devices();
		assertThat(inodes).hasSize(1);
		long own = inodes.get(0);
		assertThat(this.fake.serves(own)).isTrue();
		client.close();
		// the socket opened now likely takes the descriptor number just freed, which a
		// second close of the same number would close
		List<Long> others = new ArrayList<>();
		try (NetlinkSocket other = this.fake.connect(Duration.ofSeconds(10), others::add)) {
			client.close();
			Awaitility.await().until(() -> !this.fake.serves(own));
			assertThat(other.isClosed()).isFalse();
			assertThat(this.fake.serves(others.get(0))).as("the connection opened between the two closes").isTrue();
		}
	}

	private NetlinkRequest qpDump() {
		return NetlinkRequest.builder(RdmaNldev.type(RdmaNldev.CMD_RES_QP_GET), "RDMA_NLDEV_CMD_RES_QP_GET")
			.u32(RdmaNldev.ATTR_DEV_INDEX, this.mlx)
			.build();
	}

}
