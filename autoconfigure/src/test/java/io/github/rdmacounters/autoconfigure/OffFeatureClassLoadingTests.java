package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.rdmacounters.diagnosis.HostDiagnosis;
import io.github.rdmacounters.simulated.RecordingVerbHook;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that a start with the features that are off by default loads none of their
 * classes: the starter's classes are defined by a class loader of the test's own, which
 * can tell which of them were loaded (by Spring reflecting on the signatures of a
 * configuration class, for instance).
 *
 * @author rdma-counters
 */
class OffFeatureClassLoadingTests {

	private static final List<String> OBSERVATION_HANDLERS = List.of(
			"io.github.rdmacounters.observation.CounterDeltaObservationHandler",
			"io.github.rdmacounters.observation.PortCounterDeltaObservationHandler",
			"io.github.rdmacounters.observation.QueuePairCounterDeltaObservationHandler");

	private static final List<String> DIAGNOSIS_RUN = List.of("io.github.rdmacounters.diagnosis.DeviceReport",
			"io.github.rdmacounters.diagnosis.KernelReport", "io.github.rdmacounters.diagnosis.VerbsReport",
			"io.github.rdmacounters.diagnosis.OptionalCountersCollector",
			"io.github.rdmacounters.diagnosis.EthtoolCollector");

	private static final String QUEUE_PAIRS = "io.github.rdmacounters.autoconfigure.netlink.RdmaQueuePairsAutoConfiguration";

	private final StarterClassLoader loader = new StarterClassLoader();

	private ClassLoader contextClassLoader;

	/**
	 * The simulated backend finds core's test verb hook through the thread's context
	 * class loader: the hook must implement this loader's interface.
	 */
	@BeforeEach
	void useLoader() {
		this.contextClassLoader = Thread.currentThread().getContextClassLoader();
		Thread.currentThread().setContextClassLoader(this.loader);
	}

	@AfterEach
	void closeLoader() throws IOException {
		Thread.currentThread().setContextClassLoader(this.contextClassLoader);
		this.loader.close();
	}

	@Test
	void runByDefaultLoadsNoClassOfTheObservationHandlersNorOfTheDiagnosisRun() {
		contextRunner().run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(this.loader.isLoaded("io.github.rdmacounters.autoconfigure.observation."
					+ "RdmaObservationsAutoConfiguration$ObservationsOffConfiguration"))
				.as("the loader defines the starter's classes")
				.isTrue();
			assertThat(this.loader.isLoaded("io.github.rdmacounters.diagnosis.HostDiagnosis")).isTrue();
			assertThat(OBSERVATION_HANDLERS).noneMatch(this.loader::isLoaded);
			assertThat(DIAGNOSIS_RUN).noneMatch(this.loader::isLoaded);
			// which the observations' auto-configuration is ordered after, by name
			assertThat(this.loader.isLoaded(QUEUE_PAIRS)).isFalse();
		});
	}

	@Test
	void runWithObservationsLoadsTheirHandler() {
		contextRunner()
			.withPropertyValues("rdma.observations.enabled=true", "rdma.observations.names=checkpoint",
					"rdma.observations.sets=nvme")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(this.loader.isLoaded(OBSERVATION_HANDLERS.get(0))).isTrue();
			});
	}

	private ApplicationContextRunner contextRunner() {
		return new ApplicationContextRunner().withClassLoader(this.loader)
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
					ObservationAutoConfiguration.class,
					starterClass("io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration"),
					starterClass("io.github.rdmacounters.autoconfigure.observation.RdmaObservationsAutoConfiguration"),
					starterClass("io.github.rdmacounters.autoconfigure.diagnosis.RdmaDiagnosisAutoConfiguration")))
			.withPropertyValues("rdma.backend=simulated", "rdma.counter-sets.nvme.flow.protocol=tcp",
					"rdma.counter-sets.nvme.flow.destination-port=4420");
	}

	private Class<?> starterClass(String name) {
		try {
			return this.loader.loadClass(name);
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Defines the classes of the starter, core and core's test support itself (child
	 * first), everything else through the test's class loader.
	 */
	static final class StarterClassLoader extends URLClassLoader {

		StarterClassLoader() {
			super(new URL[] { location(RdmaAutoConfiguration.class), location(HostDiagnosis.class),
					location(RecordingVerbHook.class) }, StarterClassLoader.class.getClassLoader());
		}

		private static URL location(Class<?> type) {
			return type.getProtectionDomain().getCodeSource().getLocation();
		}

		@Override
		protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
			if (!name.startsWith("io.github.rdmacounters.")) {
				return super.loadClass(name, resolve);
			}
			synchronized (getClassLoadingLock(name)) {
				Class<?> loaded = findLoadedClass(name);
				if (loaded != null) {
					return loaded;
				}
				try {
					return findClass(name);
				}
				catch (ClassNotFoundException ex) {
					return super.loadClass(name, resolve);
				}
			}
		}

		boolean isLoaded(String name) {
			return findLoadedClass(name) != null;
		}

	}

}
