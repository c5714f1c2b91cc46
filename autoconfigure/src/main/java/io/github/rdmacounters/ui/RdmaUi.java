package io.github.rdmacounters.ui;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.RequestPredicate;
import org.springframework.web.servlet.function.RequestPredicates;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The live counters page: routes that serve the page from {@code classpath:rdma-ui/}
 * under a base path, telling it where the {@code rdma} and {@code health} Actuator
 * endpoints are and how often to poll them. The page reads nothing but those endpoints,
 * so it shows exactly what they show to the same user. When Actuator shares the
 * application's server, the page carries their first reading, obtained by including the
 * endpoints in the page's request (so through the same security filters, for the same
 * user): it paints data before its first poll. The configuration and that reading are
 * JSON data blocks, which the page's Content-Security-Policy does not run.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public final class RdmaUi {

	private static final String LOCATION = "rdma-ui/";

	private final String path;

	private final String endpointPath;

	private final String healthPath;

	private final Supplier<@Nullable Integer> managementPort;

	private final Duration pollInterval;

	private final @Nullable String application;

	/**
	 * Create the page.
	 * @param path the base path of the page, e.g. {@code /rdma-ui}: starts with a slash,
	 * does not end with one
	 * @param endpointPath the path of the {@code rdma} endpoint, e.g.
	 * {@code /actuator/rdma}: relative to the servlet context path when Actuator shares
	 * the application's server, absolute on the management server otherwise
	 * @param healthPath the path of the {@code rdma} health component, e.g.
	 * {@code /actuator/health/rdma}, relative as {@code endpointPath} is
	 * @param managementPort the port of a separate management server, or {@code null} if
	 * Actuator is served with the application; asked for each request, so that a random
	 * port resolved at startup is seen
	 * @param pollInterval how often the page polls the endpoint
	 * @param application the application name shown in the title, or {@code null}
	 */
	public RdmaUi(String path, String endpointPath, String healthPath, Supplier<@Nullable Integer> managementPort,
			Duration pollInterval, @Nullable String application) {
		this.path = path;
		this.endpointPath = endpointPath;
		this.healthPath = healthPath;
		this.managementPort = managementPort;
		this.pollInterval = pollInterval;
		this.application = application;
	}

	/**
	 * Return the base path of the page.
	 * @return the path, e.g. {@code /rdma-ui}
	 */
	public String getPath() {
		return this.path;
	}

	/**
	 * Return the routes of the page: the base path redirects to the page, the page with
	 * its configuration, then its static resources.
	 * @return the routes
	 */
	public RouterFunction<ServerResponse> routes() {
		Resource index = new ClassPathResource(LOCATION + "index.html");
		return RouterFunctions.route()
			.route(getOrHead(this.path),
					(request) -> ServerResponse.status(302)
						.location(URI.create(request.requestPath().contextPath().value() + this.path + "/"))
						.build())
			.route(getOrHead(this.path + "/"),
					(request) -> ServerResponse.ok()
						.contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
						.headers((headers) -> secure(headers, request))
						.body(page(index, request)))
			.resources(this.path + "/**", new ClassPathResource(LOCATION), (resource, headers) -> {
				headers.setCacheControl(CacheControl.noCache());
				headers.set("X-Content-Type-Options", "nosniff");
			})
			.build();
	}

	private static RequestPredicate getOrHead(String path) {
		return RequestPredicates.path(path)
			.and(RequestPredicates.method(HttpMethod.GET).or(RequestPredicates.method(HttpMethod.HEAD)));
	}

	/**
	 * Return the URL the page polls.
	 * @param request the request for the page
	 * @return a path on the same server, or an absolute URL on the management port
	 */
	String endpointUrl(ServerRequest request) {
		return actuatorUrl(request, this.endpointPath);
	}

	private String actuatorUrl(ServerRequest request, String path) {
		Integer port = this.managementPort.get();
		if (port == null) {
			return request.requestPath().contextPath().value() + path;
		}
		return UriComponentsBuilder.fromUri(request.uri())
			.port(port)
			.replacePath(path)
			.replaceQuery(null)
			.fragment(null)
			.toUriString();
	}

	/**
	 * The page with its configuration and, on the application's own server, the first
	 * reading of the endpoints as JSON data blocks before its script.
	 */
	private String page(Resource index, ServerRequest request) throws IOException {
		String html = index.getContentAsString(StandardCharsets.UTF_8);
		StringBuilder data = new StringBuilder();
		data.append(dataBlock("rdma-config", json(config(request))));
		if (this.managementPort.get() == null && request.method() == HttpMethod.GET) {
			String rdma = EndpointInclude.json(request.servletRequest(), this.endpointPath);
			if (rdma != null) {
				String health = EndpointInclude.json(request.servletRequest(), this.healthPath);
				data.append(dataBlock("rdma-initial",
						"{\"rdma\":" + rdma + ",\"health\":" + ((health != null) ? health : "null") + "}"));
			}
		}
		return html.replace("<!-- data -->", data.toString());
	}

	private static String dataBlock(String id, String json) {
		// '<' cannot end the block: JSON has it only inside strings, where \u003c means
		// it
		return "<script type=\"application/json\" id=\"" + id + "\">" + json.replace("<", "\\u003c") + "</script>";
	}

	private static String json(Map<String, Object> config) {
		StringBuilder json = new StringBuilder("{");
		config.forEach((key, value) -> {
			json.append((json.length() > 1) ? "," : "").append('"').append(key).append("\":");
			json.append((value instanceof Number) ? value.toString() : quote(value.toString()));
		});
		return json.append('}').toString();
	}

	private static String quote(String text) {
		StringBuilder quoted = new StringBuilder("\"");
		for (char c : text.toCharArray()) {
			if (c == '"' || c == '\\') {
				quoted.append('\\').append(c);
			}
			else if (c < 0x20) {
				quoted.append(String.format("\\u%04x", (int) c));
			}
			else {
				quoted.append(c);
			}
		}
		return quoted.append('"').toString();
	}

	private Map<String, Object> config(ServerRequest request) {
		Map<String, Object> config = new LinkedHashMap<>();
		config.put("endpoint", endpointUrl(request));
		config.put("health", actuatorUrl(request, this.healthPath));
		config.put("pollIntervalMillis", this.pollInterval.toMillis());
		if (this.application != null) {
			config.put("application", this.application);
		}
		return config;
	}

	private void secure(HttpHeaders headers, ServerRequest request) {
		String connect = "'self'";
		if (this.managementPort.get() != null) {
			URI endpoint = URI.create(endpointUrl(request));
			connect += " " + endpoint.getScheme() + "://" + endpoint.getRawAuthority();
		}
		headers.set("Content-Security-Policy",
				"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " + "connect-src " + connect
						+ "; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
		headers.set("X-Content-Type-Options", "nosniff");
		headers.set("Referrer-Policy", "no-referrer");
		headers.setCacheControl(CacheControl.noCache());
	}

}
