package io.github.rdmacounters.diagnosis.command;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the packaged jar as a user does, {@code java -jar rdma-counters-diagnosis.jar}, in
 * a process of its own.
 *
 * @author rdma-counters
 */
class DiagnosisJarTests {

	private static final Path JAR = Path.of(System.getProperty("diagnosis.jar", "target/rdma-counters-diagnosis.jar"));

	@Test
	void runOnThisHostPrintsTheReportAndExitsZero() throws Exception {
		Result result = run();
		assertThat(result.exitCode()).as(result.toString()).isZero();
		assertThat(result.out()).startsWith("RDMA host diagnosis (schema 1, ").contains("Kernel: Linux ");
		if (!Files.exists(Path.of("/sys/class/infiniband_verbs"))) {
			// this project's machines and CI: no RDMA stack
			assertThat(result.out()).contains("No RDMA stack: the kernel has no RDMA stack, so nothing can count.")
				.contains("modprobe mlx5_ib")
				.contains("ibv_get_device_list failed: ENOSYS (38)");
		}
		else if (isEmptyDirectory(Path.of("/sys/class/infiniband"))) {
			// the RDMA modules loaded and no device (a GPU host without RDMA NICs; see
			// benchmarks/results/hardware/2026-12-04-h200-host.md)
			assertThat(result.out()).contains("No RDMA device: the RDMA stack is loaded but no device is present.");
		}
		else {
			assertThat(result.out()).containsPattern("\\d+ devices?, \\d+ ports?: flow counters on ");
		}
		assertThat(result.err()).isEmpty();
	}

	@Test
	void jsonHasTheSchemaVersion() throws Exception {
		Result result = run("--json");
		assertThat(result.exitCode()).as(result.toString()).isZero();
		assertThat(result.out()).startsWith("{\n  \"schemaVersion\": 1,\n  \"generatedAt\": \"")
			.contains("\"kernel\": {")
			.endsWith("}\n");
	}

	@Test
	void withoutLibibverbsItSaysWhatToInstall(@TempDir Path empty) throws Exception {
		Result result = run("--library", empty.resolve("libibverbs.so.1").toString(), "--sysfs-root", empty.toString());
		assertThat(result.exitCode()).as(result.toString()).isZero();
		assertThat(result.out()).contains("No RDMA: libibverbs cannot be loaded and " + empty + " shows no RDMA device")
			.contains("apt install libibverbs1");
	}

	@Test
	void aLibraryNamedThatCannotBeLoadedIsNamedToCheckFirst(@TempDir Path empty) throws Exception {
		String library = empty.resolve("libverbs-typo.so").toString();
		Result result = run("--library", library, "--sysfs-root", empty.toString());
		assertThat(result.exitCode()).as(result.toString()).isZero();
		assertThat(result.out()).contains("Check the library named (" + library + "): it must be rdma-core's "
				+ "libibverbs, such as libibverbs.so.1 or its full path");
	}

	@Test
	void unknownArgumentIsNamedAndExitsTwo() throws Exception {
		Result result = run("--jsn");
		assertThat(result.exitCode()).isEqualTo(2);
		assertThat(result.out()).isEmpty();
		assertThat(result.err()).startsWith("Unknown argument '--jsn'.").contains("Usage: java -jar");
	}

	@Test
	void sysfsRootWithoutValueIsNamedAndExitsTwo() throws Exception {
		Result result = run("--json", "--sysfs-root");
		assertThat(result.exitCode()).isEqualTo(2);
		assertThat(result.err()).startsWith("The argument '--sysfs-root' needs a value: a directory.");
	}

	@Test
	void sysfsRootThatIsNoDirectoryIsNamedAndExitsTwo(@TempDir Path temp) throws Exception {
		Result result = run("--sysfs-root=" + temp.resolve("nowhere"));
		assertThat(result.exitCode()).isEqualTo(2);
		assertThat(result.err())
			.startsWith("The argument '--sysfs-root " + temp.resolve("nowhere") + "' is not a directory");
	}

	@Test
	void sysfsRootThatHoldsNoDeviceDirectoryIsNamedAndExitsTwo(@TempDir Path temp) throws Exception {
		Files.createDirectories(temp.resolve("PackageKit"));
		Files.writeString(temp.resolve("hosts"), "127.0.0.1 localhost\n");
		Result result = run("--sysfs-root", temp.toString());
		assertThat(result.exitCode()).as(result.toString()).isEqualTo(2);
		assertThat(result.out()).isEmpty();
		assertThat(result.err()).startsWith("The argument '--sysfs-root " + temp
				+ "' is not an RDMA class directory: none of its 2 entries (PackageKit, hosts) is a device with a "
				+ "ports directory");
	}

	@Test
	void emptySysfsRootIsAHostWithoutDevicesAndExitsZero(@TempDir Path empty) throws Exception {
		Result result = run("--sysfs-root", empty.toString());
		assertThat(result.exitCode()).as(result.toString()).isZero();
		assertThat(result.out()).containsPattern("No RDMA (stack|device):");
	}

	@Test
	void reportThatCannotBeWrittenExitsOne() throws Exception {
		Result result = run(ProcessBuilder.Redirect.to(Path.of("/dev/full").toFile()), "--json");
		assertThat(result.exitCode()).as(result.toString()).isEqualTo(1);
		assertThat(result.err()).startsWith("The report could not be written to standard output");
	}

	@Test
	void reportToAClosedStandardOutputExitsOne() throws Exception {
		List<String> command = new ArrayList<>(javaJar());
		String line = String.join(" ", command.stream().map((word) -> "'" + word + "'").toList()) + " >&-";
		Process process = new ProcessBuilder("sh", "-c", line).start();
		byte[] err = process.getErrorStream().readAllBytes();
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the command exits").isTrue();
		assertThat(process.exitValue()).isEqualTo(1);
		assertThat(new String(err, StandardCharsets.UTF_8))
			.startsWith("The report could not be written to standard output");
	}

	@Test
	void flagWithValueIsNamedAndExitsTwo() throws Exception {
		Result result = run("--probe=yes");
		assertThat(result.exitCode()).isEqualTo(2);
		assertThat(result.err()).startsWith("The argument '--probe=yes' takes no value.");
	}

	private static boolean isEmptyDirectory(Path directory) throws IOException {
		try (var entries = Files.list(directory)) {
			return entries.findAny().isEmpty();
		}
	}

	private static List<String> javaJar() {
		assertThat(JAR).as("the packaged jar; run mvn verify -pl diagnosis -am").isRegularFile();
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.add("-jar");
		command.add(JAR.toString());
		return command;
	}

	private static Result run(String... args) throws IOException, InterruptedException {
		return run(ProcessBuilder.Redirect.PIPE, args);
	}

	private static Result run(ProcessBuilder.Redirect stdout, String... args) throws IOException, InterruptedException {
		List<String> command = javaJar();
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).redirectOutput(stdout).start();
		byte[] out = process.getInputStream().readAllBytes();
		byte[] err = process.getErrorStream().readAllBytes();
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the command exits").isTrue();
		return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8),
				new String(err, StandardCharsets.UTF_8));
	}

	private record Result(int exitCode, String out, String err) {

	}

}
