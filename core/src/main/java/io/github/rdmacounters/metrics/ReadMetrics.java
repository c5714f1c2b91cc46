package io.github.rdmacounters.metrics;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import io.github.rdmacounters.core.ReadCache;

/**
 * How the reads of each source went, as node_exporter's
 * {@code node_scrape_collector_duration_seconds} and {@code ..._success} tell it of its
 * collectors: {@code rdma.read.duration} (seconds the last read took, or has run while
 * stuck past its deadline), {@code rdma.read.success} (1 when the last read of every
 * cache of the source returned a value, else 0) and {@code rdma.read.stalls} (reads that
 * missed their deadline), each tagged {@code source}. A source of several caches (one per
 * counter set) shows its slowest read and the sum of its stalls.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public final class ReadMetrics implements MeterBinder {

	/** Seconds the last read of a source took. */
	public static final String DURATION = "rdma.read.duration";

	/** Whether the last read of a source returned a value. */
	public static final String SUCCESS = "rdma.read.success";

	/** Reads of a source that missed their deadline. */
	public static final String STALLS = "rdma.read.stalls";

	private final Map<String, Supplier<? extends Collection<? extends ReadCache<?>>>> sources = new LinkedHashMap<>();

	/**
	 * Add a source.
	 * @param name the {@code source} tag, e.g. {@code port_counters}
	 * @param caches the read caches of the source, asked at every scrape
	 * @return this binder
	 */
	public ReadMetrics source(String name, Supplier<? extends Collection<? extends ReadCache<?>>> caches) {
		this.sources.put(name, caches);
		return this;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.sources.forEach((name, caches) -> {
			Gauge.builder(DURATION, caches, ReadMetrics::slowest)
				.baseUnit("seconds")
				.description("Seconds the last read of the source took, or has run while past its deadline")
				.tag("source", name)
				.register(registry);
			Gauge.builder(SUCCESS, caches, ReadMetrics::succeeded)
				.description("Whether the last read of the source returned values (1) or failed or stalled (0)")
				.tag("source", name)
				.register(registry);
			FunctionCounter.builder(STALLS, caches, ReadMetrics::stalls)
				.description("Reads of the source that missed rdma.read-deadline; their values were NaN")
				.tag("source", name)
				.register(registry);
		});
	}

	private static double slowest(Supplier<? extends Collection<? extends ReadCache<?>>> caches) {
		double slowest = Double.NaN;
		for (ReadCache<?> cache : caches.get()) {
			Duration duration = cache.lastReadDuration();
			if (duration != null) {
				double seconds = duration.toNanos() / 1e9;
				slowest = Double.isNaN(slowest) ? seconds : Math.max(slowest, seconds);
			}
		}
		return slowest;
	}

	private static double succeeded(Supplier<? extends Collection<? extends ReadCache<?>>> caches) {
		for (ReadCache<?> cache : caches.get()) {
			if (!cache.lastReadSucceeded()) {
				return 0;
			}
		}
		return 1;
	}

	private static double stalls(Supplier<? extends Collection<? extends ReadCache<?>>> caches) {
		long stalls = 0;
		for (ReadCache<?> cache : caches.get()) {
			stalls += cache.stalls();
		}
		return stalls;
	}

}
