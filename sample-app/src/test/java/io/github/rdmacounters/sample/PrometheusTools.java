package io.github.rdmacounters.sample;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

/**
 * Runs Debian's {@code promtool} and {@code prometheus} (package {@code prometheus}) for
 * the tests, and finds the repository's {@code monitoring/} mixin.
 */
final class PrometheusTools {

	/**
	 * Excludes Boot's Prometheus exemplars: with tracing on the test classpath (the
	 * OpenTelemetry starter of {@link OtlpExportTests}) the OpenMetrics scrape carries
	 * exemplars on {@code http_server_requests_seconds_count}, which Prometheus 2.42
	 * rejects ("does not support exemplars"), failing the whole scrape.
	 */
	static final String NO_EXEMPLARS = "spring.autoconfigure.exclude="
			+ "org.springframework.boot.micrometer.tracing.autoconfigure.prometheus.PrometheusExemplarsAutoConfiguration";

	static final Path PROMTOOL = Path.of("/usr/bin/promtool");

	static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");

	private PrometheusTools() {
	}

	/**
	 * Return the path of a tool of the {@code prometheus} package, failing the test with
	 * what to install when it is missing.
	 * @param tool the tool's path
	 * @return the path
	 */
	static Path require(Path tool) {
		if (!Files.isExecutable(tool)) {
			fail(tool + " is missing: install it with `apt-get install -y prometheus` (Debian and Ubuntu)");
		}
		return tool;
	}

	/**
	 * Return the repository's {@code monitoring/} directory; tests run in the
	 * {@code sample-app} module directory.
	 * @return the directory
	 */
	static Path monitoring() {
		Path dir = Path.of("").toAbsolutePath().getParent().resolve("monitoring");
		assertThat(dir.resolve("rdma-rules.yml")).as("the monitoring mixin").isRegularFile();
		return dir;
	}

	/**
	 * Run a command to its end (at most one minute) with the given standard input.
	 * @param input the standard input, or {@code null}
	 * @param directory the working directory
	 * @param command the command
	 * @return the exit code and the output (standard output and error)
	 * @throws Exception if the command cannot be run
	 */
	static Result run(String input, Path directory, String... command) throws Exception {
		Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
		try {
			CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
			try (var stdin = process.getOutputStream()) {
				if (input != null) {
					stdin.write(input.getBytes(StandardCharsets.UTF_8));
				}
			}
			if (!process.waitFor(1, TimeUnit.MINUTES)) {
				fail(String.join(" ", command) + " did not finish within a minute");
			}
			return new Result(process.exitValue(), output.get(10, TimeUnit.SECONDS));
		}
		finally {
			process.destroyForcibly();
		}
	}

	private static String readAll(InputStream in) {
		try {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			return "(output unreadable: " + ex + ")";
		}
	}

	/**
	 * Keep the {@code rdma_} families of a Prometheus text scrape: their {@code # HELP},
	 * {@code # TYPE} and sample lines.
	 * @param scrape the scrape
	 * @return the rdma families
	 */
	static String rdmaFamilies(String scrape) {
		return scrape.lines()
			.filter((line) -> line.startsWith("rdma_") || line.startsWith("# HELP rdma_")
					|| line.startsWith("# TYPE rdma_"))
			.collect(Collectors.joining("\n", "", "\n"));
	}

	/**
	 * Scrape an application's {@code /actuator/prometheus} until the scrape satisfies the
	 * assertion (at most 20 seconds).
	 * @param port the application's port
	 * @param assertion what the scrape must show
	 * @return the scrape that satisfied it
	 */
	static String scrapeUntil(int port, Consumer<String> assertion) {
		HttpClient client = HttpClient.newHttpClient();
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
			.build();
		String[] scrape = new String[1];
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			scrape[0] = client.send(request, HttpResponse.BodyHandlers.ofString()).body();
			assertion.accept(scrape[0]);
		});
		return scrape[0];
	}

	/**
	 * Assert that {@code promtool check metrics} finds nothing in these families.
	 * @param families the families, e.g. from {@link #rdmaFamilies}
	 * @throws Exception if promtool cannot be run
	 */
	static void assertPromtoolFindsNothing(String families) throws Exception {
		Path promtool = require(PROMTOOL);
		Result result = run(families, Path.of("."), promtool.toString(), "check", "metrics");
		assertThat(result.output()).as("promtool check metrics findings").isEmpty();
		assertThat(result.exitCode()).isZero();
	}

	/**
	 * Return a free loopback TCP port.
	 * @return the port
	 * @throws IOException if no port can be bound
	 */
	static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	/**
	 * Exit code and output of a command.
	 *
	 * @param exitCode the exit code
	 * @param output the output
	 */
	record Result(int exitCode, String output) {

	}

}
