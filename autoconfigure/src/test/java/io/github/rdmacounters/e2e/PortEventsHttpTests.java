package io.github.rdmacounters.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.github.rdmacounters.core.DeviceEvent;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedBackendControl;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Port events over HTTP: a real web server on a random loopback port, the simulated
 * backend, a PORT_ERR injected the way the hardware raises it (the port leaves ACTIVE,
 * then the event), and what {@code /actuator/health/rdma/<device>} and
 * {@code /actuator/rdma} answer. The read cache time-to-live is ten minutes, so every
 * change seen here comes from the event, none from a cached query expiring.
 *
 * @author rdma-counters
 */
@SpringBootTest(classes = EndToEndApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "spring.main.banner-mode=off", "rdma.backend=simulated",
				"rdma.simulated.devices.sim_mlx5_0.ports=2", "rdma.read-cache-ttl=10m",
				"rdma.counter-sets.vxlan.flow.protocol=udp", "rdma.counter-sets.vxlan.flow.destination-port=4789",
				"management.endpoints.web.exposure.include=health,rdma",
				"management.endpoint.health.show-details=always" })
class PortEventsHttpTests {

	private static final String DEVICE = "sim_mlx5_0";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	private int port;

	@Autowired
	private SimulatedBackend backend;

	@BeforeEach
	void portActive() throws Exception {
		this.backend.setPortState(DEVICE, 1, PortState.ACTIVE);
		assertThat(status("/actuator/health/rdma/" + DEVICE)).isEqualTo(200);
	}

	@Test
	void portErrTurnsDeviceHealthDownAtOnceAndPortActiveBringsItBackUpAndTheEndpointShowsBoth() throws Exception {
		long portErrs = portEvents("port_err");
		long portActives = portEvents("port_active");

		this.backend.setPortState(DEVICE, 1, PortState.DOWN);

		JsonNode down = json("/actuator/health/rdma/" + DEVICE, 503);
		assertThat(down.path("status").asString()).isEqualTo("DOWN");
		assertThat(down.at("/details/portStates/1/state").asString()).isEqualTo("DOWN");
		assertThat(down.at("/details/portStates/1/source").asString()).isEqualTo("IBV_EVENT_PORT_ERR");
		assertThat(down.at("/details/reason").asString()).contains("Port 1 is DOWN");
		JsonNode port = json("/actuator/rdma", 200).at("/devices/" + DEVICE + "/ports/1");
		assertThat(port.path("state").asString()).isEqualTo("DOWN");
		assertThat(port.path("stateChangedAt").asString()).isNotBlank();
		assertThat(port.at("/events/port_err").asLong()).isEqualTo(portErrs + 1);

		this.backend.setPortState(DEVICE, 1, PortState.ACTIVE);

		JsonNode up = json("/actuator/health/rdma/" + DEVICE, 200);
		assertThat(up.path("status").asString()).isEqualTo("UP");
		assertThat(up.at("/details/portStates/1/state").asString()).isEqualTo("ACTIVE");
		JsonNode back = json("/actuator/rdma", 200).at("/devices/" + DEVICE + "/ports/1");
		assertThat(back.path("state").asString()).isEqualTo("ACTIVE");
		assertThat(back.at("/events/port_active").asLong()).isEqualTo(portActives + 1);
	}

	@Test
	void manyHealthAndEndpointRequestsWithinTheTimeToLiveQueryThePortOnceAndTheDeviceNever() throws Exception {
		SimulatedBackendControl control = SimulatedBackendControl.of(this.backend);
		// a port event drops the port's query: the first request after it asks the device
		this.backend.raiseEvent(DEVICE, DeviceEvent.Type.LID_CHANGE, 1);
		control.clearVerbCalls();
		for (int i = 0; i < 20; i++) {
			json("/actuator/health/rdma/" + DEVICE, 200);
			json("/actuator/rdma", 200);
		}
		assertThat(control.verbCalls()).as("ibv_query_port of 20 health and 20 endpoint requests")
			.filteredOn("ibv_query_port"::equals)
			.hasSize(1);
		assertThat(control.verbCalls()).as("ibv_query_device, asked once when the device was opened")
			.filteredOn("ibv_query_device"::equals)
			.isEmpty();
	}

	private long portEvents(String event) throws IOException, InterruptedException {
		return json("/actuator/rdma", 200).at("/devices/" + DEVICE + "/ports/1/events/" + event).asLong(0);
	}

	private int status(String path) throws IOException, InterruptedException {
		return get(path).statusCode();
	}

	private JsonNode json(String path, int expectedStatus) throws IOException, InterruptedException {
		HttpResponse<String> response = get(path);
		assertThat(response.statusCode()).as("status of GET %s: %s", path, response.body()).isEqualTo(expectedStatus);
		return JSON.readTree(response.body());
	}

	private HttpResponse<String> get(String path) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(10))
			.GET()
			.build();
		return this.client.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
