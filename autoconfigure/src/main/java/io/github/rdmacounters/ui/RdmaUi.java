package io.github.rdmacounters.ui;

import java.net.URI;
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
 * The live counters page: routes that serve the static page from
 * {@code classpath:rdma-ui/} under a base path, and a {@code config.json} that tells the
 * page where the {@code rdma} Actuator endpoint is and how often to poll it. The page
 * reads nothing but that endpoint, so it shows exactly what the endpoint shows to the
 * same user.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public final class RdmaUi {

	private static final String LOCATION = "rdma-ui/";

	private final String path;

	private final String endpointPath;

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
	 * @param managementPort the port of a separate management server, or {@code null} if
	 * Actuator is served with the application; asked for each request, so that a random
	 * port resolved at startup is seen
	 * @param pollInterval how often the page polls the endpoint
	 * @param application the application name shown in the title, or {@code null}
	 */
	public RdmaUi(String path, String endpointPath, Supplier<@Nullable Integer> managementPort, Duration pollInterval,
			@Nullable String application) {
		this.path = path;
		this.endpointPath = endpointPath;
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
	 * Return the routes of the page: the base path redirects to the page, the page and
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
						.contentType(MediaType.TEXT_HTML)
						.headers((headers) -> secure(headers, request))
						.body(index))
			.route(getOrHead(this.path + "/config.json"),
					(request) -> ServerResponse.ok()
						.contentType(MediaType.APPLICATION_JSON)
						.cacheControl(CacheControl.noStore())
						.body(config(request)))
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
		Integer port = this.managementPort.get();
		if (port == null) {
			return request.requestPath().contextPath().value() + this.endpointPath;
		}
		return UriComponentsBuilder.fromUri(request.uri())
			.port(port)
			.replacePath(this.endpointPath)
			.replaceQuery(null)
			.fragment(null)
			.toUriString();
	}

	private Map<String, Object> config(ServerRequest request) {
		Map<String, Object> config = new LinkedHashMap<>();
		config.put("endpoint", endpointUrl(request));
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
