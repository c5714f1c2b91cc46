package io.github.rdmacounters.autoconfigure.ui;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
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
@AutoConfiguration
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnClass(RouterFunctions.class)
@Conditional(RdmaUiAutoConfiguration.OnUiEnabled.class)
@EnableConfigurationProperties(RdmaProperties.class)
public final class RdmaUiAutoConfiguration {

	private static final Duration MIN_POLL_INTERVAL = Duration.ofMillis(250);

	private static final int DEFAULT_SERVER_PORT = 8080;

	@Bean
	@ConditionalOnMissingBean
	RdmaUi rdmaUi(RdmaProperties rdma, Environment environment) {
		RdmaUiProperties properties = rdma.ui();
		String path = validPath(properties.path());
		Duration pollInterval = properties.pollInterval();
		if (pollInterval.compareTo(MIN_POLL_INTERVAL) < 0) {
			throw new InvalidRdmaConfigurationException("rdma.ui.poll-interval", pollInterval,
					"must be at least 250ms; every poll reads each counter set and the port counters");
		}
		String base = trimSlash(environment.getProperty("management.endpoints.web.base-path", "/actuator"));
		boolean separate = separateManagementPort(environment);
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
		if (!path.startsWith("/") || trimmed.isEmpty() || trimmed.contains("*") || trimmed.contains("{")
				|| trimmed.contains("//")) {
			throw new InvalidRdmaConfigurationException("rdma.ui.path", path,
					"must be a path of its own below the context path, such as /rdma-ui: start with '/', "
							+ "not be '/' alone, and hold no '*', '{' or '//'");
		}
		return trimmed;
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
	 * Matches when {@code rdma.ui.enabled} is true.
	 */
	static final class OnUiEnabled extends OnRdmaEnabledCondition {

		OnUiEnabled() {
			super(RdmaProperties.PREFIX + ".ui.enabled", false, "whether to serve the live counters page");
		}

	}

}
