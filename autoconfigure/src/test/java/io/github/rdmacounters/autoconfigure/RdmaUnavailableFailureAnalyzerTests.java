package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.core.RdmaUnavailableException;
import io.github.rdmacounters.core.RdmaUnavailableException.Reason;
import io.github.rdmacounters.sysfs.HostSysfs;
import io.github.rdmacounters.testsupport.FakeVerbs;
import io.github.rdmacounters.testsupport.NativeBuild;
import io.github.rdmacounters.verbs.NativeBackend;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RdmaUnavailableFailureAnalyzer} with {@code rdma.native.library}
 * naming a truncated copy of a real library and a counter set that needs it: startup
 * fails with the analysis, and the JVM does not crash ({@code dlopen} of a truncated ELF
 * file dies with {@code SIGBUS}). Without counter sets the library is not loaded.
 *
 * @author rdma-counters
 */
class RdmaUnavailableFailureAnalyzerTests {

	private static final String STORAGE_SET = "rdma.counter-sets.storage.flow.protocol=tcp";

	private final ApplicationContextRunner withoutSets = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class));

	private final ApplicationContextRunner contextRunner = this.withoutSets.withPropertyValues(STORAGE_SET);

	@TempDir
	Path dir;

	private static Path realLibrary() {
		assertThat(new NativeBackend().unavailabilityCause()).as("libibverbs.so.1 loads").isNull();
		return NativeBuild.loadedLibrary(NativeBackend.DEFAULT_LIBRARY);
	}

	@Test
	void truncatedRealLibraryFailsStartupNamingThePropertyAndTheValue() {
		String truncated = NativeBuild.truncatedCopy(realLibrary(), 8192, this.dir).toString();
		this.contextRunner.withPropertyValues("rdma.native.library=" + truncated).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(RdmaUnavailableFailureAnalyzer.class)
				.descriptionContains("libibverbs could not be loaded", "'" + truncated + "'", "truncated")
				.actionContains("rdma.native.library");
		});
	}

	@Test
	void truncatedRealLibraryUnderASetThatNamesItsDeviceSaysWhichSetsCouldNotStart() {
		String truncated = NativeBuild.truncatedCopy(realLibrary(), 8192, this.dir).toString();
		this.contextRunner
			.withPropertyValues("rdma.native.library=" + truncated, "rdma.counter-sets.storage.device=mlx5_0")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(RdmaUnavailableFailureAnalyzer.class)
				.descriptionContains("RDMA device mlx5_0 of rdma.counter-sets.storage could not be started. The RDMA "
						+ "library libibverbs could not be loaded"));
	}

	@Test
	void truncatedFakeFailsStartupNamingTheProperty() throws IOException {
		Path fake = Path.of(FakeVerbs.get().libraryPath());
		String truncated = NativeBuild.truncatedCopy(fake, (int) Files.size(fake) / 3, this.dir).toString();
		this.contextRunner.withPropertyValues("rdma.native.library=" + truncated).run((context) -> {
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(RdmaUnavailableFailureAnalyzer.class)
				.descriptionContains("'" + truncated + "'", "ends at byte")
				.actionContains("rdma.native.library");
		});
	}

	@Test
	void truncatedLibraryAllowedAtStartupLeavesTheSetsDeviceUnavailable() {
		String truncated = NativeBuild.truncatedCopy(realLibrary(), 8192, this.dir).toString();
		this.contextRunner.withPropertyValues("rdma.native.library=" + truncated, "rdma.fail-on-unavailable=false")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				List<ManagedDevice> devices = context.getBean(RdmaRegistry.class).devices();
				assertThat(devices).hasSize(1);
				assertThat(devices.get(0).counterSets()).extracting(CounterSet::name).containsExactly("storage");
				Throwable cause = devices.get(0).unavailabilityCause();
				assertThat(cause).isInstanceOfSatisfying(RdmaUnavailableException.class,
						(ex) -> assertThat(ex.reason()).isEqualTo(Reason.LIBRARY_NOT_LOADABLE));
			});
	}

	@Test
	void truncatedLibraryWithoutCounterSetsStartsSinceNothingLoadsIt() {
		String truncated = NativeBuild.truncatedCopy(realLibrary(), 8192, this.dir).toString();
		this.withoutSets
			.withPropertyValues("rdma.native.library=" + truncated,
					"rdma.port-counters.sysfs-root=" + HostSysfs.empty(this.dir).root())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(RdmaRegistry.class).devices()).isEmpty();
				assertThat(context.getBean(HostPortCountersSource.class).snapshot().devices()).isEmpty();
			});
	}

	@Test
	void applicationStartedInItsOwnJvmWithATruncatedLibraryExitsWithTheAnalysisAndNoCrashLog() throws IOException {
		String truncated = NativeBuild.truncatedCopy(realLibrary(), 8192, this.dir).toString();
		Path crashDir = Files.createDirectories(this.dir.resolve("crash"));
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.add("-XX:ErrorFile=" + crashDir.resolve("hs_err_pid%p.log"));
		command.add("-Xshare:auto");
		command.add("-cp");
		command.add(System.getProperty("java.class.path"));
		command.add(TruncatedLibraryApplication.class.getName());
		command.add("--rdma.native.library=" + truncated);
		command.add("--" + STORAGE_SET);
		NativeBuild.Result result = NativeBuild.run(command, Duration.ofSeconds(60));
		assertThat(result.exitCode()).as("exit code (134 is a JVM crash)\n%s", result.output()).isEqualTo(1);
		assertThat(result.output()).contains("APPLICATION FAILED TO START", "rdma.native.library", truncated)
			.doesNotContain("SIGBUS", "A fatal error has been detected");
		try (Stream<Path> crashLogs = Files.list(crashDir)) {
			assertThat(crashLogs).as("hs_err files").isEmpty();
		}
	}

	/**
	 * An application with the auto-configuration only, started by the forked JVM.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TruncatedLibraryApplication {

		public static void main(String[] args) {
			SpringApplication application = new SpringApplication(TruncatedLibraryApplication.class);
			application.setDefaultProperties(Map.of("spring.main.web-application-type", "none",
					"spring.main.banner-mode", "off", "management.endpoints.enabled-by-default", "false"));
			try {
				application.run(args);
			}
			catch (RuntimeException ex) {
				System.exit(1);
			}
			System.exit(0);
		}

	}

}
