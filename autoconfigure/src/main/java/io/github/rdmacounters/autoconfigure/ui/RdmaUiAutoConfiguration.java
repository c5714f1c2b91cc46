package io.github.rdmacounters.autoconfigure.ui;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

import io.github.rdmacounters.autoconfigure.OnRdmaEnabledCondition;
import io.github.rdmacounters.autoconfigure.RdmaProperties;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException;
import io.github.rdmacounters.ui.RdmaUi;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the live counters page, which
 * polls the {@code rdma} Actuator endpoint.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@AutoConfiguration(
		afterName = "org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration")
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnClass(RouterFunctions.class)
@Conditional(RdmaUiAutoConfiguration.OnUiEnabled.class)
@EnableConfigurationProperties(RdmaProperties.class)
public final class RdmaUiAutoConfiguration {

	private static final Duration MIN_POLL_INTERVAL = Duration.ofMillis(250);

	// a page that polls less often is no live view; a browser's setInterval holds at most
	// 2^31-1 ms (24.8 days) and fires at once past it, which would poll every millisecond
	private static final Duration MAX_POLL_INTERVAL = Duration.ofHours(1);

	private static final int DEFAULT_SERVER_PORT = 8080;

	private static final String PATH = RdmaProperties.PREFIX + ".ui.path";

	private static final String POLL_INTERVAL = RdmaProperties.PREFIX + ".ui.poll-interval";

	@Bean
	@ConditionalOnMissingBean
	RdmaUi rdmaUi(RdmaProperties rdma, Environment environment) {
		RdmaUiProperties properties = rdma.ui();
		String path = validPath(properties.path());
		Duration pollInterval = properties.pollInterval();
		if (pollInterval.compareTo(MIN_POLL_INTERVAL) < 0 || pollInterval.compareTo(MAX_POLL_INTERVAL) > 0) {
			throw new InvalidRdmaConfigurationException(POLL_INTERVAL,
					written(environment, POLL_INTERVAL, pollInterval),
					"must be 250ms to 1h: every poll reads each counter set and the port counters, and a page "
							+ "that polls less often than hourly is no live view");
		}
		String base = trimSlash(environment.getProperty("management.endpoints.web.base-path", "/actuator"));
		boolean separate = separateManagementPort(environment);
		if (!separate && !base.isEmpty() && (path.equals(base) || path.startsWith(base + "/"))) {
			throw new InvalidRdmaConfigurationException(PATH, properties.path(),
					"is below the Actuator base path '" + base + "', where the page would shadow endpoints or be "
							+ "shadowed by them; choose a path outside it, such as /rdma-ui");
		}
		if (!separate && base.isEmpty()) {
			for (String id : endpointIds(environment)) {
				String endpoint = "/" + endpointPath(environment, id);
				if (path.equals(endpoint) || path.startsWith(endpoint + "/")) {
					throw new InvalidRdmaConfigurationException(PATH, properties.path(),
							"is the path of the Actuator endpoint '" + id
									+ "', which Actuator serves at the root as management.endpoints.web.base-path is "
									+ "'/': the page would shadow it or be shadowed by it; choose a path of no "
									+ "endpoint, such as /rdma-ui");
				}
			}
		}
		if (separate) {
			base = trimSlash(environment.getProperty("management.server.base-path", "")) + base;
		}
		return new RdmaUi(path, base + "/" + endpointPath(environment, "rdma"),
				base + "/" + endpointPath(environment, "health") + "/rdma",
				separate ? () -> managementPort(environment) : () -> null, pollInterval,
				environment.getProperty("spring.application.name"));
	}

	@Bean
	RouterFunction<ServerResponse> rdmaUiRoutes(RdmaUi rdmaUi) {
		return rdmaUi.routes();
	}

