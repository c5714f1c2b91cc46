package io.github.rdmacounters.sample;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Builds and starts the README's Getting started project as a reader would, from the
 * README's own text: its {@code pom.xml}, application class and {@code application.yml}
 * written into a fresh folder, its build command run by Maven offline, its
 * {@code java -jar} command started on a free port, and its two {@code curl} claims
 * checked over HTTP. The build resolves rdma-counters from this reactor's jars, copied
 * into a private local repository under {@code target/} whose other entries link to the
 * shared local repository, so nothing is installed there.
 */
class GettingStartedProjectTests {

	private static final String VERSION = "0.1.0-SNAPSHOT";

	private static final Pattern BLOCK = Pattern.compile("^```(\\w+)\\n(.*?)^```", Pattern.MULTILINE | Pattern.DOTALL);

	private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);

	private static final Pattern CLASS = Pattern.compile("^public class (\\w+)", Pattern.MULTILINE);

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@Test
	void readmeProjectBuildsStartsAndAnswersAsTheReadmeSays(@TempDir Path project) throws Exception {
		Path root = Path.of("").toAbsolutePath().getParent();
		GettingStarted readme = GettingStarted.of(Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8));
		Files.writeString(project.resolve("pom.xml"), readme.pom());
		Matcher pkg = PACKAGE.matcher(readme.application());
		Matcher cls = CLASS.matcher(readme.application());
		assertThat(pkg.find() && cls.find()).as("package and public class of the README's application class").isTrue();
		Path source = project.resolve("src/main/java/" + pkg.group(1).replace('.', '/') + "/" + cls.group(1) + ".java");
		Files.createDirectories(source.getParent());
		Files.writeString(source, readme.application());
		Path resources = Files.createDirectories(project.resolve("src/main/resources"));
		Files.writeString(resources.resolve("application.yml"), readme.yaml());

		assertThat(readme.build()).as("the README's build command").isEqualTo("mvn -B package");
		Path repository = privateRepository(root);
		List<String> build = new ArrayList<>(List.of(maven(), "-B", "-o", "-q", "-Dmaven.repo.local=" + repository));
		build.add("package");
		run(project, build, Duration.ofMinutes(5));

		Matcher jar = Pattern.compile("^java -jar (\\S+\\.jar)$").matcher(readme.start());
		assertThat(jar.matches()).as("the README's start command: %s", readme.start()).isTrue();
		assertThat(project.resolve(jar.group(1))).as("the jar the README starts").isRegularFile();
		int port = freePort();
		Path log = project.resolve("application.log");
		Process application = new ProcessBuilder(java(), "-jar", jar.group(1), "--server.port=" + port,
				"--server.address=127.0.0.1")
			.directory(project.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		try {
			await().atMost(Duration.ofSeconds(90))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> !application.isAlive() || status(port, "/actuator/health") == 200);
			assertThat(application.isAlive()).as("the application, log:\n%s", Files.readString(log)).isTrue();
			// curl -s localhost:8080/actuator/health | jq .components.rdma
			String health = get(port, "/actuator/health");
			assertThat((String) JsonPath.read(health, "$.components.rdma.status")).isEqualTo("UP");
			assertThat((String) JsonPath.read(health, "$.components.rdma.components.sim_mlx5_0.details.device"))
				.isEqualTo("sim_mlx5_0");
			// curl -s localhost:8080/actuator/rdma/nvme-tcp | jq .values: packets and
			// bytes growing
			long packets = packets(port);
			await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(200))
				.untilAsserted(() -> assertThat(packets(port)).isGreaterThan(packets));
			assertThat(readme.text()).contains("curl -s localhost:8080/actuator/health | jq .components.rdma")
				.contains("curl -s localhost:8080/actuator/rdma/nvme-tcp | jq .values");
		}
		finally {
			application.destroy();
			if (!application.waitFor(20, TimeUnit.SECONDS)) {
				application.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
	}

	private long packets(int port) throws Exception {
		return ((Number) JsonPath.read(get(port, "/actuator/rdma/nvme-tcp"), "$.values.packets")).longValue();
	}

	private int status(int port, String path) {
		try {
			return request(port, path).statusCode();
		}
		catch (IOException ex) {
			return -1;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return -1;
		}
	}

	private String get(int port, String path) throws Exception {
		HttpResponse<String> response = request(port, path);
		assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
		return response.body();
	}

	private HttpResponse<String> request(int port, String path) throws IOException, InterruptedException {
		return this.client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(10))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * A local repository of this reactor's rdma-counters artifacts, every other entry a
	 * link into the shared local repository (read, never written: the build is offline).
	 */
	private static Path privateRepository(Path root) throws IOException {
		String configured = System.getProperty("rdma.local-repository");
		Path shared = Path.of((configured != null && !configured.isBlank()) ? configured
				: System.getProperty("user.home") + "/.m2/repository");
		assertThat(shared).as("the local Maven repository").isDirectory();
		Path repository = root.resolve("sample-app/target/getting-started-repository");
		link(shared, repository, "io");
		link(shared.resolve("io"), repository.resolve("io"), "github");
		link(shared.resolve("io/github"), repository.resolve("io/github"), "rdmacounters");
		Path group = Files.createDirectories(repository.resolve("io/github/rdmacounters"));
		install(group, "rdma-counters-parent", root.resolve("pom.xml"), null);
		install(group, "rdma-counters-bom", root.resolve("bom/pom.xml"), null);
		install(group, "rdma-counters-core", root.resolve("core/pom.xml"), root.resolve("core/target"));
		install(group, "rdma-counters-spring-boot", root.resolve("autoconfigure/pom.xml"),
				root.resolve("autoconfigure/target"));
		install(group, "rdma-counters-spring-boot-starter", root.resolve("starter/pom.xml"),
				root.resolve("starter/target"));
		return repository;
	}

	/** Link every entry of {@code from} into {@code to}, except {@code except}. */
	private static void link(Path from, Path to, String except) throws IOException {
		Files.createDirectories(to);
		if (!Files.isDirectory(from)) {
			return;
		}
		try (Stream<Path> entries = Files.list(from)) {
			for (Path entry : entries.toList()) {
				Path link = to.resolve(entry.getFileName().toString());
				if (!entry.getFileName().toString().equals(except) && !Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
					Files.createSymbolicLink(link, entry);
				}
			}
		}
	}

	private static void install(Path group, String artifact, Path pom, Path target) throws IOException {
		Path dir = Files.createDirectories(group.resolve(artifact).resolve(VERSION));
		Files.copy(pom, dir.resolve(artifact + "-" + VERSION + ".pom"), StandardCopyOption.REPLACE_EXISTING);
		if (target != null) {
			Path jar = target.resolve(artifact + "-" + VERSION + ".jar");
			assertThat(jar).as("the reactor's jar (run the test with mvn verify, after package)").isRegularFile();
			Files.copy(jar, dir.resolve(artifact + "-" + VERSION + ".jar"), StandardCopyOption.REPLACE_EXISTING);
		}
	}

	private static void run(Path directory, List<String> command, Duration timeout) throws Exception {
		Path log = Files.createTempFile(directory, "build", ".log");
		Process process = new ProcessBuilder(command).directory(directory.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
			process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
		assertThat(process.exitValue()).as("%s:\n%s", String.join(" ", command), Files.readString(log)).isZero();
	}

	private static String maven() {
		String home = System.getProperty("maven.home");
		if (home != null && new File(home, "bin/mvn").canExecute()) {
			return new File(home, "bin/mvn").getPath();
		}
		return "mvn";
	}

	private static String java() {
		return ProcessHandle.current().info().command().orElse("java");
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	/**
	 * The Getting started section: its pom, application class, YAML and two commands.
	 */
	record GettingStarted(String text, String pom, String application, String yaml, String build, String start) {

		static GettingStarted of(String readme) {
			int from = readme.indexOf("## Getting started\n");
			assertThat(from).as("a Getting started section in the README").isNotNegative();
			String section = readme.substring(from, readme.indexOf("\n## ", from + 1));
			String pom = null;
			String application = null;
			String yaml = null;
			List<String> commands = new ArrayList<>();
			Matcher block = BLOCK.matcher(section);
			while (block.find()) {
				switch (block.group(1)) {
					case "xml" -> pom = (block.group(2).contains("<project")) ? block.group(2) : pom;
					case "java" -> application = block.group(2);
					case "yaml" -> yaml = (yaml == null) ? block.group(2) : yaml;
					case "shell" -> block.group(2).lines().filter((line) -> !line.isBlank()).forEach(commands::add);
					default -> {
					}
				}
			}
			assertThat(pom).as("a complete pom.xml in Getting started").isNotNull();
			assertThat(application).as("the application class in Getting started").isNotNull();
			assertThat(yaml).as("the application.yml in Getting started").isNotNull();
			assertThat(commands).as("the two commands of Getting started").hasSize(2);
			return new GettingStarted(section, pom, application, yaml, commands.get(0), commands.get(1));
		}

	}

}
