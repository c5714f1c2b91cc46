package io.github.rdmacounters.metrics;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.sysfs.HostSysfs;
import io.github.rdmacounters.sysfs.SysfsHostPortCountersSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

/**
 * Debian's node_exporter and {@link PortCountersMetrics} read the same host of four
 * devices (mlx5 on InfiniBand, on RoCE and a virtual function, and mlx4 with
 * {@code counters_ext}; node_exporter 1.5's collector fails the whole host on the iWARP
 * and Broadcom trees, whose {@code counters/} read {@code N/A} or are missing): with the
 * README's relabel rule ({@code rdma_X} becomes {@code node_infiniband_X} for series
 * without a {@code set} label), every series node_exporter's infiniband collector exports
 * is one of ours with the same labels and value, {@code node_infiniband_info} included.
 */
class NodeExporterParityTests {

	private static final File NODE_EXPORTER = new File("/usr/bin/prometheus-node-exporter");

	/** A sample line: name, labels and value. */
	private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{.*\\})? (\\S+)$");

	@TempDir
	Path temp;

	@Test
	void everyNodeExporterInfinibandSeriesIsOneOfOursAfterTheRelabelRule() throws Exception {
		HostSysfs host = HostSysfs.empty(this.temp)
			.addDevice("mlx5-infiniband", "mlx5_0", "mlx5_0", "0000:08:00.0", "ib0", null)
			.addDevice("mlx5-roce", "mlx5_1", "mlx5_1", "0000:41:00.0", "ens1f0np0", null)
			.addDevice("mlx5-roce", "mlx5_1", "mlx5_2", "0000:41:00.2", "ens1f0v0", "0000:41:00.0")
			.addDevice("mlx4-counters-ext", "mlx4_0", "mlx4_0", "0000:5e:00.0", "ens2", null);
		Map<String, Double> theirs = infiniband(nodeExporterScrape(host.sys()));
		assertThat(theirs).as("node_exporter's infiniband series").hasSizeGreaterThan(50);
		assertThat(theirs.keySet()).as("node_exporter's info series")
			.anySatisfy((series) -> assertThat(series).startsWith("node_infiniband_info{"));

		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		try (PortCountersMetrics metrics = new PortCountersMetrics(
				SysfsHostPortCountersSource.of(host.root(), NameFilter.all(), NameFilter.all(), Duration.ofSeconds(1)),
				NameFilter.all(), List.of())) {
			metrics.bindTo(registry);
			Map<String, Double> ours = infiniband(relabel(registry.scrape()));
			Map<String, String> different = new TreeMap<>();
			theirs.forEach((series, value) -> {
				Double our = ours.get(series);
				if (our == null || Double.compare(our, value) != 0) {
					different.put(series, value + " in node_exporter, " + our + " here");
				}
			});
			assertThat(different).as("node_exporter's series not identical here (of %d)", theirs.size()).isEmpty();
		}
	}

	/** The README's relabel rule, applied to an exposition text. */
	private static String relabel(String scrape) {
		return scrape.lines()
			.filter((line) -> !line.startsWith("#") && !line.contains("set=\""))
			.map((line) -> line.startsWith("rdma_") ? "node_infiniband_" + line.substring(5) : line)
			.collect(Collectors.joining("\n"));
	}

	/**
	 * The {@code node_infiniband_} samples of an exposition text, by name and labels
	 * (sorted, empty ones left out as Prometheus leaves them out).
	 */
	private static Map<String, Double> infiniband(String scrape) {
		Map<String, Double> samples = new TreeMap<>();
		for (String line : scrape.lines().toList()) {
			Matcher sample = SAMPLE.matcher(line);
			if (!line.startsWith("node_infiniband_") || !sample.matches()) {
				continue;
			}
			TreeSet<String> labels = new TreeSet<>();
			if (sample.group(2) != null) {
				Matcher label = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"")
					.matcher(sample.group(2));
				while (label.find()) {
					if (!label.group(2).isEmpty()) {
						labels.add(label.group(1) + "=\"" + label.group(2) + "\"");
					}
				}
			}
			samples.put(sample.group(1) + "{" + String.join(",", labels) + "}", Double.parseDouble(sample.group(3)));
		}
		return samples;
	}

	private static String nodeExporterScrape(Path sys) throws Exception {
		if (!NODE_EXPORTER.canExecute()) {
			fail("This test compares with Debian's node_exporter, and " + NODE_EXPORTER
					+ " is missing: apt-get install -y prometheus-node-exporter");
		}
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		Path log = Files.createTempFile("node-exporter", ".log");
		Process process = new ProcessBuilder(NODE_EXPORTER.getPath(), "--collector.disable-defaults",
				"--collector.infiniband", "--path.sysfs=" + sys, "--web.listen-address=127.0.0.1:" + port)
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		try {
			HttpClient client = HttpClient.newHttpClient();
			HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
				.timeout(Duration.ofSeconds(5))
				.build();
			String[] body = new String[1];
			await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(100))
				.ignoreException(IOException.class)
				.failFast("node_exporter exited", () -> !process.isAlive())
				.until(() -> {
					HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
					body[0] = response.body();
					return response.statusCode() == 200;
				});
			assertThat(body[0]).as("node_exporter's scrape; its log: %s", Files.readString(log))
				.doesNotContain("node_scrape_collector_success{collector=\"infiniband\"} 0");
			return body[0];
		}
		finally {
			process.destroy();
			process.waitFor();
			Files.deleteIfExists(log);
		}
	}

}
