package io.github.rdmacounters.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.rdmacounters.core.Counters;

/**
 * Startup time added by the starter, with and without it started alternately in the same
 * JVM, so that both meet the same JIT state, heap and machine load: JMH runs each
 * parameter set in a fork of its own, and on a 2-vCPU machine the baseline alone differed
 * by 100 ms from fork to fork, more than the starter costs. The application is
 * {@link MultiDeviceBenchmark}'s: {@code devices} simulated devices × 2 ports × 8 counter
 * sets, the actuator with health and Prometheus, with ({@code servlet}) or without
 * ({@code none}) Spring MVC on Tomcat on a random loopback port.
 * <p>
 * {@code warm <rounds> <warm-up rounds> <devices>...}: per device count, rounds of one
 * start without and one with the starter (in alternating order, ABBA), after the warm-up
 * rounds; prints one line per device count and web type with the median of each and their
 * ratio.
 * {@code cold <true|false> <devices> <ports> <sets per device> [property=value...]}: one
 * start in this new JVM, class loading included, with the given properties added; prints
 * its time and the number of {@link Counters} beans, which shows that a start in Spring's
 * AOT mode registered the same counter sets ({@code benchmarks/scripts/startup.sh} and
 * {@code startup-modes.sh} run it alternately).
 *
 * @author rdma-counters
 */
public final class StartupComparison {

	private StartupComparison() {
	}

	public static void main(String[] args) {
		if (args.length >= 2 && args[0].equals("cold")) {
			boolean starter = Boolean.parseBoolean(args[1]);
			int devices = (args.length > 2) ? Integer.parseInt(args[2]) : 8;
			int ports = (args.length > 3) ? Integer.parseInt(args[3]) : 2;
			int sets = (args.length > 4) ? Integer.parseInt(args[4]) : 8;
			Map<String, Object> more = new LinkedHashMap<>();
			for (int i = 5; i < args.length; i++) {
				int equals = args[i].indexOf('=');
				if (equals < 1) {
					throw new IllegalArgumentException("Expected property=value, got '" + args[i] + "'");
				}
				more.put(args[i].substring(0, equals), args[i].substring(equals + 1));
			}
			long start = System.nanoTime();
			ConfigurableApplicationContext context = MultiDeviceBenchmark.start(devices, ports, sets, starter,
					WebApplicationType.SERVLET, more);
			double millis = (System.nanoTime() - start) / 1e6;
			int counters = context.getBeanNamesForType(Counters.class).length;
			context.close();
			System.out.printf("cold devices=%d starter=%s %.1f ports=%d sets=%d counters=%d%n", devices, starter,
					millis, ports, sets, counters);
			return;
		}
		if (args.length < 4 || !args[0].equals("warm")) {
			throw new IllegalArgumentException(
					"Usage: StartupComparison warm <rounds> <warm-up rounds> <devices>... | cold <true|false> <devices> <ports> <sets per device> [property=value...]");
		}
		int rounds = Integer.parseInt(args[1]);
		int warmUp = Integer.parseInt(args[2]);
		for (WebApplicationType web : List.of(WebApplicationType.NONE, WebApplicationType.SERVLET)) {
			for (int i = 3; i < args.length; i++) {
				int devices = Integer.parseInt(args[i]);
				List<Double> without = new ArrayList<>();
				List<Double> with = new ArrayList<>();
				for (int round = 0; round < warmUp + rounds; round++) {
					boolean starterFirst = (round % 2) == 1;
					double first = time(devices, starterFirst, web);
					double second = time(devices, !starterFirst, web);
					if (round >= warmUp) {
						without.add(starterFirst ? second : first);
						with.add(starterFirst ? first : second);
					}
				}
				double base = median(without);
				double starter = median(with);
				System.out.printf("warm web=%s devices=%d rounds=%d without=%.1f with=%.1f added=%.1f ratio=%.3f%n",
						web.name().toLowerCase(), devices, rounds, base, starter, starter - base, starter / base);
			}
		}
	}

	private static double time(int devices, boolean starter, WebApplicationType web) {
		long start = System.nanoTime();
		ConfigurableApplicationContext context = MultiDeviceBenchmark.start(devices, starter, web);
		long elapsed = System.nanoTime() - start;
		context.close();
		return elapsed / 1e6;
	}

	private static double median(List<Double> values) {
		List<Double> sorted = new ArrayList<>(values);
		Collections.sort(sorted);
		int middle = sorted.size() / 2;
		return (sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
	}

}
