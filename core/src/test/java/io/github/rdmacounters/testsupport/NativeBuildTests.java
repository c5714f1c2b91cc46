package io.github.rdmacounters.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests of {@link NativeBuild}: its process runner's time limit holds and kills the
 * command, a command that prints much output never blocks, and a build is reused only
 * while the headers it includes are the same.
 *
 * @author rdma-counters
 */
class NativeBuildTests {

	@Test
	void commandRunningPastTheTimeoutIsKilledAndFailsWithAClearMessage(@TempDir Path dir) throws Exception {
		Path pidFile = dir.resolve("pid");
		List<String> command = List.of("/bin/sh", "-c", "echo started; echo $$ > '" + pidFile + "'; exec sleep 300");
		assertThatIllegalStateException().isThrownBy(() -> NativeBuild.run(command, Duration.ofSeconds(1)))
			.withMessageStartingWith("sh did not finish within 1 s and was killed")
			.withMessageContaining("sleep 300")
			.withMessageContaining("started");
		long pid = Long.parseLong(Files.readString(pidFile).trim());
		Optional<ProcessHandle> process = ProcessHandle.of(pid);
		assertThat(process.map(ProcessHandle::isAlive)).as("the hung command was killed")
			.isNotEqualTo(Optional.of(true));
	}

	@Test
	void commandPrintingMoreThanAPipeHoldsFinishesWithItsOutputAndExitCode() {
		List<String> command = List.of("/bin/sh", "-c", "head -c 1000000 /dev/zero | tr '\\0' x; echo; exit 3");
		NativeBuild.Result result = NativeBuild.run(command, Duration.ofSeconds(60));
		assertThat(result.exitCode()).isEqualTo(3);
		assertThat(result.output()).hasSize(1_000_001).startsWith("xxxx");
	}

	@Test
	void missingProgramFailsNamingTheCommand() {
		assertThatIllegalStateException()
			.isThrownBy(() -> NativeBuild.run(List.of("/nonexistent/rdma-counters-cc"), Duration.ofSeconds(5)))
			.withMessageStartingWith("Cannot run /nonexistent/rdma-counters-cc");
	}

	@Test
	void changedHeaderOrIncludePathIsANewBuildNeverAStaleOne(@TempDir Path dir) throws Exception {
		Path first = Files.createDirectories(dir.resolve("first"));
		Path second = Files.createDirectories(dir.resolve("second"));
		Path header = first.resolve("rdma_counters_include_probe.h");
		Files.writeString(header, "#define INCLUDE_PROBE_VALUE 1\n");
		Files.writeString(second.resolve("rdma_counters_include_probe.h"), "#define INCLUDE_PROBE_VALUE 3\n");
		Path one = includeProbe(first);
		assertThat(NativeBuild.run(one).trim()).isEqualTo("1");
		assertThat(includeProbe(first)).as("same header, same build").isEqualTo(one);
		Files.writeString(header, "#define INCLUDE_PROBE_VALUE 2\n");
		Path two = includeProbe(first);
		assertThat(two).isNotEqualTo(one);
		assertThat(NativeBuild.run(two).trim()).isEqualTo("2");
		Path three = includeProbe(second);
		assertThat(three).isNotEqualTo(one).isNotEqualTo(two);
		assertThat(NativeBuild.run(three).trim()).isEqualTo("3");
	}

	@Test
	void missingHeaderFailsSayingWhatToInstall(@TempDir Path dir) {
		assertThatIllegalStateException().isThrownBy(() -> includeProbe(dir))
			.withMessageContaining("gcc could not preprocess abi-probe/include_probe.c")
			.withMessageContaining(NativeBuild.INSTALL_HINT)
			.withMessageContaining("rdma_counters_include_probe.h");
	}

	private static Path includeProbe(Path includeDir) {
		return NativeBuild.build("abi-probe/include_probe.c", "include-probe", "", List.of("-O0"), List.of(),
				Map.of("CPATH", includeDir.toString()));
	}

}
