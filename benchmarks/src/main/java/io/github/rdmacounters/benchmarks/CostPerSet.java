package io.github.rdmacounters.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import javax.management.ObjectName;

import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What counter sets and ports cost, in a JVM of its own: starts the application of
 * {@link MultiDeviceBenchmark} (simulated devices, the actuator, Prometheus, Spring MVC)
 * with the given devices, ports and sets per device, and prints the startup time, the
 * live heap after full collections and the resident set size:
 * {@code cost devices=D ports=P sets=S start_ms=... heap_bytes=... rss_kb=...}. With a
 * fourth argument, writes the class histogram of the live heap
 * ({@code GC.class_histogram}) to that file.
 * <p>
 * {@code java -XX:SoftRefLRUPolicyMSPerMB=0 ...} clears soft references at every
 * collection, so the heap then leaves out caches held by soft references (Spring Boot's
 * property-name caches).
 *
 * @author rdma-counters
 */
public final class CostPerSet {

	private CostPerSet() {
	}

	/**
	 * Start, measure, print.
	 * @param args devices, ports per device, sets per device, and optionally a file for
	 * the class histogram
	 * @throws Exception if the histogram cannot be taken
	 */
	public static void main(String[] args) throws Exception {
		int devices = Integer.parseInt(args[0]);
		int ports = Integer.parseInt(args[1]);
		int sets = Integer.parseInt(args[2]);
		long start = System.nanoTime();
		ConfigurableApplicationContext context = MultiDeviceBenchmark.start(devices, ports, sets, true,
				WebApplicationType.SERVLET, Map.of());
		double startMillis = (System.nanoTime() - start) / 1e6;
		for (int i = 0; i < 3; i++) {
			System.gc();
		}
		long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
		if (args.length > 3) {
			Object histogram = ManagementFactory.getPlatformMBeanServer()
				.invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
						new Object[] { new String[0] }, new String[] { String[].class.getName() });
			Files.writeString(Path.of(args[3]), histogram.toString());
		}
		System.out.printf("cost devices=%d ports=%d sets=%d start_ms=%.0f heap_bytes=%d rss_kb=%d%n", devices, ports,
				devices * sets, startMillis, heap, residentKilobytes());
		context.close();
	}

	private static long residentKilobytes() throws IOException {
		for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
			if (line.startsWith("VmRSS:")) {
				return Long.parseLong(line.replaceAll("[^0-9]", ""));
			}
		}
		return -1;
	}

}
