package io.github.rdmacounters.autoconfigure.ui;

import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

import io.github.rdmacounters.autoconfigure.FailureAnalysisAssert;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException;
import io.github.rdmacounters.ui.RdmaUi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.head;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Tests for {@link RdmaUiAutoConfiguration}.
 */
class RdmaUiAutoConfigurationTests {

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaUiAutoConfiguration.class));

	@Test
	void runByDefaultShouldNotServePage() {
		this.contextRunner.run((context) -> {
			assertThat(context).doesNotHaveBean(RdmaUi.class);
			assertThat(context).doesNotHaveBean(RouterFunction.class);
		});
	}

	@Test
	void runWhenEnabledOutsideAServletWebApplicationShouldNotServePage() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RdmaUiAutoConfiguration.class))
			.withPropertyValues("rdma.ui.enabled=true")
			.run((context) -> assertThat(context).doesNotHaveBean(RdmaUi.class));
	}

	@Test
	void runWhenEnabledShouldServePageScriptAndConfigUnderDefaultPath() {
		this.contextRunner.withPropertyValues("rdma.ui.enabled=true").run((context) -> {
			MockMvc mvc = mvc(context.getBean("rdmaUiRoutes", RouterFunction.class));
			mvc.perform(get("/rdma-ui"))
				.andExpect(status().isFound())
				.andExpect(header().string(HttpHeaders.LOCATION, "/rdma-ui/"));
			mvc.perform(get("/rdma-ui/"))
				.andExpect(status().isOk())
				.andExpect(content().contentTypeCompatibleWith(MediaType.TEXT_HTML))
				.andExpect(content().string(containsString("<script src=\"rdma-ui.js\"")))
				.andExpect(header().string("Content-Security-Policy", containsString("connect-src 'self';")));
			mvc.perform(get("/rdma-ui/rdma-ui.js"))
				.andExpect(status().isOk())
				.andExpect(content().string(containsString("rdma-config")));
			mvc.perform(get("/rdma-ui/"))
				.andExpect(content().string(containsString("<script type=\"application/json\" id=\"rdma-config\">"
						+ "{\"endpoint\":\"/actuator/rdma\",\"health\":\"/actuator/health/rdma\","
						+ "\"pollIntervalMillis\":2000}</script>")));
			mvc.perform(get("/rdma-ui/config.json")).andExpect(status().isNotFound());
			mvc.perform(head("/rdma-ui/")).andExpect(status().isOk());
			mvc.perform(get("/rdma-ui/missing.js")).andExpect(status().isNotFound());
			mvc.perform(get("/rdma-ui/../META-INF/spring.factories")).andExpect(status().isNotFound());
		});
	}

	@Test
	void runWithCustomPathsShouldServePageThereAndPollTheManagementBasePath() {
		this.contextRunner
			.withPropertyValues("rdma.ui.enabled=true", "rdma.ui.path=/ops/rdma/", "rdma.ui.poll-interval=500ms",
					"management.endpoints.web.base-path=/manage", "spring.application.name=billing")
			.run((context) -> {
				MockMvc mvc = mvc(context.getBean("rdmaUiRoutes", RouterFunction.class));
				mvc.perform(get("/ops/rdma/")).andExpect(status().isOk());
				mvc.perform(get("/rdma-ui/")).andExpect(status().isNotFound());
				mvc.perform(get("/ops/rdma/"))
					.andExpect(content().string(containsString("{\"endpoint\":\"/manage/rdma\","
							+ "\"health\":\"/manage/health/rdma\",\"pollIntervalMillis\":500,"
							+ "\"application\":\"billing\"}")));
			});
	}

	@Test
	void runWithEndpointPathMappingsShouldPollTheMappedPaths() {
		this.contextRunner
			.withPropertyValues("rdma.ui.enabled=true", "management.endpoints.web.path-mapping.rdma=counters",
					"management.endpoints.web.path-mapping.health=/healthz")
			.run((context) -> {
				MockMvc mvc = mvc(context.getBean("rdmaUiRoutes", RouterFunction.class));
				mvc.perform(get("/rdma-ui/"))
					.andExpect(content().string(containsString(
							"{\"endpoint\":\"/actuator/counters\",\"health\":\"/actuator/healthz/rdma\",")));
			});
	}

	@Test
	void runWithContextPathShouldPollBelowIt() {
		this.contextRunner.withPropertyValues("rdma.ui.enabled=true").run((context) -> {
			MockMvc mvc = mvc(context.getBean("rdmaUiRoutes", RouterFunction.class));
			mvc.perform(get("/app/rdma-ui/").contextPath("/app"))
				.andExpect(content().string(containsString("\"endpoint\":\"/app/actuator/rdma\"")))
				.andExpect(content().string(containsString("\"health\":\"/app/actuator/health/rdma\"")));
			mvc.perform(get("/app/rdma-ui").contextPath("/app"))
				.andExpect(header().string(HttpHeaders.LOCATION, "/app/rdma-ui/"));
		});
	}

	@Test
	void runWithSeparateManagementPortShouldPollThatPortAndAllowItInTheContentSecurityPolicy() {
		this.contextRunner
			.withPropertyValues("rdma.ui.enabled=true", "server.port=8080", "management.server.port=9090",
					"management.server.base-path=/mgmt")
			.run((context) -> {
				MockMvc mvc = mvc(context.getBean("rdmaUiRoutes", RouterFunction.class));
				mvc.perform(get("http://ops.example:8080/rdma-ui/"))
					.andExpect(content()
						.string(containsString("\"endpoint\":\"http://ops.example:9090/mgmt/actuator/rdma\"")))
					.andExpect(content()
						.string(containsString("\"health\":\"http://ops.example:9090/mgmt/actuator/health/rdma\"")))
					.andExpect(content().string(not(containsString("rdma-initial"))));
				mvc.perform(get("http://ops.example:8080/rdma-ui/"))
					.andExpect(header().string("Content-Security-Policy",
							containsString("connect-src 'self' http://ops.example:9090;")));
			});
	}

	@Test
	void runWithPathWithoutLeadingSlashShouldFailNamingTheProperty() {
		this.contextRunner.withPropertyValues("rdma.ui.enabled=true", "rdma.ui.path=rdma-ui").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidRdmaConfigurationException.class)
				.hasMessageContaining("rdma.ui.path")
				.hasMessageContaining("rdma-ui")
				.hasMessageContaining("start with '/'");
		});
	}

	@Test
	void runWithTooShortPollIntervalShouldFailNamingTheProperty() {
		this.contextRunner.withPropertyValues("rdma.ui.enabled=true", "rdma.ui.poll-interval=10ms")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidRdmaConfigurationException.class)
				.hasMessageContaining("rdma.ui.poll-interval")
				.hasMessageContaining("must be 250ms to 1h"));
	}

	@Test
	void runWithPollIntervalPastTheBrowsersTimerShouldFailShowingTheValueAsWritten() {
		this.contextRunner.withPropertyValues("rdma.ui.enabled=true", "rdma.ui.poll-interval=1000d")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidRdmaConfigurationException.class)
				.hasMessageContaining("rdma.ui.poll-interval")
				.hasMessageContaining("rdma.ui.poll-interval=1000d:")
				.hasMessageContaining("must be 250ms to 1h"));
	}

	@Test
	void runWithPathBelowTheActuatorBasePathShouldFailNamingBoth() {
		this.contextRunner.withPropertyValues("rdma.ui.enabled=true", "rdma.ui.path=/actuator/rdma")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidRdmaConfigurationException.class)
				.hasMessageContaining("rdma.ui.path")
				.hasMessageContaining("rdma.ui.path=/actuator/rdma:")
				.hasMessageContaining("below the Actuator base path '/actuator'"));
	}

	@Test
	void runWithActuatorAtTheRootShouldRefuseOnlyTheEndpointsPaths() {
		this.contextRunner
			.withPropertyValues("rdma.ui.enabled=true", "management.endpoints.web.base-path=/", "rdma.ui.path=/rdma")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("is the path of the Actuator endpoint 'rdma'")
				.hasMessageContaining("management.endpoints.web.base-path is '/'"));
		// the page reads health too, and an endpoint exposed by name is served there
		this.contextRunner
			.withPropertyValues("rdma.ui.enabled=true", "management.endpoints.web.base-path=/",
					"rdma.ui.path=/health/x")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("rdma.ui.path=/health/x:")
				.hasMessageContaining("the Actuator endpoint 'health'"));
		this.contextRunner
			.withPropertyValues("rdma.ui.enabled=true", "management.endpoints.web.base-path=/",
					"management.endpoints.web.exposure.include=health,prometheus", "rdma.ui.path=/prometheus")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("the Actuator endpoint 'prometheus'"));
		this.contextRunner
			.withPropertyValues("rdma.ui.enabled=true", "management.endpoints.web.base-path=/", "rdma.ui.path=/rdma-ui")
			.run((context) -> assertThat(context).hasSingleBean(RdmaUi.class));
	}

	@Test
	void runWithDotSegmentsOrEncodedCharactersInPathShouldFail() {
		for (String path : new String[] { "/a/../rdma-ui", "/./rdma-ui", "/rdma ui", "/rdma%2Fui", "/rdma-ui?x" }) {
			this.contextRunner.withPropertyValues("rdma.ui.enabled=true", "rdma.ui.path=" + path)
				.run((context) -> assertThat(context.getStartupFailure()).as(path)
					.rootCause()
					.isInstanceOf(InvalidRdmaConfigurationException.class)
					.hasMessageContaining("rdma.ui.path=" + path + ":")
					.hasMessageContaining("hold no '.' or '..' segment"));
		}
	}

	@Test
	void runWhenTheRdmaEndpointIsNotServedOverHttpShouldFail() {
		WebApplicationContextRunner actuator = this.contextRunner
			.withConfiguration(
					AutoConfigurations.of(EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class))
			.withUserConfiguration(RdmaEndpointStub.class)
			.withPropertyValues("rdma.ui.enabled=true");
		actuator.withPropertyValues("management.endpoints.web.exposure.include=rdma")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(RdmaUi.class));
		actuator.withPropertyValues("management.endpoints.web.exposure.include=health")
			.run((context) -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.isInstanceOf(InvalidRdmaConfigurationException.class)
				.hasMessageContaining("rdma.ui.enabled")
				.hasMessageContaining("management.endpoints.web.exposure.include=rdma"));
		// NONE: a context runner's environment has no lenient enum conversion, an
		// application's has
		actuator
			.withPropertyValues("management.endpoints.web.exposure.include=rdma",
					"management.endpoint.rdma.access=NONE")
			.run((context) -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.hasMessageContaining("which Actuator does not serve over HTTP"));
	}

	@Test
	void runWithAnUnknownUiPropertyShouldFailNamingIt() {
		this.contextRunner.withPropertyValues("rdma.ui.enabled=true", "rdma.ui.pth=/ops/rdma")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy("UnboundRdmaPropertyFailureAnalyzer")
				.descriptionContains("rdma.ui.pth", "/ops/rdma"));
	}

	@Configuration(proxyBeanMethods = false)
	static class RdmaEndpointStub {

		@Bean
		RdmaStub rdmaStub() {
			return new RdmaStub();
		}

	}

	@Endpoint(id = "rdma")
	static class RdmaStub {

		@ReadOperation
		String read() {
			return "{}";
		}

	}

	@SuppressWarnings("unchecked")
	private static MockMvc mvc(RouterFunction<?> routes) {
		return MockMvcBuilders.routerFunctions((RouterFunction<ServerResponse>) routes).build();
	}

}
