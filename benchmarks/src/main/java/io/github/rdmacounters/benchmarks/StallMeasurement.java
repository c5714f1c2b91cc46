package io.github.rdmacounters.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.metrics.PortCountersMetrics;
import io.github.rdmacounters.metrics.ReadMetrics;
import io.github.rdmacounters.sysfs.HostSysfs;
import io.github.rdmacounters.sysfs.SysfsHostPortCountersSource;
import io.github.rdmacounters.testsupport.StalledFile;

/**
 * Threads, scrape and health-read times during a stalled counter file (a FIFO without a
 * writer in a host tree of four kinds of devices), with the defaults: read cache
 * time-to-live 1 s, read deadline 500 ms. Prints one line per figure.
 *
 * @author rdma-counters
 */
public final class StallMeasurement {

	private StallMeasurement() {
	}

	/**
	 * Run the measurement.
	 * @param args the number of scrapes during the stall (default 1000)
	 * @throws Exception on failure
	 */
	public static void main(String[] args) throws Exception {
		int scrapes = (args.length > 0) ? Integer.parseInt(args[0]) : 1000;
		Path temp = Files.createTempDirectory("stall");
		HostSysfs host = HostSysfs.fourKinds(temp);
		SysfsHostPortCountersSource source = SysfsHostPortCountersSource.of(host.root(), NameFilter.all(),
				NameFilter.all(), Duration.ofSeconds(1), Duration.ofMillis(500));
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		new PortCountersMetrics(source, PortCountersMetrics.filter(List.of(), List.of()), Tags.empty())
			.bindTo(registry);
		new ReadMetrics().source("port_counters", () -> List.of(source.reads())).bindTo(registry);
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		while ((source.snapshot().stall() != null || source.snapshot().devices().isEmpty())
				&& System.nanoTime() < end) {
			Thread.sleep(50);
		}
		long[] healthy = new long[200];
		for (int i = 0; i < healthy.length; i++) {
			long started = System.nanoTime();
			registry.scrape();
			healthy[i] = System.nanoTime() - started;
		}
		int before = threads.getThreadCount();
		try (StalledFile fifo = StalledFile.replace(host.file("mlx5_0", "ports/1/counters/port_rcv_data"))) {
			Thread.sleep(1100);
			long started = System.nanoTime();
			source.device("mlx5_0").snapshot();
			long firstHealthRead = System.nanoTime() - started;
			long[] health = new long[scrapes];
			long[] scrape = new long[scrapes];
			int peak = 0;
			for (int i = 0; i < scrapes; i++) {
				started = System.nanoTime();
				registry.scrape();
				scrape[i] = System.nanoTime() - started;
				started = System.nanoTime();
				source.device("mlx5_0").snapshot();
				health[i] = System.nanoTime() - started;
				peak = Math.max(peak, threads.getThreadCount());
			}
			int after = threads.getThreadCount();
			System.out.println("threads before the stall: " + before);
			System.out.println("threads after " + scrapes + " scrapes and health reads during the stall: " + after
					+ " (peak " + peak + ")");
			System.out.println("first health read meeting the stall: " + millis(firstHealthRead) + " ms");
			System.out.println("health read during the stall: median " + millis(median(health)) + " ms, max "
					+ millis(max(health)) + " ms");
			System.out.println("scrape during the stall: median " + millis(median(scrape)) + " ms, max "
					+ millis(max(scrape)) + " ms");
			System.out.println("scrape before the stall: median " + millis(median(healthy)) + " ms, max "
					+ millis(max(healthy)) + " ms");
			System.out.println("stalls counted: " + source.reads().stalls());
			started = System.nanoTime();
			fifo.answer("5\n");
			while (source.snapshot().stall() != null) {
				Thread.sleep(1);
			}
			System.out.println(
					"first normal snapshot after the file answered: " + millis(System.nanoTime() - started) + " ms");
		}
		source.close();
	}

	private static String millis(long nanos) {
		return String.format("%.3f", nanos / 1e6);
	}

	private static long median(long[] values) {
		long[] sorted = values.clone();
		Arrays.sort(sorted);
		return sorted[sorted.length / 2];
	}

	private static long max(long[] values) {
		return Arrays.stream(values).max().orElse(0);
	}

}
