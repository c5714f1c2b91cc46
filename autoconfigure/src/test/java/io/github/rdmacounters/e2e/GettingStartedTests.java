package io.github.rdmacounters.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Builds an application from the README's Getting started section only (its first YAML
 * block as {@code application.yml}, web MVC, Actuator and Prometheus from the class path)
 * and checks what that section promises: it starts on the simulated backend, the counters
 * move, and {@code /actuator/health} shows the {@code rdma} component. The sample
 * application's {@code GettingStartedProjectTests} builds and starts the section's whole
 * project (its {@code pom.xml}, application class and commands) with Maven.
 *
 * @author rdma-counters
 */
class GettingStartedTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@Test
	void gettingStartedYamlStartsWithMovingCountersAndTheRdmaHealthComponent(@TempDir Path dir) throws Exception {
		Path yaml = dir.resolve("application.yml");
		Files.writeString(yaml, firstYamlBlockOfGettingStarted());
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(EndToEndApplication.class)
			.properties("spring.config.location=file:" + yaml, "server.port=0", "spring.main.banner-mode=off")
			.run()) {
			int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
			JsonNode health = json(port, "/actuator/health");
			assertThat(health.path("components").path("rdma").path("status").asString()).isEqualTo("UP");
			assertThat(health.at("/components/rdma/components/sim_mlx5_0/details/device").asString())
				.isEqualTo("sim_mlx5_0");
			long first = json(port, "/actuator/rdma/nvme-tcp").path("values").path("packets").asLong();
			await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(200))
				.untilAsserted(
						() -> assertThat(json(port, "/actuator/rdma/nvme-tcp").path("values").path("packets").asLong())
							.as("nvme-tcp packets after synthetic traffic")
							.isGreaterThan(first));
			assertThat(json(port, "/actuator/rdma/https").path("values").path("packets").asLong()).isPositive();
			String prometheus = get(port, "/actuator/prometheus").body();
			assertThat(prometheus).contains("set=\"nvme-tcp\"");
		}
	}

	private JsonNode json(int port, String path) throws IOException, InterruptedException {
		HttpResponse<String> response = get(port, path);
		assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
		return JSON.readTree(response.body());
	}

	private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
		return this.client.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.timeout(Duration.ofSeconds(10))
			.GET()
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static String firstYamlBlockOfGettingStarted() throws IOException {
		Path module = Path.of("").toAbsolutePath();
		Path readme = null;
		for (Path dir = module; dir != null && readme == null; dir = dir.getParent()) {
			if (Files.exists(dir.resolve("README.md")) && Files.exists(dir.resolve("autoconfigure"))) {
				readme = dir.resolve("README.md");
			}
		}
		assertThat(readme).as("README.md above %s", module).isNotNull();
		String text = Files.readString(readme, StandardCharsets.UTF_8);
		int start = text.indexOf("## Getting started\n");
		String section = text.substring(start, text.indexOf("\n## ", start + 1));
		Matcher block = Pattern.compile("^```yaml\\n(.*?)^```", Pattern.MULTILINE | Pattern.DOTALL).matcher(section);
		assertThat(block.find()).as("a YAML block in Getting started").isTrue();
		return block.group(1);
	}

}
