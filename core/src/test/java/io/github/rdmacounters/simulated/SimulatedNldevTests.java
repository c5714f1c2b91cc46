package io.github.rdmacounters.simulated;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.netlink.HwCounterStatus;
import io.github.rdmacounters.netlink.MonitorEventActions;
import io.github.rdmacounters.netlink.NldevClient;
import io.github.rdmacounters.netlink.NldevDevice;
import io.github.rdmacounters.netlink.NldevMonitorEvent;
import io.github.rdmacounters.netlink.OptionalCounters;
import io.github.rdmacounters.netlink.PortOptionalCounters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for the simulator's RDMA netlink answers ({@link SimulatedBackend#nldev()}).
 *
 * @author rdma-counters
 */
class SimulatedNldevTests {

	private static final String DEVICE = "sim_mlx5_0";

	private final SimulatedBackend backend = new SimulatedBackend(List.of(
			SimulatedDeviceSpec.builder().name(DEVICE).build(),
			SimulatedDeviceSpec.builder().name("sim_ib_0").nodeGuid(2).linkLayer(LinkLayer.INFINIBAND).build()));

	private final NldevClient nldev = this.backend.nldev();

	@Test
	void aRocePortHasMlx5sOptionalCountersDisabledAndAnInfinibandPortNone() {
		NldevDevice device = device(DEVICE);
		assertThat(this.nldev.counterStatus(device, 1)).filteredOn(HwCounterStatus::optional)
			.extracting(HwCounterStatus::name, HwCounterStatus::enabled)
			.containsExactly(tuple("cc_rx_ce_pkts"), tuple("cc_rx_cnp_pkts"), tuple("cc_tx_cnp_pkts"),
					tuple("rdma_tx_packets"), tuple("rdma_tx_bytes"), tuple("rdma_rx_packets"), tuple("rdma_rx_bytes"));
		assertThat(this.nldev.counterStatus(device("sim_ib_0"), 1)).noneMatch(HwCounterStatus::optional);
		assertThat(this.nldev.portCounters(device, 1)).containsKey("out_of_buffer").doesNotContainKey("cc_rx_ce_pkts");
	}

	@Test
	void enabledCountersCountRoceTrafficAndCongestionFromZero() throws Exception {
		Packet roce = Packet.udp(InetAddress.getByName("192.0.2.1"), 50000, InetAddress.getByName("192.0.2.2"),
				Packet.ROCE_V2_PORT, 1000);
		NldevDevice device = device(DEVICE);
		this.backend.deliverRoce(DEVICE, 1, roce, RoceOperation.WRITE);
		assertThat(this.nldev.enableOptionalCounters(device, 1, List.of("cc_rx_ce_pkts", "cc_rx_cnp_pkts",
				"cc_tx_cnp_pkts", "rdma_rx_packets", "rdma_rx_bytes", "rdma_tx_packets")))
			.hasSize(6);
		this.backend.deliverRoce(DEVICE, 1, roce, RoceOperation.WRITE);
		this.backend.transmit(DEVICE, 1, roce);
		this.backend.setCongested(DEVICE, 1, true);
		for (int i = 0; i < 3; i++) {
			this.backend.deliverRoce(DEVICE, 1, roce, RoceOperation.WRITE);
		}
		this.backend.transmit(DEVICE, 1, roce);
		Map<String, Long> values = this.nldev.portCounters(device, 1);
		assertThat(values).containsEntry("rdma_rx_packets", 4L)
			.containsEntry("rdma_rx_bytes", 4000L)
			.containsEntry("rdma_tx_packets", 2L)
			.containsEntry("cc_rx_ce_pkts", 3L)
			.containsEntry("cc_tx_cnp_pkts", 3L)
			.containsEntry("cc_rx_cnp_pkts", 1L)
			.doesNotContainKey("rdma_tx_bytes");
	}

