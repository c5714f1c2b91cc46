package io.github.rdmacounters.benchmarks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;

import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.sysfs.BenchmarkSysfsTrees;
import io.github.rdmacounters.sysfs.SysfsHostPortCountersSource;

/**
 * The time the starter adds to {@code GET /actuator/prometheus} on a host's sysfs tree,
 * against node_exporter's infiniband collector on the same tree, paired and interleaved.
 * Two applications run in this JVM, alike but for the starter (on the native backend,
 * {@code rdma.port-counters.sysfs-root} the tree's {@code class/infiniband}, read cache
 * time-to-live 100 ms, shorter than the time between its scrapes, so that every scrape
 * reads the tree, the counter include of the 21 {@code counters/} files node_exporter
 * reads unless {@code all} is asked, the ethtool statistics and RDMA netlink off) and
 * without it ({@code rdma.enabled=false}). The tree is on an ordinary file system, so the
 * application is given the host source the auto-configuration makes, over a tree that
 * keeps files open as on sysfs. Each round, after a 40 ms pause each, scrapes both
 * applications and node_exporter, the order turning from round to round, and prints
 * {@code with_us without_us node_exporter_collector_us node_exporter_scrape_us}, the
 * scrapes timed from the request to the last byte of the body.
 * <p>
 * {@code java ... PrometheusVersusNodeExporter SYS URL ROUNDS [pma|all]}, with SYS the
 * tree's {@code /sys} and URL node_exporter's {@code /metrics}.
 *
 * @author rdma-counters
 */
public final class PrometheusVersusNodeExporter {

	/**
	 * Milliseconds before each scrape: three of them keep the scrapes of the application
	 * with the starter further apart than its read cache time-to-live (100 ms, the least
	 * allowed), so each reads the tree.
	 */
	private static final long PAUSE = 40;

	private static final int WARM_UP = 50;

	/**
	 * The default {@code rdma.read-deadline}, as the auto-configuration gives the source
	 * it makes: each read runs in a reader thread that the scrape waits for.
	 */
	private static final Duration READ_DEADLINE = Duration.ofMillis(500);

	private static final String DURATION = "node_scrape_collector_duration_seconds{collector=\"infiniband\"} ";

	private PrometheusVersusNodeExporter() {
	}

	/**
	 * Run the rounds.
	 * @param args the tree's {@code /sys}, node_exporter's URL, the number of rounds, and
	 * {@code pma} (default) or {@code all}
	 * @throws Exception if a scrape fails
	 */
	public static void main(String[] args) throws Exception {
		Path sys = Path.of(args[0]);
		URI nodeExporter = URI.create(args[1]);
		int rounds = Integer.parseInt(args[2]);
		boolean pma = args.length < 4 || "pma".equals(args[3]);
		HttpClient client = HttpClient.newHttpClient();
		try (ConfigurableApplicationContext with = start(sys, true, pma);
				ConfigurableApplicationContext without = start(sys, false, pma)) {
			URI withUri = prometheus(with);
			URI withoutUri = prometheus(without);
			String body = get(client, withUri).body;
			if (!body.contains("rdma_port_")) {
				throw new IllegalStateException("No rdma_port_ series at " + withUri);
			}
			// compile the scrape path: back to back (reads mostly from the cache), then
			// paired
			for (int i = 0; i < 1000; i++) {
				get(client, withUri);
				get(client, withoutUri);
			}
			List<String> lines = new ArrayList<>(rounds);
			for (int round = -WARM_UP; round < rounds; round++) {
				long[] times = new long[3];
				String nodeExporterBody = null;
				for (int k = 0; k < 3; k++) {
					int which = Math.floorMod(round + k, 3);
					Thread.sleep(PAUSE);
					Scrape scrape = get(client, (which == 0) ? withUri : (which == 1) ? withoutUri : nodeExporter);
					times[which] = scrape.nanos;
					if (which == 2) {
						nodeExporterBody = scrape.body;
					}
				}
				if (round < 0) {
					continue;
				}
				lines.add(String.format(Locale.ROOT, "%.1f %.1f %.1f %.1f", times[0] / 1e3, times[1] / 1e3,
						collectorMicros(nodeExporterBody), times[2] / 1e3));
			}
			lines.forEach(System.out::println);
		}
	}

	private static ConfigurableApplicationContext start(Path sys, boolean starter, boolean pma) {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("spring.main.banner-mode", "off");
		properties.put("logging.level.root", "warn");
		properties.put("rdma.enabled", starter);
		// the application without the starter gets rdma.enabled=false alone: the starter
		// warns about its other settings there, as they have no effect
		if (starter) {
			starterProperties(properties, sys, pma);
		}
		properties.put("server.port", 0);
		properties.put("server.address", "127.0.0.1");
		properties.put("management.endpoints.web.exposure.include", "health,prometheus");
		SpringApplicationBuilder builder = new SpringApplicationBuilder(MultiDeviceBenchmark.HostApplication.class);
		if (starter) {
			// the source the auto-configuration makes, reading the ext4 tree as it reads
			// sysfs (files kept open), where it would open every file
			Path root = sys.resolve("class/infiniband");
			Predicate<String> counters = pma ? NameFilter.of(HostSysfsTree.PMA_COUNTERS, List.of()) : NameFilter.all();
			builder.initializers((context) -> ((GenericApplicationContext) context).registerBean(
					HostPortCountersSource.class,
					() -> new SysfsHostPortCountersSource(BenchmarkSysfsTrees.tree(root, true), NameFilter.all(),
							counters, Duration.ofMillis(100), Clock.systemUTC(), READ_DEADLINE),
					(definition) -> definition.setDestroyMethodName("close")));
		}
		return builder.web(WebApplicationType.SERVLET).logStartupInfo(false).properties(properties).run();
	}

	private static void starterProperties(Map<String, Object> properties, Path sys, boolean pma) {
		properties.put("rdma.backend", "native");
		properties.put("rdma.read-cache-ttl", "100ms");
		properties.put("rdma.read-deadline", READ_DEADLINE.toMillis() + "ms");
		properties.put("rdma.port-counters.sysfs-root", sys.resolve("class/infiniband").toString());
		if (pma) {
			properties.put("rdma.port-counters.include", String.join(",", HostSysfsTree.PMA_COUNTERS));
		}
		// the infiniband collector reads the port counters only: the ethtool statistics
		// and RDMA netlink, which it has no part of, are measured on their own
		// (ethtool-read.md, netlink-qp-dump.md)
		properties.put("rdma.ethtool.enabled", false);
		properties.put("rdma.optional-counters.enabled", false);
		properties.put("rdma.queue-pairs.enabled", false);
	}

	private static URI prometheus(ConfigurableApplicationContext context) {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		return URI.create("http://127.0.0.1:" + port + "/actuator/prometheus");
	}

	private static Scrape get(HttpClient client, URI uri) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(uri).build();
		long start = System.nanoTime();
		HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
		long nanos = System.nanoTime() - start;
		if (response.statusCode() != 200) {
			throw new IllegalStateException(uri + " answered " + response.statusCode());
		}
		return new Scrape(response.body(), nanos);
	}

	private static double collectorMicros(String body) {
		int at = body.indexOf(DURATION);
		if (at < 0) {
			throw new IllegalStateException("No infiniband collector duration from node_exporter");
		}
		int end = body.indexOf('\n', at);
		return Double.parseDouble(body.substring(at + DURATION.length(), end).trim()) * 1e6;
	}

	private record Scrape(String body, long nanos) {

	}

}
