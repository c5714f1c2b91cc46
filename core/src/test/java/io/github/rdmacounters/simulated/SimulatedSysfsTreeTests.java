package io.github.rdmacounters.simulated;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.NoSuchFileException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.MacAddress;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.sysfs.SysfsTree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for the simulated sysfs tree and the port counters read from it.
 */
class SimulatedSysfsTreeTests {

	private static final String DEVICE = SimulatedDeviceSpec.DEFAULT_NAME;

	private final SimulatedBackend backend = new SimulatedBackend(
			List.of(SimulatedDeviceSpec.builder().portCount(2).portState(2, PortState.DOWN).build(),
					SimulatedDeviceSpec.builder()
						.name("sim_ib_0")
						.linkLayer(LinkLayer.INFINIBAND)
						.speed(64, 2)
						.countersSupported(false)
						.build()),
			Clock.fixed(Instant.parse("2026-11-29T15:00:00Z"), ZoneOffset.UTC));

	private static Packet packet(int length) throws Exception {
		return Packet.udp(InetAddress.getByName("10.0.0.1"), 1000, InetAddress.getByName("10.0.0.2"), 4791, length);
	}

	@Test
	void treeLooksLikeAnMlx5Device() throws IOException {
		SysfsTree tree = this.backend.sysfsTree();
		assertThat(tree.list("")).containsExactly("sim_ib_0", "sim_mlx5_0");
		assertThat(tree.list(DEVICE)).contains("fw_ver", "board_id", "hca_type", "node_guid", "ports");
		assertThat(tree.list(DEVICE + "/ports")).containsExactly("1", "2");
		assertThat(tree.list(DEVICE + "/ports/1")).contains("counters", "hw_counters", "state", "rate");
		assertThat(tree.list(DEVICE + "/ports/1/counters")).contains("port_rcv_data", "port_xmit_packets",
				"link_downed", "symbol_error");
		assertThat(tree.list(DEVICE + "/ports/1/hw_counters")).contains("out_of_buffer", "rnr_nak_retry_err");
		assertThat(tree.read(DEVICE + "/ports/1/state")).isEqualTo("4: ACTIVE\n");
		assertThat(tree.read(DEVICE + "/ports/1/phys_state")).isEqualTo("5: LinkUp\n");
		assertThat(tree.read(DEVICE + "/ports/1/rate")).isEqualTo("100 Gb/sec (4X EDR)\n");
		assertThat(tree.read(DEVICE + "/ports/1/link_layer")).isEqualTo("Ethernet\n");
		assertThat(tree.read(DEVICE + "/node_guid")).isEqualTo("0c42:a103:0065:0f2c\n");
		assertThat(tree.list("sim_ib_0/ports/1")).doesNotContain("hw_counters");
	}