	private static String validPath(String path) {
		String trimmed = trimSlash(path);
		boolean dotSegment = (trimmed + "/").contains("/./") || (trimmed + "/").contains("/../");
		if (!path.startsWith("/") || trimmed.isEmpty() || trimmed.contains("*") || trimmed.contains("{")
				|| trimmed.contains("//") || dotSegment || !trimmed.chars().allMatch(RdmaUiAutoConfiguration::plain)) {
			throw new InvalidRdmaConfigurationException(PATH, path,
					"must be a path of its own below the context path, such as /rdma-ui: start with '/', "
							+ "not be '/' alone, hold no '.' or '..' segment (browsers resolve them away) and only "
							+ "letters, digits, '-', '_', '.', '~' and '/'");
		}
		return trimmed;
	}

	// RFC 3986 unreserved characters and the separator: nothing that a browser or the
	// servlet container would encode, decode or normalise differently
	private static boolean plain(int c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
				|| c == '.' || c == '~' || c == '/';
	}

	private static Object written(Environment environment, String name, Object bound) {
		String written = environment.getProperty(name);
		return (written != null) ? written : bound;
	}

	/**
	 * The endpoints a page at the root base path ({@code /}) could meet: the two it reads
	 * and those exposed by name.
	 */
	private static Set<String> endpointIds(Environment environment) {
		Set<String> ids = new LinkedHashSet<>(List.of("rdma", "health"));
		String[] exposed = environment.getProperty("management.endpoints.web.exposure.include", String[].class,
				new String[0]);
		for (String id : exposed) {
			if (!id.isBlank() && !"*".equals(id.trim())) {
				ids.add(id.trim());
			}
		}
		return ids;
	}

	/**
	 * The path of an endpoint below the base path, as
	 * {@code management.endpoints.web.path-mapping.<id>} maps it.
	 */
	private static String endpointPath(Environment environment, String id) {
		String mapped = environment.getProperty("management.endpoints.web.path-mapping." + id, id);
		return mapped.startsWith("/") ? mapped.substring(1) : mapped;
	}

	private static String trimSlash(String path) {
		return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
	}

	/**
	 * Whether Actuator runs on its own port, decided as Boot's {@code ManagementPortType}
	 * does: a management port that is set, not -1 (disabled), and 0 (random) or another
	 * port than the server's.
	 */
	private static boolean separateManagementPort(Environment environment) {
		Integer management = environment.getProperty("management.server.port", Integer.class);
		if (management == null || management < 0) {
			return false;
		}
		Integer server = environment.getProperty("server.port", Integer.class);
		if (server == null) {
			return management != DEFAULT_SERVER_PORT;
		}
		return management == 0 || !management.equals(server);
	}

	private static @Nullable Integer managementPort(Environment environment) {
		Integer local = environment.getProperty("local.management.port", Integer.class);
		return (local != null) ? local : environment.getProperty("management.server.port", Integer.class);
	}

	/**
	 * Refuses the page when Actuator serves no {@code rdma} endpoint over HTTP (its
	 * access is none, or it is not exposed), which the page would poll into a 404.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(PathMappedEndpoints.class)
	static class EndpointCheckConfiguration {

		@Bean
		static SmartInitializingSingleton rdmaUiEndpointCheck(ObjectProvider<PathMappedEndpoints> endpoints) {
			return () -> {
				PathMappedEndpoints mapped = endpoints.getIfAvailable();
				if (mapped != null && mapped.getPath(EndpointId.of("rdma")) == null) {
					throw new InvalidRdmaConfigurationException(RdmaProperties.PREFIX + ".ui.enabled", "true",
							"the page polls the rdma endpoint, which Actuator does not serve over HTTP: allow it "
									+ "(management.endpoint.rdma.access) and expose it "
									+ "(management.endpoints.web.exposure.include=rdma), or set rdma.ui.enabled=false");
				}
			};
		}

	}

	/**
	 * Matches when {@code rdma.ui.enabled} is true.
	 */
	static final class OnUiEnabled extends OnRdmaEnabledCondition {

		OnUiEnabled() {
			super(RdmaProperties.PREFIX + ".ui.enabled", false, "whether to serve the live counters page");
		}

	}

}
