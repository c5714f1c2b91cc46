package io.github.rdmacounters.autoconfigure;

import java.util.function.ToLongFunction;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint;
import io.github.rdmacounters.autoconfigure.event.RdmaEventsAutoConfiguration;
import io.github.rdmacounters.autoconfigure.health.RdmaHealthContributorAutoConfiguration;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedBackendControl;
import io.github.rdmacounters.testsupport.FakeVerbs;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The endpoint and the health indicator, as the auto-configurations wire them, ask the
 * device through its query cache: on the simulated backend and on the native backend over
 * the fake libibverbs, many requests within the read cache time-to-live reach
 * {@code ibv_query_port} once and {@code ibv_query_device} only when the device was
 * opened.
 *
 * @author rdma-counters
 */
class RdmaActuatorQueryCacheTests {

	private static final FakeVerbs fake = FakeVerbs.get();

	private static final int REQUESTS = 50;

	@BeforeEach
	void oneFakeDevice() {
		fake.reset();
		fake.device("mlx5_0").add();
	}

	@AfterAll
	static void resetFake() {
		fake.reset();
	}

	@ParameterizedTest
	@EnumSource(Backend.class)
	void manyHealthAndEndpointRequestsWithinTheTimeToLiveReuseThePortQueryOfOpenAndQueryTheDeviceOncePerOpen(
			Backend backend) {
		backend.runner().run((context) -> {
			assertThat(context).hasNotFailed();
			ToLongFunction<String> calls = backend.calls(context.getBean(RdmaBackend.class));
			assertThat(calls.applyAsLong("ibv_query_device")).as("ibv_query_device at open").isOne();
			assertThat(calls.applyAsLong("ibv_query_port")).as("ibv_query_port at open, for the first ACTIVE port")
				.isOne();
			RdmaEndpoint endpoint = context.getBean(RdmaEndpoint.class);
			HealthIndicator health = health(context);
			for (int i = 0; i < REQUESTS; i++) {
				assertThat(health.health().getStatus()).isEqualTo(Status.UP);
				assertThat(endpoint.rdma().devices().get("mlx5_0").ports().get(1).state()).isEqualTo("ACTIVE");
			}
			assertThat(calls.applyAsLong("ibv_query_device")).as("ibv_query_device after the requests").isOne();
			assertThat(calls.applyAsLong("ibv_query_port"))
				.as("ibv_query_port after %d health and %d endpoint requests: the query at open is reused", REQUESTS,
						REQUESTS)
				.isOne();
		});
	}

	private static HealthIndicator health(AssertableApplicationContext context) {
		return (HealthIndicator) context.getBean("rdmaHealthContributor", CompositeHealthContributor.class)
			.getContributor(device(context).name());
	}

	private static ManagedDevice device(AssertableApplicationContext context) {
		return context.getBean(RdmaRegistry.class).device("mlx5_0");
	}

	enum Backend {

		SIMULATED, NATIVE;

		ApplicationContextRunner runner() {
			ApplicationContextRunner runner = new ApplicationContextRunner()
				.withConfiguration(
						AutoConfigurations.of(RdmaAutoConfiguration.class, RdmaEndpointAutoConfiguration.class,
								RdmaHealthContributorAutoConfiguration.class, RdmaEventsAutoConfiguration.class))
				.withPropertyValues("management.endpoints.web.exposure.include=rdma",
						"rdma.port-counters.enabled=false", "rdma.read-cache-ttl=10m",
						"rdma.counter-sets.vxlan.device=mlx5_0", "rdma.counter-sets.vxlan.flow.protocol=udp",
						"rdma.counter-sets.vxlan.flow.destination-port=4789");
			return (this == SIMULATED)
					? runner.withPropertyValues("rdma.backend=simulated", "rdma.simulated.devices.mlx5_0.ports=1")
					: runner.withPropertyValues("rdma.native.library=" + fake.libraryPath());
		}

		ToLongFunction<String> calls(RdmaBackend backend) {
			if (this == NATIVE) {
				return fake::calls;
			}
			SimulatedBackendControl control = SimulatedBackendControl.of((SimulatedBackend) backend);
			return (verb) -> control.verbCalls().stream().filter(verb::equals).count();
		}

	}

}
