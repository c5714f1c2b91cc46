package io.github.rdmacounters.benchmarks;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.sysfs.BenchmarkSysfsTrees;
import io.github.rdmacounters.sysfs.FileSystemSysfsTree;
import io.github.rdmacounters.sysfs.SysfsHostPortCountersSource;

/**
 * Our host snapshot against node_exporter's infiniband collector on the same tree, paired
 * and interleaved: each round scrapes node_exporter (its
 * {@code node_scrape_collector_duration_seconds{collector="infiniband"}}) and takes one
 * snapshot of the same 21 {@code counters/} files per port, each after a 10 ms pause, the
 * order alternating from round to round, so that both see the same load. Prints one line
 * per round ({@code ours_us node_exporter_us}) after the warm-up.
 * <p>
 * {@code java ... HostSysfsVersusNodeExporter ROOT URL ROUNDS [kept|each]}, with ROOT the
 * tree's {@code class/infiniband} and URL node_exporter's {@code /metrics}.
 *
 * @author rdma-counters
 */
public final class HostSysfsVersusNodeExporter {

	private static final String DURATION = "node_scrape_collector_duration_seconds{collector=\"infiniband\"} ";

	private HostSysfsVersusNodeExporter() {
	}

	/**
	 * Run the rounds.
	 * @param args the tree's {@code class/infiniband}, node_exporter's URL, the number of
	 * rounds, and {@code kept} (default) or {@code each}
	 * @throws Exception if node_exporter cannot be scraped
	 */
	public static void main(String[] args) throws Exception {
		Path root = Path.of(args[0]);
		URI uri = URI.create(args[1]);
		int rounds = Integer.parseInt(args[2]);
		boolean keep = args.length < 4 || "kept".equals(args[3]);
		HttpClient client = HttpClient.newHttpClient();
		HttpRequest request = HttpRequest.newBuilder(uri).build();
		try (FileSystemSysfsTree tree = BenchmarkSysfsTrees.tree(root, keep)) {
			SysfsHostPortCountersSource source = new SysfsHostPortCountersSource(tree, NameFilter.all(),
					NameFilter.of(HostSysfsTree.PMA_COUNTERS, List.of()), Duration.ZERO, Clock.systemUTC());
			// warm-up: compile the read path and fill the listings
			for (int i = 0; i < 500; i++) {
				source.snapshot();
			}
			for (int i = 0; i < 20; i++) {
				nodeExporter(client, request);
			}
			List<String> lines = new ArrayList<>(rounds);
			for (int round = 0; round < rounds; round++) {
				double ne;
				double ours;
				if (round % 2 == 0) {
					Thread.sleep(10);
					ne = nodeExporter(client, request);
					Thread.sleep(10);
					ours = ours(source);
				}
				else {
					Thread.sleep(10);
					ours = ours(source);
					Thread.sleep(10);
					ne = nodeExporter(client, request);
				}
				lines.add(String.format(Locale.ROOT, "%.1f %.1f", ours, ne));
			}
			lines.forEach(System.out::println);
		}
	}

	private static double ours(SysfsHostPortCountersSource source) {
		long start = System.nanoTime();
		source.snapshot();
		return (System.nanoTime() - start) / 1e3;
	}

	private static double nodeExporter(HttpClient client, HttpRequest request)
			throws IOException, InterruptedException {
		String body = client.send(request, HttpResponse.BodyHandlers.ofString()).body();
		int at = body.indexOf(DURATION);
		if (at < 0) {
			throw new IllegalStateException("No infiniband collector duration in " + request.uri());
		}
		int end = body.indexOf('\n', at);
		return Double.parseDouble(body.substring(at + DURATION.length(), end).trim()) * 1e6;
	}

}
