package io.github.rdmacounters.netlink;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.testsupport.NativeBuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Cross-checks the RDMA netlink client with a tool no one here wrote: Debian's iproute2
 * {@code rdma} talks to the same fake kernel through an {@code LD_PRELOAD} shim
 * ({@code nldev_shim.c}) that connects its {@code NETLINK_RDMA} sockets to the fake, and
 * what it prints must agree with what {@link RdmaNetlink} decoded. Needs iproute2.
 *
 * @author rdma-counters
 */
class RdmaToolCrossCheckTests {

	private static final Path RDMA = Path.of("/usr/bin/rdma");

	private static Path shim;

	private final FakeNldev fake = FakeNldev.get();

	private int mlx;

	private RdmaNetlink client;

	@BeforeAll
	static void buildShim() {
		if ("true".equals(System.getenv("CI"))) {
			assertThat(RDMA).as("iproute2's rdma tool (apt-get install -y iproute2)").isExecutable();
		}
		assumeThat(RDMA).as("iproute2's rdma tool (apt-get install -y iproute2)").isExecutable();
		shim = NativeBuild.sharedLibrary("netlink/nldev_shim.c", "nldevshim");
	}

	@BeforeEach
	void setUp() {
		this.fake.reset();
		this.mlx = this.fake.addDevice("mlx5_0", 1, 0x0c42a10300b1c2d3L, "28.39.1002", "roce");
		this.fake.addDevice("mlx5_1", 1, 0x0c42a10300b1c2d4L, "28.39.1002", "roce");
		this.fake.addCounter(this.mlx, 1, "out_of_sequence", 3);
		this.fake.addCounter(this.mlx, 1, "local_ack_timeout_err", 1L << 33);
		this.fake.addOptionalCounter(this.mlx, 1, "cc_rx_ce_pkts", true, 17);
		this.fake.addOptionalCounter(this.mlx, 1, "cc_rx_cnp_pkts", false, 5);
		this.fake.addOptionalCounter(this.mlx, 1, "rdma_tx_bytes", true, 123456789);
		this.fake.addCounter(this.mlx + 1, 1, "out_of_sequence", 9);
		this.client = this.fake.client();
	}

	@AfterEach
	void tearDown() {
		this.client.close();
	}

	@Test
	void rdmaStatisticShowAgreesWithPortCounters() {
		List<String> lines = rdma("statistic", "show");
		assertThat(lines).hasSize(2);
		for (NldevDevice device : this.client.devices()) {
			Map<String, String> expected = new LinkedHashMap<>();
			expected.put("link", device.name() + "/1");
			this.client.portCounters(device, 1)
				.forEach((name, value) -> expected.put(name, Long.toUnsignedString(value)));
			assertThat(lines).anySatisfy((line) -> assertThat(pairs(line)).containsExactlyEntriesOf(expected));
		}
	}

	@Test
	void rdmaStatisticModeAgreesWithCounterStatus() {
		List<HwCounterStatus> status = this.client.counterStatus(this.client.device("mlx5_0"), 1);
		String supported = status.stream()
			.filter(HwCounterStatus::optional)
			.map(HwCounterStatus::name)
			.collect(Collectors.joining(","));
		String enabled = status.stream()
			.filter((counter) -> counter.optional() && counter.enabled())
			.map(HwCounterStatus::name)
			.collect(Collectors.joining(","));
		assertThat(supported).isEqualTo("cc_rx_ce_pkts,cc_rx_cnp_pkts,rdma_tx_bytes");
		assertThat(rdma("statistic", "mode", "supported"))
			.containsExactly("link mlx5_0/1 supported optional-counters " + supported);
		assertThat(rdma("statistic", "mode")).containsExactly("link mlx5_0/1 optional-counters " + enabled);
	}

