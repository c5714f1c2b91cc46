package io.github.rdmacounters.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The metrics reference ({@code docs/metrics.md}) against the sample's real scrape: every
 * {@code rdma_} family of the scrape is a row of its table with the same type, labels and
 * the unit its name ends in, and every row is in the scrape unless it says that the
 * sample's simulated devices do not have it.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.traffic.interval-ms=50", PrometheusTools.NO_EXEMPLARS })
class MetricsReferenceTests {

	private static final String ABSENT = "(not on the sample's simulated devices)";

	private static final Pattern ROW = Pattern.compile(
			"^\\| `(rdma_\\w+)` \\| (\\w+) \\| ([^|]+) \\| ([^|]+) \\| ([^|]+) \\| `(\\w+)` \\|$", Pattern.MULTILINE);

	@LocalServerPort
	private int port;

	@Test
	void everyFamilyOfTheScrapeIsInTheTableWithItsTypeUnitAndLabels() throws Exception {
		String scrape = scrape();
		Map<String, String> types = new TreeMap<>();
		Matcher type = Pattern.compile("^# TYPE (rdma_\\w+) (\\w+)$", Pattern.MULTILINE).matcher(scrape);
		while (type.find()) {
			types.put(type.group(1), type.group(2));
		}
		assertThat(types).as("rdma families of the scrape").hasSizeGreaterThan(40);
		Map<String, Set<String>> labels = new TreeMap<>();
		Matcher sample = Pattern.compile("^(rdma_\\w+)(?:\\{([^}]*)})? ", Pattern.MULTILINE).matcher(scrape);
		while (sample.find()) {
			Set<String> names = labels.computeIfAbsent(sample.group(1), (name) -> new TreeSet<>());
			if (sample.group(2) != null) {
				Matcher label = Pattern.compile("(\\w+)=\"").matcher(sample.group(2));
				while (label.find()) {
					names.add(label.group(1));
				}
			}
		}

		String page = Files.readString(PrometheusTools.monitoring().getParent().resolve("docs/metrics.md"),
				StandardCharsets.UTF_8);
		Map<String, String[]> rows = new TreeMap<>();
		Matcher row = ROW.matcher(page);
		while (row.find()) {
			assertThat(rows.put(row.group(1), new String[] { row.group(2), row.group(3).trim(), row.group(4).trim(),
					row.group(5).trim(), row.group(6) }))
				.as("rows of %s", row.group(1))
				.isNull();
		}
		assertThat(rows.keySet()).as("families in docs/metrics.md").containsAll(types.keySet());
		for (Map.Entry<String, String> family : types.entrySet()) {
			String name = family.getKey();
			String[] documented = rows.get(name);
			assertThat(documented[0]).as("type of %s", name).isEqualTo(family.getValue());
			assertThat(documented[1]).as("unit of %s", name).isEqualTo(unit(name));
			Set<String> documentedLabels = Arrays.stream(documented[2].split(", "))
				.filter((label) -> label.startsWith("`"))
				.map((label) -> label.replace("`", ""))
				.collect(Collectors.toCollection(TreeSet::new));
			assertThat(documentedLabels).as("labels of %s", name).isEqualTo(labels.getOrDefault(name, Set.of()));
			assertThat(documented[4]).as("binder of %s", name)
				.isIn("PortCountersMetrics", "RdmaFlowMetrics", "RdmaEventMetrics", "NetdevStatisticsMetrics",
						"OptionalCountersMetrics", "QueuePairMetrics", "QueuePairCounterMetrics", "ReadMetrics");
		}
		for (Map.Entry<String, String[]> documented : rows.entrySet()) {
			if (!documented.getValue()[3].contains(ABSENT)) {
				assertThat(types).as("a documented family in the scrape").containsKey(documented.getKey());
			}
		}
	}

	private static String unit(String name) {
		if (name.endsWith("_bytes_per_second")) {
			return "bytes/s";
		}
		if (name.contains("_bytes")) {
			return "bytes";
		}
		return (name.endsWith("_seconds") || name.endsWith("_seconds_total")) ? "seconds" : "1";
	}

	private String scrape() {
		HttpClient client = HttpClient.newHttpClient();
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/actuator/prometheus"))
			.build();
		String[] scrape = new String[1];
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			scrape[0] = client.send(request, HttpResponse.BodyHandlers.ofString()).body();
			assertThat(scrape[0]).containsPattern("rdma_flow_packets_total\\{[^}]*set=\"nvme-tcp\"} [1-9]");
		});
		return scrape[0];
	}

}
