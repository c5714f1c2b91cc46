package io.github.rdmacounters.e2e;

import java.io.IOException;
import java.net.InetAddress;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;

import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.PortState;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * End-to-end scenarios over real HTTP, run against each backend by a subclass: the
 * {@code rdma} endpoint, health, Prometheus, and shutdown while scrapes are in flight.
 */
abstract class AbstractEndToEndTests {

	/**
	 * The shortest read cache time-to-live the starter accepts.
	 */
	static final Duration READ_CACHE_TTL = Duration.ofMillis(100);

	/**
	 * How long a test waits for a condition: reads cached before a change expire after
	 * {@link #READ_CACHE_TTL}.
	 */
	static final Duration WAIT = Duration.ofSeconds(10);

	static final Packet VXLAN = packet(true, 4789, 1024);

	static final Packet HTTPS = packet(false, 443, 1500);

	static final Packet DNS = packet(true, 53, 80);

	private @Nullable RunningApplication application;

	/**
	 * Return the name of the device the application opens.
	 * @return the device name
	 */
	abstract String deviceName();

	/**
	 * Return the backend name the endpoint and health should show.
	 * @return {@code native} or {@code simulated}
	 */
	abstract String backendName();

	/**
	 * Prepare the backend and return the properties that select it.
	 * @return the properties
	 */
	abstract Map<String, Object> backendProperties();

	/**
	 * Called once the application started, before the test uses it.
	 * @param app the application
	 */
	void started(RunningApplication app) {
	}

	abstract void deliver(RunningApplication app, Packet packet);

	abstract void setPortState(RunningApplication app, PortState state);

	abstract void failAlways(RunningApplication app, String verb, int errno);

	/**
	 * Assert that the closed application left nothing allocated and made no call on a
	 * freed object.
	 * @param app the closed application
	 */
	abstract void assertReleased(RunningApplication app);

	RunningApplication start(Map<String, Object> extra) {
		Map<String, Object> properties = new LinkedHashMap<>(backendProperties());
		properties.put("rdma.read-cache-ttl", READ_CACHE_TTL.toMillis() + "ms");
		properties.put("rdma.counter-sets.vxlan.counters.packets", "0");
		properties.put("rdma.counter-sets.vxlan.counters.bytes", "1");
		properties.put("rdma.counter-sets.vxlan.flow.protocol", "udp");
		properties.put("rdma.counter-sets.vxlan.flow.destination-port", "4789");
		properties.put("rdma.counter-sets.https.counters.packets", "0");
		properties.put("rdma.counter-sets.https.counters.bytes", "1");
		properties.put("rdma.counter-sets.https.flow.protocol", "tcp");
		properties.put("rdma.counter-sets.https.flow.destination-port", "443");
		properties.putAll(extra);
		RunningApplication started = RunningApplication.start(properties);
		this.application = started;
		started(started);
		return started;
	}

	RunningApplication start() {
		return start(Map.of());
	}

	@AfterEach
	void closeAndCheckRelease() {
		RunningApplication app = this.application;
		if (app != null) {
			app.close();
			assertReleased(app);
		}
	}

	@Test
	void rdmaEndpointShowsDevicePortAndCounterSetsWithInjectedTraffic() throws Exception {
		RunningApplication app = start();
		deliverTraffic(app);

		JsonNode device = app.json("/actuator/rdma", 200).path("devices").path(deviceName());

		assertThat(device.path("name").asString()).isEqualTo(deviceName());
		assertThat(device.path("backend").asString()).isEqualTo(backendName());
		assertThat(device.path("available").asBoolean()).isTrue();
		assertThat(device.path("nodeGuid").asString()).matches("\\p{XDigit}{4}(:\\p{XDigit}{4}){3}");
		assertThat(device.path("firmwareVersion").asString()).isNotBlank();
		assertThat(device.at("/ports/1/state").asString()).isEqualTo("ACTIVE");
		assertThat(device.at("/ports/1/physicalState").asString()).isEqualTo("LinkUp");
		assertThat(device.at("/ports/1/linkLayer").asString()).isEqualTo("Ethernet");
		JsonNode vxlan = device.at("/counterSets/vxlan");
		assertThat(vxlan.at("/values/packets").asLong()).isEqualTo(3);
		assertThat(vxlan.at("/values/bytes").asLong()).isEqualTo(3 * 1024);
		assertThat(vxlan.at("/flow/match").asString()).isEqualTo("udp dst-port 4789");
		assertThat(vxlan.at("/flow/dontTrap").asBoolean()).isTrue();
		assertThat(vxlan.path("readMode").asString()).isEqualTo("fresh");
		assertThat(vxlan.path("readAt").asString()).isNotBlank();
		assertThat(vxlan.path("readSucceeded").asBoolean()).isTrue();
		assertThat(vxlan.path("failedReads").asLong()).isZero();
		JsonNode https = device.at("/counterSets/https");
		assertThat(https.at("/values/packets").asLong()).isEqualTo(2);
		assertThat(https.at("/values/bytes").asLong()).isEqualTo(2 * 1500);
	}

