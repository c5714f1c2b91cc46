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
import org.openjdk.jmh.annotations.Param;
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
 * Cost of the starter on a host of many devices. {@link #startup} starts an application
 * (auto-configuration of the actuator, health, Micrometer with Prometheus, and the
 * starter) on a simulated host of {@code devices} devices with two ports each and eight
 * counter sets per device ({@code rdma.devices.<name>.counter-sets}), with the starter
 * ({@code starter=true}) and the same application without it ({@code starter=false}:
 * {@code rdma.enabled=false}, which turns every auto-configuration of the starter off),
 * in the same run; the added startup time is the ratio of the two. {@code web=servlet} is
 * the application users run the starter in: Spring MVC on Tomcat on a random loopback
 * port, with the health, prometheus and rdma endpoints exposed over HTTP;
 * {@code web=none} has no web server. The context is closed after each start, outside the
 * measured time; these starts are made in a warm JVM, after the warm-up starts.
 * <p>
 * {@link ColdStart#coldStartup} is the first start of the web application in a new JVM
 * (one start per fork, 10 forks), class loading included: the start a user sees.
 * <p>
 * {@link Scrape#scrape} is one {@code PrometheusMeterRegistry.scrape()} of an application
 * on 8 devices × 2 ports with 64 sets: the port counters of 16 ports and 64 sets, every
 * value read for that scrape (the read cache time-to-live, 100ms, expires before each
 * scrape, outside the measured time).
 *
 * @author rdma-counters
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 10)
@Measurement(iterations = 20)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
public class MultiDeviceBenchmark {

	private static final int SETS_PER_DEVICE = 8;

	@Param({ "1", "8", "16" })
	public int devices;

	@Param({ "false", "true" })
	public boolean starter;

	@Param({ "none", "servlet" })
	public String web;

	private ConfigurableApplicationContext context;

	@Benchmark
	public ConfigurableApplicationContext startup() {
		this.context = start(this.devices, this.starter, WebApplicationType.valueOf(this.web.toUpperCase()));
		return this.context;
	}

	@TearDown(Level.Iteration)
	public void close() {
		if (this.context != null) {
			this.context.close();
			this.context = null;
		}
	}

	static ConfigurableApplicationContext start(int devices, boolean starter, WebApplicationType web) {
		return new SpringApplicationBuilder(HostApplication.class).web(web)
			.logStartupInfo(false)
			.properties(properties(devices, starter))
			.run();
	}

	static Map<String, Object> properties(int devices, boolean starter) {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("spring.main.banner-mode", "off");
		properties.put("logging.level.root", "warn");
		properties.put("rdma.enabled", starter);
		properties.put("rdma.backend", "simulated");
		properties.put("rdma.read-cache-ttl", "100ms");
		properties.put("server.port", 0);
		properties.put("server.address", "127.0.0.1");
		properties.put("management.endpoints.web.exposure.include", "health,prometheus,rdma");
		for (int d = 0; d < devices; d++) {
			String name = "sim_mlx5_" + d;
			properties.put("rdma.simulated.devices." + name + ".ports", 2);
			for (int s = 0; s < SETS_PER_DEVICE; s++) {
				String set = "rdma.devices." + name + ".counter-sets.s" + s + ".flow.";
				properties.put(set + "protocol", "tcp");
				properties.put(set + "destination-port", 4000 + s);
			}
		}
		return properties;
	}

	/**
	 * The first start of the web application in a new JVM.
	 */
	@State(Scope.Benchmark)
	@BenchmarkMode(Mode.SingleShotTime)
	@OutputTimeUnit(TimeUnit.MILLISECONDS)
	@Warmup(iterations = 0)
	@Measurement(iterations = 1)
	@Fork(value = 10, jvmArgsAppend = "-Xmx1g")
	public static class ColdStart {

		@Param({ "8" })
		public int devices;

		@Param({ "false", "true" })
		public boolean starter;

		private ConfigurableApplicationContext context;

		@Benchmark
		public ConfigurableApplicationContext coldStartup() {
			this.context = start(this.devices, this.starter, WebApplicationType.SERVLET);
			return this.context;
		}

		@TearDown(Level.Iteration)
		public void close() {
			if (this.context != null) {
				this.context.close();
				this.context = null;
			}
		}

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