	@Test
	void missingPathsAndDirectoriesFailLikeTheFileSystem() {
		SysfsTree tree = this.backend.sysfsTree();
		assertThatExceptionOfType(NoSuchFileException.class).isThrownBy(() -> tree.read("mlx5_9/fw_ver"));
		assertThatExceptionOfType(NoSuchFileException.class).isThrownBy(() -> tree.read(DEVICE + "/ports/3/state"));
		assertThatExceptionOfType(NoSuchFileException.class)
			.isThrownBy(() -> tree.read(DEVICE + "/ports/1/counters/nope"));
		assertThatExceptionOfType(NoSuchFileException.class)
			.isThrownBy(() -> tree.list("sim_ib_0/ports/1/hw_counters"));
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> tree.read(DEVICE + "/ports/1/counters"))
			.withMessageContaining("Is a directory");
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> tree.list(DEVICE + "/fw_ver"))
			.withMessageContaining("Not a directory");
	}

	@Test
	void trafficMovesThePortCountersInBytesAndPackets() throws Exception {
		this.backend.deliver(DEVICE, 1, packet(1000));
		this.backend.deliver(DEVICE, 1,
				packet(1000).withMacs(new MacAddress(0x02_00_00_00_00_01L), MacAddress.parse("01:00:5e:00:00:01")));
		this.backend.transmit(DEVICE, 1, packet(400));
		PortCountersSnapshot snapshot = this.backend.portCounters(DEVICE).snapshot();
		PortStatus port = snapshot.port(1);
		assertThat(port.counters()).containsEntry("port_rcv_data", 2000L)
			.containsEntry("port_rcv_packets", 2L)
			.containsEntry("unicast_rcv_packets", 1L)
			.containsEntry("multicast_rcv_packets", 1L)
			.containsEntry("port_xmit_data", 400L)
			.containsEntry("port_xmit_packets", 1L)
			.containsEntry("out_of_buffer", 0L)
			.containsEntry("rnr_nak_retry_err", 0L);
		assertThat(port.groups()).containsEntry("port_rcv_data", "counters")
			.containsEntry("out_of_buffer", "hw_counters");
		assertThat(port.unreadable()).isEmpty();
		assertThat(snapshot.port(2).counters()).containsEntry("port_rcv_packets", 0L);
		assertThat(snapshot.readAt()).isEqualTo(Instant.parse("2026-11-29T15:00:00Z"));
	}

	@Test
	void snapshotShowsDeviceInformationAndPortStates() {
		PortCountersSnapshot snapshot = this.backend.portCounters(DEVICE).snapshot();
		assertThat(snapshot.deviceName()).isEqualTo(DEVICE);
		assertThat(snapshot.firmwareVersion()).isEqualTo("22.36.1010");
		assertThat(snapshot.boardId()).isEqualTo("MT_0000000359");
		assertThat(snapshot.hcaType()).isEqualTo("MT4125");
		assertThat(snapshot.nodeGuid()).isEqualTo("0c42:a103:0065:0f2c");
		assertThat(snapshot.ports()).extracting(PortStatus::port).containsExactly(1, 2);
		assertThat(snapshot.port(1).state()).isEqualTo("ACTIVE");
		assertThat(snapshot.port(1).isActive()).isTrue();
		assertThat(snapshot.port(2).state()).isEqualTo("DOWN");
		assertThat(snapshot.port(2).physicalState()).isEqualTo("Disabled");
		PortStatus infiniBand = this.backend.portCounters("sim_ib_0").snapshot().port(1);
		assertThat(infiniBand.linkLayer()).isEqualTo("InfiniBand");
		assertThat(infiniBand.rate()).isEqualTo("200 Gb/sec (4X HDR)");
		assertThat(infiniBand.counters()).doesNotContainKey("out_of_buffer");
	}

	@Test
	void portStateChangesShowInTheNextSnapshot() {
		this.backend.setPortState(DEVICE, 1, PortState.DOWN);
		PortStatus port = this.backend.portCounters(DEVICE).snapshot().port(1);
		assertThat(port.state()).isEqualTo("DOWN");
		assertThat(port.counters()).containsEntry("link_downed", 1L);
	}

	@Test
	void cachedSourceReusesItsSnapshotWithinTheTimeToLive() throws Exception {
		var source = this.backend.portCounters(DEVICE, Duration.ofMinutes(1));
		PortCountersSnapshot first = source.snapshot();
		this.backend.deliver(DEVICE, 1, packet(100));
		assertThat(source.snapshot()).as("the snapshot read first, not a new read").isSameAs(first);
	}

	@Test
	void physStateRateAndLinkLayerFilesPrintWhatQueryPortReportsInTheKernelsFormat() throws IOException {
		for (int physicalState = 0; physicalState <= 7; physicalState++) {
			SimulatedPortSpec spec = new SimulatedPortSpec(PortState.ACTIVE, physicalState, LinkLayer.INFINIBAND, 4096,
					64, 1);
			SimulatedBackend single = new SimulatedBackend(
					List.of(SimulatedDeviceSpec.builder().port(1, spec).build()));
			try (RdmaDevice device = single.open(DEVICE)) {
				PortAttributes attributes = device.queryPort(1);
				SysfsTree tree = single.sysfsTree();
				assertThat(tree.read(DEVICE + "/ports/1/phys_state"))
					.isEqualTo(physicalState + ": " + attributes.physicalStateName() + "\n");
				assertThat(tree.read(DEVICE + "/ports/1/rate")).isEqualTo(attributes.rateText() + "\n")
					.isEqualTo("50 Gb/sec (1X HDR)\n");
				assertThat(tree.read(DEVICE + "/ports/1/link_layer"))
					.isEqualTo(attributes.linkLayer().sysfsName() + "\n");
			}
		}
	}

	@Test
	void physStateFilePrintsTheKernelsNamesForPhyTestAndUnknownCodes() throws IOException {
		SimulatedBackend single = new SimulatedBackend(List.of(SimulatedDeviceSpec.builder()
			.portCount(2)
			.port(1, new SimulatedPortSpec(PortState.DOWN, 7, LinkLayer.ETHERNET, 4096, 32, 2))
			.port(2, new SimulatedPortSpec(PortState.DOWN, 0, LinkLayer.ETHERNET, 4096, 32, 2))
			.build()));
		assertThat(single.sysfsTree().read(DEVICE + "/ports/1/phys_state")).isEqualTo("7: Phy Test\n");
		assertThat(single.sysfsTree().read(DEVICE + "/ports/2/phys_state")).isEqualTo("0: <unknown>\n");
	}

	@Test
	void rateFileOfAPortWithAnUnknownWidthFailsLikeTheKernelAndIsListedAsUnreadable() {
		SimulatedBackend single = new SimulatedBackend(List
			.of(SimulatedDeviceSpec.builder().port(1, SimulatedPortSpec.activeRoce().withSpeed(32, 3)).build()));
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> single.sysfsTree().read(DEVICE + "/ports/1/rate"))
			.withMessageContaining("Invalid argument");
		PortStatus port = single.portCounters(DEVICE).snapshot().port(1);
		assertThat(port.rate()).isNull();
		assertThat(port.unreadable()).containsExactly("rate");
	}

}