	@Test
	void rdmaEndpointForOneSetShowsItAndAnUnknownSetIsNotFound() throws Exception {
		RunningApplication app = start();
		deliverTraffic(app);

		JsonNode vxlan = app.json("/actuator/rdma/vxlan", 200);

		assertThat(vxlan.path("name").asString()).isEqualTo("vxlan");
		assertThat(vxlan.path("device").asString()).isEqualTo(deviceName());
		assertThat(vxlan.path("port").asInt()).isEqualTo(1);
		assertThat(vxlan.at("/values/packets").asLong()).isEqualTo(3);
		assertThat(app.get("/actuator/rdma/nope").statusCode()).isEqualTo(404);
	}

	@Test
	void rdmaEndpointOutputHasNoNativeAddresses() throws Exception {
		RunningApplication app = start();

		String body = app.get("/actuator/rdma").body();

		assertThat(body).doesNotContainPattern("0x[0-9a-fA-F]{8,}").doesNotContain("native@");
	}

	@Test
	void healthIsUpWithBackendDevicePortStateAndSets() throws Exception {
		RunningApplication app = start();

		JsonNode rdma = app.json("/actuator/health", 200).at("/components/rdma/components/" + deviceName());

		assertThat(rdma.path("status").asString()).isEqualTo("UP");
		assertThat(rdma.at("/details/backend").asString()).isEqualTo(backendName());
		assertThat(rdma.at("/details/device").asString()).isEqualTo(deviceName());
		assertThat(rdma.at("/details/portStates/1/state").asString()).isEqualTo("ACTIVE");
		assertThat(rdma.at("/details/portStates/1/physicalState").asString()).isEqualTo("LinkUp");
		assertThat(rdma.at("/details/counterSets/vxlan/status").asString()).isEqualTo("UP");
		assertThat(rdma.at("/details/counterSets/https/status").asString()).isEqualTo("UP");
	}

	@Test
	void healthIsDownWhenThePortGoesDown() throws Exception {
		RunningApplication app = start();
		setPortState(app, PortState.DOWN);

		// the port query of the last health check is reused for the read cache
		// time-to-live
		JsonNode health = await("health DOWN once the port is down").atMost(WAIT)
			.ignoreExceptions()
			.until(() -> app.json("/actuator/health", 503), (body) -> true);

		assertThat(health.path("status").asString()).isEqualTo("DOWN");
		assertThat(health.at("/components/rdma/components/" + deviceName() + "/status").asString()).isEqualTo("DOWN");
		assertThat(health.at("/components/rdma/components/" + deviceName() + "/details/portStates/1/state").asString())
			.isEqualTo("DOWN");
		assertThat(health.at("/components/rdma/components/" + deviceName() + "/details/reason").asString())
			.contains("Port 1 is DOWN");
		setPortState(app, PortState.ACTIVE);
		// the port query is reused for the read cache time-to-live
		await("health UP once the port is ACTIVE again").atMost(WAIT)
			.untilAsserted(() -> assertThat(app.json("/actuator/health", 200)
				.at("/components/rdma/components/" + deviceName() + "/status")
				.asString()).isEqualTo("UP"));
	}

	@Test
	void healthIsDownWithTheErrnoWhenReadsFail() throws Exception {
		RunningApplication app = start();
		failAlways(app, "ibv_read_counters", Errno.EIO);
		await("health DOWN once reads fail").atMost(WAIT).untilAsserted(() -> app.json("/actuator/health", 503));

		JsonNode rdma = app.json("/actuator/health", 503).at("/components/rdma/components/" + deviceName());

		assertThat(rdma.path("status").asString()).isEqualTo("DOWN");
		assertThat(rdma.at("/details/reason").asString()).contains("Counter set 'vxlan' could not be read")
			.contains("ibv_read_counters failed: EIO (5) Input/output error");
		assertThat(rdma.at("/details/counterSets/https/status").asString()).isEqualTo("DOWN");
		JsonNode vxlan = app.json("/actuator/rdma/vxlan", 200);
		assertThat(vxlan.path("readSucceeded").asBoolean()).isFalse();
		assertThat(vxlan.path("lastError").asString()).contains("EIO (5) Input/output error");
		assertThat(vxlan.path("failedReads").asLong()).isPositive();
	}