	@Test
	void rdmaStatisticSetIsSeenByTheClientAndReplacesTheSet() {
		assertThat(rdma("statistic", "set", "link", "mlx5_0/1", "optional-counters", "cc_rx_cnp_pkts")).isEmpty();
		assertThat(this.client.counterStatus(this.client.device("mlx5_0"), 1))
			.filteredOn((counter) -> counter.optional() && counter.enabled())
			.extracting(HwCounterStatus::name)
			.containsExactly("cc_rx_cnp_pkts");
		this.client.setOptionalCounters(this.client.device("mlx5_0"), 1, List.of("cc_rx_ce_pkts", "rdma_tx_bytes"));
		assertThat(rdma("statistic", "mode"))
			.containsExactly("link mlx5_0/1 optional-counters cc_rx_ce_pkts,rdma_tx_bytes");
	}

	@Test
	void rdmaStatisticSetWithoutCapNetAdminIsRefusedByTheSameRule() {
		// setpriv drops CAP_NET_ADMIN from the bounding set, so the tool runs without it;
		// the
		// fake reads the peer's effective capabilities as netlink_capable checks them
		Result result = run(List.of("setpriv", "--bounding-set", "-net_admin", RDMA.toString(), "statistic", "set",
				"link", "mlx5_0/1", "optional-counters", "cc_rx_cnp_pkts"));
		assertThat(result.exitCode()).isNotZero();
		assertThat(result.output()).contains("Operation not permitted");
		assertThat(this.fake.count("eperm")).isOne();
		assertThat(this.fake.counterEnabled(this.mlx, 1, "cc_rx_cnp_pkts")).isFalse();
	}

	@Test
	void rdmaResourceShowQpAgreesWithQueuePairs() {
		long pid = ProcessHandle.current().pid();
		this.fake.addKernelQueuePair(this.mlx, 1, 1, 1, "ib_core");
		this.fake.addQueuePairs(this.mlx, 1, 3, 100, 2, 3, pid);
		this.fake.addQueuePairs(this.mlx, 1, 2, 300, 4, 6, pid);
		List<NldevQueuePair> queuePairs = this.client.queuePairs(this.client.device("mlx5_0"), NetlinkBudget.DEFAULT);
		List<String> lines = rdma("resource", "show", "qp");
		assertThat(lines).hasSize(queuePairs.size());
		for (int i = 0; i < lines.size(); i++) {
			NldevQueuePair queuePair = queuePairs.get(i);
			Map<String, String> printed = pairs(lines.get(i));
			assertThat(printed).containsEntry("link", "mlx5_0/" + queuePair.port())
				.containsEntry("lqpn", Long.toString(queuePair.lqpn()))
				.containsEntry("type", queuePair.typeName())
				.containsEntry("state", queuePair.stateName());
			if (queuePair.pid() != null) {
				assertThat(printed).containsEntry("pid", queuePair.pid().toString());
			}
			else {
				assertThat(printed).doesNotContainKey("pid").containsEntry("comm", "[" + queuePair.kernelOwner() + "]");
			}
		}
	}

	@Test
	void rdmaSystemShowDecodesTheSysGetReplyTheMonitorProbes() {
		// Debian 12's rdma (iproute2 6.1) has no 'monitor' object; 'system show'
		// reads the RDMA_NLDEV_CMD_SYS_GET reply whose RDMA_NLDEV_SYS_ATTR_MONITOR_MODE
		// the monitor asks for, and must read it as the kernel's, the newer attribute
		// skipped
		assertThat(rdma("system", "show")).singleElement()
			.asString()
			.startsWith("netns shared")
			.contains("copy-on-fork on");
		this.fake.monitorLevel(0);
		assertThat(rdma("system", "show")).singleElement()
			.asString()
			.startsWith("netns shared")
			.contains("copy-on-fork on");
	}

