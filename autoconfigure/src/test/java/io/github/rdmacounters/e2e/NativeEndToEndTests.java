package io.github.rdmacounters.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.testsupport.FakeVerbs;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * End-to-end tests on the native backend against the fake libibverbs
 * ({@code rdma.native.library} pointing at the library the test run compiles), with port
 * counters from a sysfs tree written for the test.
 */
class NativeEndToEndTests extends AbstractEndToEndTests {

	@TempDir
	Path sysfs;

	@Override
	String deviceName() {
		return "mlx5_0";
	}

	@Override
	String backendName() {
		return "native";
	}

	@Override
	Map<String, Object> backendProperties() {
		FakeVerbs fake = FakeVerbs.get();
		fake.reset();
		fake.device(deviceName()).add();
		writeSysfsTree();
		return Map.of("rdma.backend", "native", "rdma.native.library", fake.libraryPath(),
				"rdma.counter-sets.vxlan.device", deviceName(), "rdma.counter-sets.https.device", deviceName(),
				"rdma.port-counters.sysfs-root", this.sysfs.toString());
	}

	@Test
	void rdmaEndpointShowsDeviceInformationAndPortCountersFromSysfs() throws Exception {
		RunningApplication app = start();

		JsonNode device = app.json("/actuator/rdma", 200).path("devices").path(deviceName());

		assertThat(device.path("boardId").asString()).isEqualTo("MT_0000000222");
		assertThat(device.path("hcaType").asString()).isEqualTo("MT4125");
		assertThat(device.at("/ports/1/rate").asString()).isEqualTo("100 Gb/sec (4X EDR)");
		assertThat(device.at("/ports/1/counters/port_rcv_data").asLong()).isEqualTo(4000);
		assertThat(device.at("/ports/1/counters/port_rcv_packets").asLong()).isEqualTo(25);
		assertThat(device.at("/ports/1/counters/out_of_buffer").isNumber()).isTrue();
	}

	@Override
	void deliver(RunningApplication app, Packet packet) {
		FakeVerbs.get().deliver(deviceName(), 1, packet);
	}

	@Override
	void setPortState(RunningApplication app, PortState state) {
		FakeVerbs.get().setPortState(deviceName(), 1, state);
	}

	@Override
	void failAlways(RunningApplication app, String verb, int errno) {
		FakeVerbs.get().failAlways(verb, errno);
	}

	@Override
	void assertReleased(RunningApplication app) {
		FakeVerbs fake = FakeVerbs.get();
		assertThat(fake.misuseCount()).as("native calls on freed objects: %s", fake.misuseLog()).isZero();
		assertThat(fake.liveObjects()).as("live native objects: %s", fake.liveDescription()).isZero();
	}

	private void writeSysfsTree() {
		try {
			Path device = this.sysfs.resolve(deviceName());
			write(device.resolve("fw_ver"), "22.36.1010");
			write(device.resolve("board_id"), "MT_0000000222");
			write(device.resolve("hca_type"), "MT4125");
			write(device.resolve("node_guid"), "0c42:a103:0065:0f2c");
			Path port = device.resolve("ports/1");
			write(port.resolve("state"), "4: ACTIVE");
			write(port.resolve("phys_state"), "5: LinkUp");
			write(port.resolve("rate"), "100 Gb/sec (4X EDR)");
			write(port.resolve("link_layer"), "Ethernet");
			write(port.resolve("counters/port_rcv_data"), "1000");
			write(port.resolve("counters/port_rcv_packets"), "25");
			write(port.resolve("hw_counters/out_of_buffer"), "0");
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static void write(Path file, String content) throws IOException {
		Files.createDirectories(file.getParent());
		Files.writeString(file, content + "\n");
	}

}