	@Test
	void prometheusShowsTheFlowSeriesWithTheInjectedTraffic() throws Exception {
		RunningApplication app = start();
		deliverTraffic(app);

		HttpResponse<String> response = app.get("/actuator/prometheus");

		assertThat(response.statusCode()).isEqualTo(200);
		String tags = "{device=\"" + deviceName() + "\",port=\"1\",set=\"%s\"}";
		assertThat(response.body()).contains("# TYPE rdma_flow_packets_total counter")
			.contains("# TYPE rdma_flow_bytes_total counter")
			.contains("rdma_flow_packets_total" + tags.formatted("vxlan") + " 3.0")
			.contains("rdma_flow_bytes_total" + tags.formatted("vxlan") + " 3072.0")
			.contains("rdma_flow_packets_total" + tags.formatted("https") + " 2.0")
			.contains("rdma_flow_bytes_total" + tags.formatted("https") + " 3000.0")
			.contains("rdma_flow_read_failures_total" + tags.formatted("vxlan") + " 0.0")
			.containsPattern("rdma_port_data_received_bytes_total\\{device=\"" + deviceName() + "\",port=\"1\"} [1-9]");
	}

	@Test
	void setOnAMissingDeviceAllowedAtStartupIsDownInHealthAndUnavailableInTheEndpointAndPrometheusWhileTheOtherSetCounts()
			throws Exception {
		RunningApplication app = start(
				Map.of("rdma.counter-sets.vxlan.device", "mlx5_9", "rdma.devices.mlx5_9.fail-on-unavailable", "false"));
		deliverTraffic(app, false);

		JsonNode rdma = app.json("/actuator/health", 503).at("/components/rdma/components/mlx5_9");
		JsonNode device = app.json("/actuator/rdma", 200).at("/devices/mlx5_9");

		assertThat(rdma.path("status").asString()).isEqualTo("DOWN");
		assertThat(rdma.at("/details/backend").asString()).isEqualTo(backendName());
		assertThat(rdma.at("/details/reason").asString()).startsWith("Device unavailable: ")
			.contains("No RDMA device named 'mlx5_9'")
			.contains(deviceName());
		assertThat(device.path("available").asBoolean()).isFalse();
		assertThat(device.path("unavailableReason").asString()).contains("No RDMA device named 'mlx5_9'");
		assertThat(rdma.at("/details/counterSets/vxlan/status").asString()).isEqualTo("DOWN");
		assertThat(device.at("/counterSets/vxlan/readSucceeded").asBoolean(true)).isFalse();
		assertThat(device.path("counterSets").has("https")).isFalse();
		JsonNode https = app.json("/actuator/rdma/https", 200);
		assertThat(https.path("device").asString()).isEqualTo(deviceName());
		assertThat(https.path("readSucceeded").asBoolean()).isTrue();
		assertThat(https.at("/values/packets").asLong()).isEqualTo(2);
		assertThat(app.json("/actuator/health", 503)
			.at("/components/rdma/components/" + deviceName() + "/status")
			.asString()).isEqualTo("UP");
		JsonNode vxlan = app.json("/actuator/rdma/vxlan", 200);
		assertThat(vxlan.path("device").asString()).isEqualTo("mlx5_9");
		assertThat(vxlan.path("readSucceeded").asBoolean(true)).isFalse();
		assertThat(vxlan.path("lastError").asString())
			.contains("Counter set 'vxlan' is unavailable: the application started without mlx5_9")
			.contains("No RDMA device named 'mlx5_9'");
		String tags = "{device=\"mlx5_9\",port=\"1\",set=\"vxlan\"}";
		await("a failed read of vxlan in Prometheus").atMost(WAIT)
			.untilAsserted(() -> assertThat(app.get("/actuator/prometheus").body())
				.contains("rdma_flow_packets_total" + tags + " 0.0")
				.containsPattern("rdma_flow_read_failures_total\\{device=\"mlx5_9\",port=\"1\",set=\"vxlan\"} [1-9]"));
	}

	@Test
	void prometheusCountsFailedReadsAndKeepsTheLastValues() throws Exception {
		RunningApplication app = start();
		deliverTraffic(app);
		app.get("/actuator/prometheus");
		failAlways(app, "ibv_read_counters", Errno.EIO);
		String failed = "rdma_flow_read_failures_total\\{device=\"" + deviceName()
				+ "\",port=\"1\",set=\"vxlan\"} [1-9]";
		await("a failed read of vxlan in Prometheus").atMost(WAIT)
			.untilAsserted(() -> assertThat(app.get("/actuator/prometheus").body()).containsPattern(failed));

		String body = app.get("/actuator/prometheus").body();

		String tags = "{device=\"" + deviceName() + "\",port=\"1\",set=\"vxlan\"}";
		assertThat(body).contains("rdma_flow_packets_total" + tags + " 3.0");
		assertThat(body).containsPattern(failed);
	}

