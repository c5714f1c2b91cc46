package io.github.rdmacounters.ethtool;

import java.io.IOException;
import java.io.InputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.metrics.NetdevStatisticsMetrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The reader against the real kernel: a veth pair between two network namespaces of the
 * test's own, traffic sent across it, and every name and value compared with Debian's
 * {@code ethtool -S} and {@code prometheus-node-exporter --collector.ethtool} on the same
 * interface. Nobody here wrote the expected values: the kernel's veth driver makes them
 * and the two tools read them. Needs root; without it the test fails saying so.
 *
 * @author rdma-counters
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class EthtoolVethTests {

	private static final int DATAGRAMS = 200;

	private static VethNamespaces namespaces;

	private static EthtoolStatisticsReader reader;

	@BeforeAll
	static void createPair() {
		namespaces = VethNamespaces.create();
		namespaces.passXdpOnB();
		// the socket, and so every read through it, is in namespace b
		reader = namespaces.inB(EthtoolStatisticsReader::open);
	}

	@AfterAll
	static void deletePair() {
		try {
			if (reader != null) {
				reader.close();
			}
		}
		finally {
			if (namespaces != null) {
				namespaces.close();
			}
		}
	}

	@Test
	void readerMatchesEthtoolAndTrafficMovesTheCounters() {
		double before = reader.read(VethNamespaces.END_B).value("rx_queue_0_xdp_packets");
		sendDatagrams();
		Reading reading = stableReading();
		assertThat(reading.statistics().asMap()).containsExactlyEntriesOf(reading.ethtool());
		assertThat(reading.statistics().names().asList()).containsExactlyElementsOf(reading.ethtool().keySet());
		assertThat(reading.statistics().value("rx_queue_0_xdp_packets")).isGreaterThanOrEqualTo(before + DATAGRAMS);
		assertThat(reading.statistics().value("rx_queue_0_xdp_bytes")).isGreaterThan(0);
	}

	@Test
	void readerMatchesNodeExporterEthtoolCollector() throws Exception {
		sendDatagrams();
		int port = ThreadLocalRandom.current().nextInt(20000, 60000);
		Path log = Files.createTempFile("node-exporter-", ".log");
		// the namespace is the test's own, so any port is free in it
		Process exporter = new ProcessBuilder("ip", "netns", "exec", namespaces.namespaceB(),
				"prometheus-node-exporter", "--collector.disable-defaults", "--collector.ethtool",
				"--web.listen-address=127.0.0.1:" + port)
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		try {
			AtomicReference<String> scrape = new AtomicReference<>();
			Awaitility.await("node_exporter listening on 127.0.0.1:" + port + " in the namespace")
				.atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(200))
				.ignoreExceptions()
				.until(() -> {
					scrape.set(namespaces.inB(() -> get("http://127.0.0.1:" + port + "/metrics")));
					return true;
				});
			Map<String, Double> exported = null;
			Reading reading = null;
			String text = null;
			for (int attempt = 0; attempt < 10; attempt++) {
				Reading first = stableReading();
				text = namespaces.inB(() -> get("http://127.0.0.1:" + port + "/metrics"));
				exported = nodeExporterStatistics(text, VethNamespaces.END_B);
				reading = stableReading();
				if (first.ethtool().equals(reading.ethtool())) {
					break;
				}
			}
			Map<String, Double> ours = new LinkedHashMap<>();
			for (int i = 0; i < reading.statistics().size(); i++) {
				ours.putIfAbsent(reading.statistics().names().asList().get(i), reading.statistics().value(i));
			}
			assertThat(exported).containsExactlyInAnyOrderEntriesOf(ours);
			assertThat(exported.get("rx_queue_0_xdp_packets")).isGreaterThanOrEqualTo(DATAGRAMS);
			// the generic meter names are node_exporter's with rdma_ethtool_ for
			// node_ethtool_
			Map<String, String> names = nodeExporterNames(text);
			assertThat(names).containsKeys(ours.keySet().toArray(new String[0]));
			names.forEach(
					(statistic, metric) -> assertThat(NetdevStatisticsMetrics.genericName(statistic).replace('.', '_'))
						.isEqualTo(metric.replaceFirst("^node_", "rdma_")));
		}
		finally {
			exporter.destroy();
			if (!exporter.waitFor(30, TimeUnit.SECONDS)) {
				exporter.destroyForcibly();
			}
			Files.deleteIfExists(log);
		}
	}

	@Test
	void namesAreReadAgainWhenTheCountChanges() {
		NetdevStatistics one = reader.read(VethNamespaces.END_B);
		List<String> channels = new ArrayList<>(List.of("ethtool", "-L", VethNamespaces.END_B));
		int queues = (one.names().indexOf("rx_queue_1_xdp_packets") >= 0) ? 1 : 2;
		channels.addAll(List.of("rx", Integer.toString(queues), "tx", Integer.toString(queues)));
		namespaces.execInB(channels.toArray(new String[0]));
		Reading reading = stableReading();
		assertThat(reading.statistics().size()).isNotEqualTo(one.size());
		assertThat(reading.statistics().names().asList()).containsExactlyElementsOf(reading.ethtool().keySet());
		assertThat(reading.statistics().asMap()).containsExactlyEntriesOf(reading.ethtool());
	}

	@Test
	void sourceReadsTheDevicesNetdevsThroughTheReadCache() {
		List<String> asked = new ArrayList<>();
		StatisticsReader counting = (netdev) -> {
			asked.add(netdev);
			return reader.read(netdev);
		};
		NetdevStatisticsSource source = new NetdevStatisticsSource("rxe0", () -> List.of(VethNamespaces.END_B, "gone0"),
				counting, Duration.ofMinutes(5), Clock.systemUTC());
		NetdevStatisticsSnapshot first = source.snapshot();
		NetdevStatisticsSnapshot second = source.snapshot();
		assertThat(second).isSameAs(first);
		assertThat(asked).containsExactly(VethNamespaces.END_B, "gone0");
		assertThat(first.netdev(VethNamespaces.END_B)).isNotNull();
		assertThat(first.netdevNames()).containsExactly("gone0", VethNamespaces.END_B);
		assertThat(first.failures().get("gone0")).contains("ETHTOOL_GSSET_INFO")
			.contains("gone0")
			.contains("ENODEV (19) No such device");
	}

	@Test
	void unknownInterfaceFailsWithEnodevAndBadNameIsRefused() {
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(() -> reader.read("nosuch0"))
			.satisfies((ex) -> assertThat(ex.errno()).isEqualTo(Errno.ENODEV));
		// end a is in the other namespace: the socket's namespace decides
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(() -> reader.read(VethNamespaces.END_A))
			.satisfies((ex) -> assertThat(ex.errno()).isEqualTo(Errno.ENODEV));
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> reader.read("a-name-longer-than-15"))
			.withMessageContaining("'a-name-longer-than-15'");
	}

	@Test
	void closedReaderRefusesReads() {
		EthtoolStatisticsReader closing = namespaces.inB(EthtoolStatisticsReader::open);
		assertThat(closing.read(VethNamespaces.END_B).size()).isPositive();
		closing.close();
		closing.close();
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(() -> closing.read(VethNamespaces.END_B));
	}

	private static void sendDatagrams() {
		namespaces.inA(() -> {
			byte[] payload = "rdma-counters ethtool test".getBytes(StandardCharsets.US_ASCII);
			InetAddress target = InetAddress.getByName(VethNamespaces.ADDRESS_B);
			try (DatagramSocket socket = new DatagramSocket()) {
				for (int i = 0; i < DATAGRAMS; i++) {
					socket.send(new DatagramPacket(payload, payload.length, target, 9));
				}
			}
			return null;
		});
	}

	/**
	 * Read with ethtool, the reader and ethtool again until both ethtool reads agree, so
	 * that no packet moved a counter between the reads.
	 */
	private static Reading stableReading() {
		for (int attempt = 0; attempt < 20; attempt++) {
			Map<String, String> before = ethtool(VethNamespaces.END_B);
			NetdevStatistics statistics = reader.read(VethNamespaces.END_B);
			Map<String, String> after = ethtool(VethNamespaces.END_B);
			if (before.equals(after)) {
				return new Reading(statistics, after);
			}
		}
		throw new AssertionError("The statistics of " + VethNamespaces.END_B + " kept moving over 20 reads");
	}

	/** {@code ethtool -S}: "NIC statistics:", then " name: value" per statistic. */
	private static Map<String, String> ethtool(String netdev) {
		String output = namespaces.execInB("ethtool", "-S", netdev);
		Map<String, String> statistics = new LinkedHashMap<>();
		for (String line : output.split("\n")) {
			int colon = line.lastIndexOf(": ");
			if (line.startsWith("     ") && colon > 0) {
				statistics.putIfAbsent(line.substring(0, colon).trim(), line.substring(colon + 2).trim());
			}
		}
		assertThat(statistics).as("ethtool -S %s printed%n%s", netdev, output).isNotEmpty();
		return statistics;
	}

	/**
	 * The ethtool statistics node_exporter exports for an interface, by their ethtool
	 * name, which it gives in the help text ("Network interface rx_queue_0_drops").
	 */
	private static Map<String, Double> nodeExporterStatistics(String text, String netdev) {
		Map<String, String> ethtoolNames = new LinkedHashMap<>();
		nodeExporterNames(text).forEach((statistic, metric) -> ethtoolNames.put(metric, statistic));
		Map<String, Double> values = new LinkedHashMap<>();
		String label = "{device=\"" + netdev + "\"} ";
		for (String line : text.split("\n")) {
			int brace = line.indexOf(label);
			if (brace > 0 && ethtoolNames.containsKey(line.substring(0, brace))) {
				values.put(ethtoolNames.get(line.substring(0, brace)),
						Double.parseDouble(line.substring(brace + label.length()).trim()));
			}
		}
		assertThat(values).as("node_exporter's ethtool metrics of %s in%n%s", netdev, text).isNotEmpty();
		return values;
	}

	/** The metric name node_exporter gives each ethtool statistic, by statistic. */
	private static Map<String, String> nodeExporterNames(String text) {
		Map<String, String> names = new LinkedHashMap<>();
		String prefix = "# HELP node_ethtool_";
		for (String line : text.split("\n")) {
			if (line.startsWith(prefix) && line.contains(" Network interface ")) {
				String metric = line.substring("# HELP ".length(), line.indexOf(' ', prefix.length()));
				names.put(line.substring(line.indexOf(" Network interface ") + 19).trim(), metric);
			}
		}
		return names;
	}

	private static String get(String url) throws IOException {
		HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
		connection.setConnectTimeout(2000);
		connection.setReadTimeout(10000);
		try (InputStream in = connection.getInputStream()) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		finally {
			connection.disconnect();
		}
	}

	private record Reading(NetdevStatistics statistics, Map<String, String> ethtool) {
	}

}
