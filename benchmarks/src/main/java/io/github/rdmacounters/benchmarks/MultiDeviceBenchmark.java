package io.github.rdmacounters.benchmarks;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * Cost of the starter on a host of many devices: the application and its properties
 * ({@link #start}), shared with {@link StartupComparison}, which measures the startup
 * time the starter adds, and {@link Scrape#scrape}, one
 * {@code PrometheusMeterRegistry.scrape()} of an application on 8 devices × 2 ports with
 * 64 sets: the port counters of 16 ports and 64 sets, every value read for that scrape
 * (the read cache time-to-live, 100ms, expires before each scrape, outside the measured
 * time).
 * <p>
 * The application: {@code devices} simulated devices with two ports each and eight
 * counter sets per device ({@code rdma.counter-sets.<set>.device}), the actuator with
 * health and Micrometer with Prometheus, and the starter ({@code starter=true}) or not
 * ({@code rdma.enabled=false}, which turns every auto-configuration of the starter off);
 * with {@link WebApplicationType#SERVLET}, Spring MVC on Tomcat on a random loopback port
 * with the health, prometheus and rdma endpoints exposed over HTTP.
 *
 * @author rdma-counters
 */
public final class MultiDeviceBenchmark {

	private static final int SETS_PER_DEVICE = 8;

	private MultiDeviceBenchmark() {
	}

	static ConfigurableApplicationContext start(int devices, boolean starter, WebApplicationType web) {
		return start(devices, starter, web, Map.of());
	}

	static ConfigurableApplicationContext start(int devices, boolean starter, WebApplicationType web,
			Map<String, Object> more) {
		return start(devices, 2, SETS_PER_DEVICE, starter, web, more);
	}

	static ConfigurableApplicationContext start(int devices, int ports, int setsPerDevice, boolean starter,
			WebApplicationType web, Map<String, Object> more) {
		Map<String, Object> properties = properties(devices, ports, setsPerDevice, starter);
		properties.putAll(more);
		return new SpringApplicationBuilder(HostApplication.class).web(web)
			.logStartupInfo(false)
			.properties(properties)
			.run();
	}

	static Map<String, Object> properties(int devices, int ports, int setsPerDevice, boolean starter) {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("spring.main.banner-mode", "off");
		properties.put("logging.level.root", "warn");
		properties.put("rdma.enabled", starter);
		properties.put("server.port", 0);
		properties.put("server.address", "127.0.0.1");
		properties.put("management.endpoints.web.exposure.include", "health,prometheus,rdma");
		if (!starter) {
			// rdma.enabled=false alone: the starter warns about its other settings there,
			// as they have no effect
			return properties;
		}
		properties.put("rdma.backend", "simulated");
		properties.put("rdma.read-cache-ttl", "100ms");
		for (int d = 0; d < devices; d++) {
			String name = "sim_mlx5_" + d;
			properties.put("rdma.simulated.devices." + name + ".ports", ports);
			for (int s = 0; s < setsPerDevice; s++) {
				String set = "rdma.counter-sets.d" + d + "-s" + s + ".";
				properties.put(set + "device", name);
				properties.put(set + "flow.protocol", "tcp");
				properties.put(set + "flow.destination-port", 4000 + s);
			}
		}
		return properties;
	}

	/**
	 * One scrape of an application on 8 devices × 2 ports with 64 sets.
	 */
	@State(Scope.Benchmark)
	@BenchmarkMode(Mode.AverageTime)
	@OutputTimeUnit(TimeUnit.MICROSECONDS)
	@Warmup(iterations = 3, time = 3)
	@Measurement(iterations = 5, time = 3)
	@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
	public static class Scrape {

		private ConfigurableApplicationContext context;

		private PrometheusMeterRegistry prometheus;

		@Setup
		public void start() {
			this.context = MultiDeviceBenchmark.start(8, true, WebApplicationType.NONE);
			this.prometheus = this.context.getBean(PrometheusMeterRegistry.class);
			String scrape = this.prometheus.scrape();
			long sets = scrape.lines().filter((line) -> line.startsWith("rdma_flow_packets_total{")).count();
			long ports = scrape.lines().filter((line) -> line.startsWith("rdma_state_id{")).count();
			if (sets != 64 || ports != 16) {
				throw new IllegalStateException("Expected 64 sets and 16 ports, found " + sets + " and " + ports);
			}
		}

		@Setup(Level.Invocation)
		public void expireReadCache() throws InterruptedException {
			Thread.sleep(110);
		}

		@Benchmark
		public String scrape() {
			return this.prometheus.scrape();
		}

		@TearDown
		public void stop() {
			this.context.close();
		}

	}

	/**
	 * The application: auto-configuration only.
	 */
	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	public static class HostApplication {

	}

}
