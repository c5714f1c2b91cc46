package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.rdmacounters.autoconfigure.event.RdmaEventsAutoConfiguration;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.testsupport.FakeVerbs;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A host with no RDMA device (port counters only, no counter set) starts and logs one
 * line that says why and what to do next; the device monitor adds no second line of its
 * own.
 */
@ExtendWith(OutputCaptureExtension.class)
class NoRdmaHostStartupTests {

	private final FakeVerbs fake = FakeVerbs.get();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class, RdmaEventsAutoConfiguration.class));

	@BeforeEach
	@AfterEach
	void resetFake() {
		this.fake.reset();
	}

	@Test
	void hostWithAnEmptySysfsRootLogsOneLineWithTheNextSteps(@TempDir Path temp, CapturedOutput output)
			throws IOException {
		// as on a GPU host with ib_core and ib_uverbs loaded and no RDMA NIC
		Path root = Files.createDirectories(temp.resolve("sys/class/infiniband"));
		Files.createDirectories(temp.resolve("sys/class/infiniband_verbs"));
		this.contextRunner
			.withPropertyValues("rdma.native.library=" + this.fake.libraryPath(),
					"rdma.port-counters.sysfs-root=" + root)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(RdmaRegistry.class).devices()).isEmpty();
			});
		assertThat(output)
			.containsOnlyOnce("No RDMA devices on this host: " + root
					+ " exists but holds no device: the RDMA stack (ib_core, ib_uverbs) is loaded")
			.containsOnlyOnce("Next: load the RDMA modules")
			.doesNotContain("RDMA devices are discovered at each read");
	}

}
