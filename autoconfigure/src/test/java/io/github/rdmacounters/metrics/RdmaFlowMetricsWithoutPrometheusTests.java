package io.github.rdmacounters.metrics;

import java.net.URL;
import java.net.URLClassLoader;
import java.security.CodeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

import io.micrometer.common.util.StringUtils;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.util.ClassUtils;

import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.testsupport.ScriptedDevice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests that {@link RdmaFlowMetrics} works without the Prometheus registry on the class path.
 * The binder checks for it with its own class loader, so the test loads the binder through a
 * class loader that sees the module's classes, Micrometer core and Spring core, and nothing of
 * Prometheus.
 */
class RdmaFlowMetricsWithoutPrometheusTests {

	@Test
	void bindingToASimpleRegistryWorksWithoutThePrometheusRegistryOnTheClassPath() throws Exception {
		try (URLClassLoader loader = new URLClassLoader(urls(), ClassLoader.getPlatformClassLoader())) {
			assertThatExceptionOfType(ClassNotFoundException.class)
				.isThrownBy(() -> loader.loadClass("io.micrometer.prometheusmetrics.PrometheusMeterRegistry"));
			assertThatExceptionOfType(ClassNotFoundException.class)
				.isThrownBy(() -> loader.loadClass("io.prometheus.metrics.model.registry.MultiCollector"));
			Class<?> probeType = loader.loadClass(Probe.class.getName());
			assertThat(probeType.getClassLoader()).isSameAs(loader);
			Callable<?> probe = (Callable<?>) probeType.getDeclaredConstructor().newInstance();

			assertThat(probe.call()).isEqualTo("packets=7.0 bytes=700.0 failures=0.0 meters=3 afterClose=0");
		}
	}

	private static URL[] urls() {
		Set<URL> urls = new LinkedHashSet<>();
		for (Class<?> type : List.of(RdmaFlowMetrics.class, ScriptedDevice.class, RdmaRegistry.class,
				MeterRegistry.class, StringUtils.class, ClassUtils.class, Nullable.class)) {
			CodeSource source = type.getProtectionDomain().getCodeSource();
			assertThat(source).as("code source of %s", type.getName()).isNotNull();
			urls.add(source.getLocation());
		}
		addIfPresent(urls, "org.apache.commons.logging.LogFactory");
		addIfPresent(urls, "org.HdrHistogram.Histogram");
		addIfPresent(urls, "org.LatencyUtils.PauseDetector");
		List<URL> list = new ArrayList<>(urls);
		for (URL url : list) {
			assertThat(url.toString()).as("class path entry").doesNotContain("prometheus");
		}
		return list.toArray(URL[]::new);
	}

	private static void addIfPresent(Set<URL> urls, String className) {
		try {
			Class<?> type = Class.forName(className, false, RdmaFlowMetricsWithoutPrometheusTests.class.getClassLoader());
			urls.add(type.getProtectionDomain().getCodeSource().getLocation());
		}
		catch (ClassNotFoundException ex) {
			// Not a dependency of this Micrometer or Spring version
		}
	}

	/**
	 * Binds flow metrics to a simple registry; run through the isolated class loader.
	 */
	public static class Probe implements Callable<String> {

		@Override
		public String call() {
			ScriptedDevice device = new ScriptedDevice("mlx5_0", "simulated");
			RdmaRegistry registry = new RdmaRegistry(List.of(new ManagedDevice(device, 1,
					List.of(device.counterSet("roce", FlowSpec.any(), Duration.ZERO)), null)));
			SimpleMeterRegistry meters = new SimpleMeterRegistry();
			RdmaFlowMetrics metrics = new RdmaFlowMetrics(registry);
			metrics.bindTo(meters);
			device.counters().get(0).add(7, 700);
			FunctionCounter packets = meters.get(RdmaFlowMetrics.PACKETS).functionCounter();
			FunctionCounter bytes = meters.get(RdmaFlowMetrics.BYTES).functionCounter();
			FunctionCounter failures = meters.get(RdmaFlowMetrics.READ_FAILURES).functionCounter();
			String result = "packets=" + packets.count() + " bytes=" + bytes.count() + " failures=" + failures.count()
					+ " meters=" + meters.getMeters().size();
			metrics.close();
			return result + " afterClose=" + meters.getMeters().size();
		}

	}

}
