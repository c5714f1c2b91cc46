package io.github.rdmacounters.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests of {@link NativeBuild#run(List, Duration)}, the process runner of the native test
 * builds: its time limit holds and kills the command, and a command that prints much
 * output never blocks.
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

}
