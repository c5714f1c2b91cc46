package io.github.rdmacounters.sample;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.aot.AotDetector;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.AnnotationConfigUtils;

import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.ReadMode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The sample as spring-boot-maven-plugin's {@code process-aot} generated it (in
 * {@code prepare-package}), started in AOT mode ({@code -Dspring.aot.enabled=true}, set
 * by failsafe): the Counters beans of the runtime's sets exist, count and close with the
 * context, also when the sets differ from those of the build (docs/aot.md).
 */
class SampleAotIT {

	private static final String TRAFFIC = "--sample.traffic.interval-ms=50";

	@Test
	void startsFromTheGeneratedCodeWithACountersBeanPerSetThatCountsAndClosesWithTheContext() {
		assertThat(AotDetector.useGeneratedArtifacts()).as("-Dspring.aot.enabled=true").isTrue();
		ConfigurableApplicationContext context = run(TRAFFIC);
		// no configuration class is parsed in AOT mode: the bean definitions are
		// generated code
		assertThat(context.containsBeanDefinition(AnnotationConfigUtils.CONFIGURATION_ANNOTATION_PROCESSOR_BEAN_NAME))
			.isFalse();
		Map<String, Counters> sets = context.getBeansOfType(Counters.class);
		assertThat(sets).containsOnlyKeys("nvme-tcp", "https", "storage");
		assertCounts(sets.get("nvme-tcp"));
		context.close();
		assertThat(sets.values()).allMatch(Counters::isClosed);
	}

	@Test
	void setsThatDifferAtRuntimeFromTheBuildAreTheBeansOfTheRuntimesSets(@TempDir Path config) throws IOException {
		// the deployment's application.yml: 'storage' renamed 'archive', and one more set
		String yml = sampleYml().replace("\n    storage:\n", "\n    archive:\n");
		Files.writeString(config.resolve("application.yml"), yml);
		ConfigurableApplicationContext context = run(TRAFFIC, "--spring.config.location=" + config.toUri(),
				"--rdma.counter-sets.runtime-only.netdev=ens1f0np0",
				"--rdma.counter-sets.runtime-only.flow.protocol=tcp",
				"--rdma.counter-sets.runtime-only.flow.destination-port=4420");
		Map<String, Counters> sets = context.getBeansOfType(Counters.class);
		assertThat(sets).containsOnlyKeys("nvme-tcp", "https", "archive", "runtime-only");
		assertCounts(sets.get("runtime-only"));
		context.close();
		assertThat(sets.values()).allMatch(Counters::isClosed);
	}

	@Test
	void setNamedLikeABeanOnlyAtRuntimeFailsStartupNamingTheSetsProperty() {
		assertThatExceptionOfType(RuntimeException.class)
			.isThrownBy(() -> run("--rdma.counter-sets.rdmaDevices.netdev=ens1f0np0",
					"--rdma.counter-sets.rdmaDevices.flow.protocol=udp"))
			.satisfies((ex) -> assertThat(causes(ex))
				.anySatisfy((cause) -> assertThat(cause).isInstanceOf(InvalidConfigurationPropertyValueException.class)
					.hasMessageContaining("Property rdma.counter-sets.rdmaDevices ")
					.hasMessageContaining("A bean named 'rdmaDevices'")));
	}

	private static ConfigurableApplicationContext run(String... args) {
		SpringApplication application = new SpringApplication(SampleApplication.class);
		// the generated initializer is the main class's (here the test runner's, by
		// default)
		application.setMainApplicationClass(SampleApplication.class);
		List<String> all = new ArrayList<>(
				List.of("--server.port=0", "--management.otlp.metrics.export.enabled=false"));
		all.addAll(List.of(args));
		return application.run(all.toArray(String[]::new));
	}

	private static void assertCounts(Counters counters) {
		long start = counters.read(ReadMode.FRESH).get(0);
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(100))
			.untilAsserted(() -> assertThat(counters.read(ReadMode.FRESH).get(0)).isGreaterThan(start));
	}

	private static String sampleYml() throws IOException {
		try (InputStream in = SampleAotIT.class.getResourceAsStream("/application.yml")) {
			assertThat(in).isNotNull();
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

	private static List<Throwable> causes(Throwable ex) {
		List<Throwable> causes = new ArrayList<>();
		for (Throwable cause = ex; cause != null && !causes.contains(cause); cause = cause.getCause()) {
			causes.add(cause);
		}
		return causes;
	}

}
