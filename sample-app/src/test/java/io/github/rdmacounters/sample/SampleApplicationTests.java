package io.github.rdmacounters.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterSetReading;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.RdmaRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Smoke test of the sample: it starts on the simulated device, the generated traffic
 * moves the counters, and the three endpoints answer.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "sample.traffic.interval-ms=50")
class SampleApplicationTests {

	@Autowired
	private RdmaRegistry registry;

	@LocalServerPort
	private int port;

	@Test
	void generatedTrafficMovesBothCounterSets() {
		CounterSet nvme = this.registry.counterSet("nvme-tcp");
		CounterSet https = this.registry.counterSet("https");
		assertThat(nvme).isNotNull();
		assertThat(https).isNotNull();
		long start = nvme.read().value(CounterType.PACKETS);
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
			CounterSetReading reading = nvme.read();
			assertThat(reading.value(CounterType.PACKETS)).isGreaterThan(start);
			assertThat(reading.value(CounterType.BYTES))
				.isGreaterThanOrEqualTo(64 * reading.value(CounterType.PACKETS));
			assertThat(https.read().value(CounterType.PACKETS)).isPositive();
		});
	}

	@Test
	void rdmaHealthAndPrometheusEndpointsAnswer() throws Exception {
		assertThat(get("/actuator/rdma").body()).contains("\"nvme-tcp\"")
			.contains("\"https\"")
			.contains("\"tcp dst-port 4420\"")
			// no set matches RoCEv2 (UDP 4791): the HCA takes that traffic before the
			// flows
			.doesNotContainPattern("\"match\":\"[^\"]*\\b4791\\b");
		HttpResponse<String> health = get("/actuator/health");
		assertThat(health.statusCode()).isEqualTo(200);
		assertThat(health.body()).contains("\"rdma\"").contains("\"simulated\"");
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(get("/actuator/prometheus").body())
				.containsPattern("rdma_flow_packets_total\\{device=\"sim_mlx5_0\",port=\"1\",set=\"nvme-tcp\"} [1-9]"));
	}

	@Test
	void runsOnAHostOfFourDevicesWithTrafficOnSeveralAndSetsOnTwo() throws Exception {
		String rdma = get("/actuator/rdma").body();
		assertThat(rdma).contains("\"sim_mlx5_0\"", "\"sim_mlx5_1\"", "\"sim_ib_0\"", "\"sim_rxe_0\"");
		assertThat(this.registry.devices()).extracting((device) -> device.name())
			.containsExactly("sim_mlx5_0", "sim_mlx5_1");
		assertThat(get("/actuator/rdma/storage").body()).contains("\"device\":\"sim_mlx5_1\"").contains("\"port\":2");
		assertThat(get("/actuator/rdma/nope").statusCode()).isEqualTo(404);
		HttpResponse<String> device = get("/actuator/health/rdma/sim_mlx5_1");
		assertThat(device.statusCode()).isEqualTo(200);
		assertThat(device.body()).contains("\"UP\"")
			.contains("\"storage\"")
			.contains("\"portStates\":{\"2\":{\"state\":\"ACTIVE\"");
		assertThat(get("/actuator/health/rdma/sim_ib_0").body()).contains("\"UP\"");
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(get("/actuator/prometheus").body())
				.containsPattern("rdma_flow_packets_total\\{device=\"sim_mlx5_1\",port=\"2\",set=\"storage\"} [1-9]")
				.containsPattern("rdma_port_data_received_bytes_total\\{device=\"sim_ib_0\",port=\"1\"} [1-9]")
				.containsPattern("rdma_port_data_received_bytes_total\\{device=\"sim_rxe_0\",port=\"1\"} [1-9]")
				.contains("rdma_devices 4.0"));
	}

	@Test
	void eachSetCountsOnTheSimulatedDeviceItsNetdevBelongsTo() {
		CounterSet nvme = this.registry.counterSet("nvme-tcp");
		CounterSet https = this.registry.counterSet("https");
		CounterSet storage = this.registry.counterSet("storage");
		assertThat(nvme).isNotNull();
		assertThat(https).isNotNull();
		assertThat(storage).isNotNull();
		// ens1f0np0 is sim_mlx5_0's interface, ens2f0np0 sim_mlx5_1's (application.yml)
		assertThat(nvme.deviceName()).isEqualTo("sim_mlx5_0");
		assertThat(https.deviceName()).isEqualTo("sim_mlx5_0");
		assertThat(storage.deviceName()).isEqualTo("sim_mlx5_1");
		// no port for nvme-tcp and https: the device's first ACTIVE port
		assertThat(nvme.port()).isEqualTo(1);
		assertThat(storage.port()).isEqualTo(2);
	}

	private HttpResponse<String> get(String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path)).build();
		return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
	}

}
