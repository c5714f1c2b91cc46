package io.github.rdmacounters.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.metrics.ApplicationStartup;
import org.springframework.core.metrics.StartupStep;

/**
 * Where the first start of {@link MultiDeviceBenchmark}'s web application spends the CPU
 * time of its main thread, per startup step of Spring (a bean's instantiation, the
 * parsing of the configuration classes, the start of the web server...): CPU time, unlike
 * wall time, barely moves with the load of a shared machine, and a step's own time leaves
 * out the steps inside it. {@code <true|false> <devices> <ports> <sets per device>}: one
 * start with or without the starter in this new JVM; prints {@code start} (wall ms),
 * {@code maincpu} (the main thread's CPU ms until {@code run} returns) and one line per
 * step, its own CPU ms and its name (with the bean's name), steps of equal names added
 * up, then the main thread's CPU outside any step.
 *
 * @author rdma-counters
 */
public final class StartupCpuSteps implements ApplicationStartup {

	private static final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	private final Thread main = Thread.currentThread();

	private final Deque<Step> open = new ArrayDeque<>();

	private final Map<String, Double> own = new LinkedHashMap<>();

	private long ids;

	private StartupCpuSteps() {
	}

	public static void main(String[] args) {
		if (args.length != 4) {
			throw new IllegalArgumentException(
					"Usage: StartupCpuSteps <true|false> <devices> <ports> <sets per device>");
		}
		StartupCpuSteps steps = new StartupCpuSteps();
		long start = System.nanoTime();
		ConfigurableApplicationContext context = new SpringApplicationBuilder(
				MultiDeviceBenchmark.HostApplication.class)
			.web(WebApplicationType.SERVLET)
			.logStartupInfo(false)
			.properties(MultiDeviceBenchmark.properties(Integer.parseInt(args[1]), Integer.parseInt(args[2]),
					Integer.parseInt(args[3]), Boolean.parseBoolean(args[0])))
			.applicationStartup(steps)
			.run();
		double wall = (System.nanoTime() - start) / 1e6;
		double cpu = threads.getCurrentThreadCpuTime() / 1e6;
		context.close();
		System.out.printf("start %.1f%nmaincpu %.1f%n", wall, cpu);
		double inSteps = 0;
		for (Map.Entry<String, Double> step : steps.own.entrySet()) {
			inSteps += step.getValue();
			System.out.printf("%8.2f %s%n", step.getValue(), step.getKey());
		}
		System.out.printf("%8.2f (outside any step)%n", cpu - inSteps);
	}

	@Override
	public StartupStep start(String name) {
		Step step = new Step(name, Thread.currentThread() == this.main);
		if (step.measured) {
			this.open.push(step);
		}
		return step;
	}

	private final class Step implements StartupStep {

		private final String name;

		private final long id = StartupCpuSteps.this.ids++;

		private final boolean measured;

		private final long cpu = threads.getCurrentThreadCpuTime();

		private long inner;

		private String bean = "";

		Step(String name, boolean measured) {
			this.name = name;
			this.measured = measured;
		}

		@Override
		public String getName() {
			return this.name;
		}

		@Override
		public long getId() {
			return this.id;
		}

		@Override
		public Long getParentId() {
			return null;
		}

		@Override
		public StartupStep tag(String key, String value) {
			if (key.equals("beanName")) {
				this.bean = " " + value;
			}
			return this;
		}

		@Override
		public StartupStep tag(String key, Supplier<String> value) {
			return tag(key, value.get());
		}

		@Override
		public Tags getTags() {
			return Collections::emptyIterator;
		}

		@Override
		public void end() {
			if (!this.measured) {
				return;
			}
			long total = threads.getCurrentThreadCpuTime() - this.cpu;
			StartupCpuSteps.this.open.pop();
			Step outer = StartupCpuSteps.this.open.peek();
			if (outer != null) {
				outer.inner += total;
			}
			StartupCpuSteps.this.own.merge(this.name + this.bean, (total - this.inner) / 1e6, Double::sum);
		}

	}

}
