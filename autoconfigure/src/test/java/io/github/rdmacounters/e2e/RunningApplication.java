package io.github.rdmacounters.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * An {@link EndToEndApplication} running on a random port, with an HTTP client for it.
 */
final class RunningApplication implements AutoCloseable {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final ConfigurableApplicationContext context;

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final int port;

	private RunningApplication(ConfigurableApplicationContext context) {
		this.context = context;
		Integer port = context.getEnvironment().getProperty("local.server.port", Integer.class);
		if (port == null) {
			throw new IllegalStateException("The application did not start a web server");
		}
		this.port = port;
	}

	static RunningApplication start(Map<String, Object> properties) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(EndToEndApplication.class)
			.properties(properties)
			.properties(Map.of("server.port", "0", "spring.main.banner-mode", "off",
					"management.endpoints.web.exposure.include", "health,rdma,prometheus",
					"management.endpoint.health.show-details", "always"))
			.run();
		return new RunningApplication(context);
	}

	ConfigurableApplicationContext context() {
		return this.context;
	}

	HttpResponse<String> get(String path) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.timeout(Duration.ofSeconds(10))
			.GET()
			.build();
		return this.client.send(request, HttpResponse.BodyHandlers.ofString());
	}

	JsonNode json(String path, int expectedStatus) throws IOException, InterruptedException {
		HttpResponse<String> response = get(path);
		if (response.statusCode() != expectedStatus) {
			throw new AssertionError("GET " + path + " returned " + response.statusCode() + ", expected "
					+ expectedStatus + ": " + response.body());
		}
		return JSON.readTree(response.body());
	}

	@Override
	public void close() {
		this.context.close();
	}

}