	@Test
	void rdmaStatisticQpShowAgreesWithQueuePairCounters() {
		long pid = ProcessHandle.current().pid();
		this.fake.addQueuePairs(this.mlx, 1, 3, 100, 2, 3, pid);
		this.fake.addQueuePairs(this.mlx, 1, 1, 200, 4, 3, pid + 1);
		NldevDevice device = this.client.device("mlx5_0");
		long shared = this.client.bindQueuePair(device, 1, 100, null);
		assertThat(this.client.bindQueuePair(device, 1, 101, shared)).isEqualTo(shared);
		this.client.bindQueuePair(device, 1, 102, null);
		this.fake.queuePairTraffic(this.mlx, 100, "out_of_sequence", 5);
		this.fake.queuePairTraffic(this.mlx, 101, "local_ack_timeout_err", 2);
		// the tool binds too, and the client sees its counter
		assertThat(rdma("statistic", "qp", "bind", "link", "mlx5_0/1", "lqpn", "200")).isEmpty();
		List<NldevQpCounter> counters = this.client.queuePairCounters(device, NetlinkBudget.DEFAULT);
		assertThat(counters).hasSize(3);
		// iproute2 6.1 prints a counter's values, then its queue pairs on a line of their
		// own
		List<String> lines = rdma("statistic", "qp", "show");
		assertThat(lines).hasSize(2 * counters.size());
		for (int i = 0; i < counters.size(); i++) {
			NldevQpCounter counter = counters.get(i);
			Map<String, String> expected = new LinkedHashMap<>();
			expected.put("link", "mlx5_0/" + counter.port());
			expected.put("cntn", Long.toString(counter.id()));
			counter.values().forEach((name, value) -> expected.put(name, Long.toUnsignedString(value)));
			assertThat(pairs(lines.get(2 * i))).containsExactlyEntriesOf(expected);
			assertThat(lines.get(2 * i + 1)).isEqualTo(
					counter.lqpns().stream().map(String::valueOf).collect(Collectors.joining(",", "LQPN: <", ">")));
		}
		assertThat(counters.get(0).lqpns()).containsExactly(100L, 101L);
		assertThat(counters.get(0).values()).containsEntry("out_of_sequence", 5L)
			.containsEntry("local_ack_timeout_err", 2L);
		assertThat(this.client.queuePairCounterMode(device, 1).isAuto()).isFalse();
		assertThat(rdma("statistic", "qp", "set", "link", "mlx5_1/1", "auto", "type,pid", "on")).isEmpty();
		assertThat(this.client.queuePairCounterMode(this.client.device("mlx5_1"), 1).describe())
			.isEqualTo("auto type,pid");
		assertThat(rdma("statistic", "qp", "mode")).containsExactly("link mlx5_0/1 mode qp auto off",
				"link mlx5_1/1 mode qp auto type,pid on");
		// the tool unbinds every queue pair of the counter (it reads them with
		// RDMA_NLDEV_ATTR_STAT_COUNTER_ID first), and the kernel frees it with its last
		assertThat(rdma("statistic", "qp", "unbind", "link", "mlx5_0/1", "cntn", Long.toString(shared))).isEmpty();
		assertThat(this.fake.queuePairCounter(this.mlx, 100)).isZero();
		assertThat(this.client.queuePairCounters(device, NetlinkBudget.DEFAULT)).extracting(NldevQpCounter::id)
			.doesNotContain(shared)
			.hasSize(2);
	}

	private List<String> rdma(String... arguments) {
		List<String> command = new ArrayList<>(List.of(RDMA.toString()));
		command.addAll(List.of(arguments));
		Result result = run(command);
		assertThat(result.exitCode()).as("%s: %s", command, result.output()).isZero();
		return result.output().lines().map(String::strip).filter((line) -> !line.isEmpty()).toList();
	}

	private Result run(List<String> command) {
		try {
			Path output = Files.createTempFile("rdma-", ".out");
			try {
				ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
					.redirectOutput(output.toFile());
				builder.environment().put("LD_PRELOAD", shim.toString());
				builder.environment().put("FAKE_NLDEV_SOCKET", this.fake.socketPath().toString());
				Process process = builder.start();
				if (!process.waitFor(30, TimeUnit.SECONDS)) {
					process.destroyForcibly();
					throw new IllegalStateException(command + " did not finish within 30 s");
				}
				return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
			}
			finally {
				Files.delete(output);
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot run " + command, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Read a line of {@code rdma} output as the name-value pairs it prints.
	 */
	private static Map<String, String> pairs(String line) {
		String[] tokens = line.strip().split(" +");
		assertThat(tokens.length % 2).as("pairs in %s", line).isZero();
		Map<String, String> pairs = new LinkedHashMap<>();
		for (int i = 0; i < tokens.length; i += 2) {
			pairs.put(tokens[i], tokens[i + 1]);
		}
		return pairs;
	}

	record Result(int exitCode, String output) {
	}

}
