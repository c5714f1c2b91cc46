package io.github.rdmacounters.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.ConfigurationPropertyCaching;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import io.github.rdmacounters.autoconfigure.event.RdmaEventsAutoConfiguration;
import io.github.rdmacounters.core.RdmaRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How often a start passes over the property sources: each pass reads all names of a
 * source, counted on the application's properties and on the environment variables by who
 * reads them. Boot's property caching is on, as it is while Boot binds, so that a lookup
 * of one property does not count as a pass.
 *
 * @author rdma-counters
 */
class PropertySourcePassesTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class, RdmaEventsAutoConfiguration.class));

	@Test
	void startWithThreeSetsPassesOnceOverEachPropertySourceToCheckThePropertiesAsWritten() {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("rdma.backend", "simulated");
		for (String set : new String[] { "roce", "vxlan", "nvme" }) {
			properties.put("rdma.counter-sets." + set + ".flow.protocol", "udp");
			properties.put("rdma.counter-sets." + set + ".flow.destination-port", String.valueOf(set.length()));
		}
		Map<String, Object> variables = new LinkedHashMap<>();
		variables.put("PATH", "/usr/bin");
		variables.put("HOME", "/home/app");
		variables.put("RDMA_EVENTS_ENABLED", "true");
		Counting application = new Counting(properties);
		CountingVariables environment = new CountingVariables(variables);
		this.runner.withInitializer((context) -> {
			context.getEnvironment().getPropertySources().addFirst(application);
			context.getEnvironment()
				.getPropertySources()
				.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, environment);
			ConfigurationPropertySources.attach(context.getEnvironment());
			ConfigurationPropertyCaching.get(context.getEnvironment()).enable();
		}).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(RdmaRegistry.class).counterSet("nvme")).isNotNull();
			System.out.println("Passes over the property sources on a start with 3 sets, by reader: application "
					+ application.passes + "; environment variables " + environment.passes);
			// before: 7 by the starter over the application's properties
			// (WrittenRdmaProperties 5)
			// and 28 over the environment variables (22 of them by a second binding)
			assertThat(application.passes).as("passes of the written-property checks")
				.containsEntry("RdmaPropertyScan.of", 1);
			assertThat(environment.passes).containsEntry("RdmaPropertyScan.of", 1)
				.doesNotContainKey("WrittenRdmaProperties.checkEnvironmentVariables");
			// one scan, by the registrar's condition, handed to the BeanRegistrar (which
			// AOT runs alone, then scanning itself) and the checks, and Boot's first read
			// of the names for its cache at the condition's lookup of rdma.enabled; 4
			// before (the set names scanned by the condition and again by the registrar,
			// then the checks' own scan) -> 2
			assertThat(starter(application.passes)).as("passes of the starter over the application's properties")
				.isLessThanOrEqualTo(2);
			assertThat(starter(environment.passes)).as("passes of the starter over the environment variables")
				.isLessThanOrEqualTo(2);
		});
	}

	@Test
	void startWithoutSetsPassesOnceOverEachPropertySource() {
		Counting application = new Counting(Map.of("rdma.backend", "simulated"));
		CountingVariables environment = new CountingVariables(Map.of("PATH", "/usr/bin"));
		this.runner.withInitializer((context) -> {
			context.getEnvironment().getPropertySources().addFirst(application);
			context.getEnvironment()
				.getPropertySources()
				.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, environment);
			ConfigurationPropertySources.attach(context.getEnvironment());
			ConfigurationPropertyCaching.get(context.getEnvironment()).enable();
		}).run((context) -> {
			assertThat(context).hasNotFailed();
			System.out.println("Passes over the property sources on a start without sets, by reader: application "
					+ application.passes + "; environment variables " + environment.passes);
			assertThat(starter(application.passes)).isLessThanOrEqualTo(2);
			assertThat(starter(environment.passes)).isLessThanOrEqualTo(2);
		});
	}

	private static int starter(Map<String, Integer> passes) {
		return passes.entrySet()
			.stream()
			.filter((entry) -> !entry.getKey().equals(BOOT))
			.mapToInt(Map.Entry::getValue)
			.sum();
	}

	private static final String BOOT = "Boot's binding of RdmaProperties";

	/** Count a pass under the starter's class and method that made it, else as Boot's. */
	private static void pass(Map<String, Integer> passes) {
		String reader = StackWalker.getInstance()
			.walk((frames) -> frames
				.filter((frame) -> frame.getClassName().startsWith("io.github.rdmacounters.autoconfigure.")
						&& !frame.getClassName().startsWith(PropertySourcePassesTests.class.getName()))
				.map((frame) -> frame.getClassName().substring(frame.getClassName().lastIndexOf('.') + 1) + "."
						+ frame.getMethodName())
				.findFirst())
			.orElse(BOOT);
		synchronized (passes) {
			passes.merge(reader, 1, Integer::sum);
		}
	}

	/** Application properties that count each read of all their names. */
	static final class Counting extends MapPropertySource {

		final Map<String, Integer> passes = new TreeMap<>();

		Counting(Map<String, Object> properties) {
			super("application", properties);
		}

		@Override
		public String[] getPropertyNames() {
			pass(this.passes);
			return super.getPropertyNames();
		}

	}

	/** Environment variables, named and typed as Boot's, counted as {@link Counting}. */
	static final class CountingVariables extends SystemEnvironmentPropertySource {

		final Map<String, Integer> passes = new TreeMap<>();

		CountingVariables(Map<String, Object> variables) {
			super(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables);
		}

		@Override
		public String[] getPropertyNames() {
			pass(this.passes);
			return super.getPropertyNames();
		}

	}

}