	@Test
	void enablingKeepsWhatIsEnabledAndRefusesANameThatIsNotOptional() {
		NldevDevice device = device(DEVICE);
		this.nldev.enableOptionalCounters(device, 1, List.of("cc_rx_ce_pkts"));
		assertThat(this.nldev.enableOptionalCounters(device, 1, List.of("cc_rx_ce_pkts", "cc_tx_cnp_pkts")))
			.containsExactly("cc_tx_cnp_pkts");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.nldev.enableOptionalCounters(device, 1, List.of("out_of_buffer")))
			.withMessageStartingWith("'out_of_buffer' is not an optional counter of sim_mlx5_0 port 1");
		assertThat(this.nldev.counterStatus(device, 1)).filteredOn(HwCounterStatus::enabled)
			.extracting(HwCounterStatus::name)
			.contains("cc_rx_ce_pkts", "cc_tx_cnp_pkts")
			.doesNotContain("cc_rx_cnp_pkts");
	}

	@Test
	void aRestoredDeviceIsRegisteredAgainWithItsCountersDisabledAndTheOldIndexIsGone() {
		NldevDevice before = device(DEVICE);
		this.nldev.enableOptionalCounters(before, 1, List.of("cc_rx_ce_pkts"));
		this.backend.removeDevice(DEVICE);
		assertThat(this.nldev.devices()).extracting(NldevDevice::name).containsExactly("sim_ib_0");
		this.backend.restoreDevice(DEVICE);
		NldevDevice after = device(DEVICE);
		assertThat(after.index()).isNotEqualTo(before.index());
		assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(() -> this.nldev.counterStatus(before, 1))
			.withMessageContaining("EINVAL");
		assertThat(this.nldev.counterStatus(after, 1)).filteredOn(HwCounterStatus::optional)
			.noneMatch(HwCounterStatus::enabled);
	}

	@Test
	void optionalCountersEnableTheConfiguredOnesAgainAfterTheDeviceCameBack() {
		try (OptionalCounters counters = new OptionalCounters(this.backend::nldev,
				new OptionalCounters.Settings(List.of("cc_rx_cnp_pkts"), Map.of(), "rdma.optional-counters"),
				Duration.ZERO, Clock.systemUTC())) {
			counters.applyAll();
			assertThat(counters.snapshot().port(DEVICE, 1).enabled()).containsExactly("cc_rx_cnp_pkts");
			this.backend.removeDevice(DEVICE);
			this.backend.restoreDevice(DEVICE);
			PortOptionalCounters port = counters.snapshot().port(DEVICE, 1);
			assertThat(port.enabled()).containsExactly("cc_rx_cnp_pkts");
			assertThat(port.value("cc_rx_cnp_pkts")).isZero();
		}
	}

	@Test
	void removeAndRestoreSendTheMonitorsEventsUnderTheKernelIndexes() throws Exception {
		List<NldevMonitorEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();
		NldevDevice before = device(DEVICE);
		try (AutoCloseable monitor = this.backend.monitor(events::add)) {
			this.backend.removeDevice(DEVICE);
			this.backend.removeDevice(DEVICE);
			this.backend.restoreDevice(DEVICE);
			this.backend.restoreDevice(DEVICE);
		}
		this.backend.removeDevice(DEVICE);
		assertThat(events).extracting(NldevMonitorEvent::type, NldevMonitorEvent::deviceName)
			.containsExactly(org.assertj.core.groups.Tuple.tuple(NldevMonitorEvent.Type.UNREGISTER, DEVICE),
					org.assertj.core.groups.Tuple.tuple(NldevMonitorEvent.Type.REGISTER, DEVICE));
		assertThat(events.get(0).deviceIndex()).isEqualTo(before.index());
		this.backend.restoreDevice(DEVICE);
		assertThat(events.get(1).deviceIndex()).isNotEqualTo(before.index());
	}

	@Test
	void aRegisterEventEnablesTheConfiguredOptionalCountersWithoutARead() {
		try (OptionalCounters counters = new OptionalCounters(this.backend::nldev,
				new OptionalCounters.Settings(List.of("cc_rx_cnp_pkts"), Map.of(), "rdma.optional-counters"),
				Duration.ofHours(1), Clock.systemUTC());
				MonitorEventActions actions = new MonitorEventActions(null, counters, List::of)) {
			counters.applyAll();
			actions.follow(this.backend.monitor(actions));
			this.backend.removeDevice(DEVICE);
			this.backend.restoreDevice(DEVICE);
			assertThat(this.nldev.counterStatus(device(DEVICE), 1)).filteredOn(HwCounterStatus::enabled)
				.extracting(HwCounterStatus::name)
				.contains("cc_rx_cnp_pkts");
		}
	}

	private NldevDevice device(String name) {
		return this.nldev.devices().stream().filter((d) -> d.name().equals(name)).findFirst().orElseThrow();
	}

	private static org.assertj.core.groups.Tuple tuple(String name) {
		return org.assertj.core.groups.Tuple.tuple(name, false);
	}

}