	@Test
	void shutdownWhileScrapesAreInFlightNeitherFailsNorReachesClosedObjects() throws Exception {
		RunningApplication app = start();
		deliverTraffic(app);
		PrometheusMeterRegistry prometheus = app.context().getBean(PrometheusMeterRegistry.class);
		RdmaEndpoint endpoint = app.context().getBean(RdmaEndpoint.class);
		HealthIndicator health = (HealthIndicator) app.context()
			.getBean("rdmaHealthContributor", CompositeHealthContributor.class)
			.getContributor(deviceName());
		int threads = 6;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		AtomicBoolean stop = new AtomicBoolean();
		CountDownLatch running = new CountDownLatch(threads);
		AtomicInteger calls = new AtomicInteger();
		AtomicInteger serverErrors = new AtomicInteger();
		List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
		for (int i = 0; i < threads; i++) {
			boolean overHttp = (i % 2 == 0);
			pool.execute(() -> {
				running.countDown();
				while (!stop.get()) {
					try {
						if (overHttp) {
							scrapeOverHttp(app, serverErrors);
						}
						else {
							assertThat(prometheus.scrape()).isNotNull();
							assertThat(endpoint.rdma().devices()).containsKey(deviceName());
							assertThat(health.health()).isNotNull();
						}
						calls.incrementAndGet();
					}
					catch (Throwable ex) {
						failures.add(ex);
						return;
					}
				}
			});
		}
		running.await();
		await("scrapes answered before the close").atMost(WAIT)
			.until(() -> !failures.isEmpty() || calls.get() >= 2 * threads);

		app.close();
		int callsAtClose = calls.get();
		await("scrapes answered after the close").atMost(WAIT)
			.until(() -> !failures.isEmpty() || calls.get() >= callsAtClose + 2 * threads);
		stop.set(true);
		pool.shutdown();

		assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
		assertThat(failures).isEmpty();
		assertThat(serverErrors).hasValue(0);
		assertThat(calls.get()).isPositive();
		assertReleased(app);
		assertThat(endpoint.rdma().devices().get(deviceName()).available()).isFalse();
	}

	private static void scrapeOverHttp(RunningApplication app, AtomicInteger serverErrors) throws InterruptedException {
		for (String path : List.of("/actuator/prometheus", "/actuator/rdma", "/actuator/health")) {
			try {
				int status = app.get(path).statusCode();
				if (status >= 500 && status != 503) {
					serverErrors.incrementAndGet();
				}
			}
			catch (IOException ex) {
				// The server stopped accepting connections: expected during shutdown
			}
		}
	}

	void deliverTraffic(RunningApplication app) {
		deliverTraffic(app, true);
	}

	/**
	 * Deliver three VXLAN, two HTTPS and one DNS packet, and wait until the endpoint
	 * shows them.
	 * @param app the application
	 * @param vxlanCounts whether the vxlan set counts on the device the traffic reaches
	 */
	void deliverTraffic(RunningApplication app, boolean vxlanCounts) {
		for (int i = 0; i < 3; i++) {
			deliver(app, VXLAN);
		}
		for (int i = 0; i < 2; i++) {
			deliver(app, HTTPS);
		}
		deliver(app, DNS);
		await("the delivered traffic in the rdma endpoint").atMost(WAIT).untilAsserted(() -> {
			JsonNode device = app.json("/actuator/rdma", 200).path("devices").path(deviceName());
			if (vxlanCounts) {
				assertThat(device.at("/counterSets/vxlan/values/packets").asLong()).as("vxlan packets").isEqualTo(3);
			}
			assertThat(device.at("/counterSets/https/values/packets").asLong()).as("https packets").isEqualTo(2);
			assertThat(device.at("/ports/1/counters/port_rcv_data").asLong()).as("port_rcv_data").isPositive();
		});
	}

	private static Packet packet(boolean udp, int destinationPort, int length) {
		try {
			InetAddress source = InetAddress.getByName("192.0.2.10");
			InetAddress destination = InetAddress.getByName("192.0.2.20");
			return udp ? Packet.udp(source, 49152, destination, destinationPort, length)
					: Packet.tcp(source, 49152, destination, destinationPort, length);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
