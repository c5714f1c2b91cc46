package io.github.rdmacounters.netlink;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.metrics.OptionalCountersMetrics;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link OptionalCounters} and {@link OptionalCountersMetrics} against the fake
 * RDMA netlink kernel ({@code fake_nldev.c}).
 *
 * @author rdma-counters
 */
class OptionalCountersTests {

	private static final String PROPERTY = "rdma.optional-counters";

	private final FakeNldev fake = FakeNldev.get();

	private int mlx;

	private OptionalCounters counters;

	@BeforeEach
	void setUp() {
		this.fake.reset();
		this.mlx = addMlx5("mlx5_0");
		this.fake.addDevice("irdma0", 1, 2, "", "iw");
	}

	@AfterEach
	void tearDown() {
		if (this.counters != null) {
			this.counters.close();
		}
	}

	private int addMlx5(String name) {
		int index = this.fake.addDevice(name, 1, 0x0c42a10300b1c2d3L, "28.39.1002", "roce");
		this.fake.addCounter(index, 1, "out_of_sequence", 3);
		this.fake.addOptionalCounter(index, 1, "cc_rx_ce_pkts", true, 17);
		this.fake.addOptionalCounter(index, 1, "cc_rx_cnp_pkts", false, 5);
		this.fake.addOptionalCounter(index, 1, "cc_tx_cnp_pkts", false, 6);
		return index;
	}

	private OptionalCounters counters(List<String> enable, Map<String, List<String>> devices) {
		this.counters = new OptionalCounters(this.fake::client,
				new OptionalCounters.Settings(enable, devices, PROPERTY), Duration.ZERO, Clock.systemUTC());
		return this.counters;
	}

	@Test
	void snapshotListsTheSupportedOptionalCountersOfEachPortWithTheValuesOfTheEnabledOnes() {
		OptionalCountersSnapshot snapshot = counters(List.of(), Map.of()).snapshot();
		assertThat(snapshot.unavailable()).isNull();
		assertThat(snapshot.ports()).singleElement().satisfies((port) -> {
			assertThat(port.device()).isEqualTo("mlx5_0");
			assertThat(port.port()).isOne();
			assertThat(port.counters()).containsExactly(
					Map.entry("cc_rx_ce_pkts", new OptionalCounter("cc_rx_ce_pkts", true, 17L)),
					Map.entry("cc_rx_cnp_pkts", new OptionalCounter("cc_rx_cnp_pkts", false, null)),
					Map.entry("cc_tx_cnp_pkts", new OptionalCounter("cc_tx_cnp_pkts", false, null)));
			assertThat(port.enabled()).containsExactly("cc_rx_ce_pkts");
		});
		assertThat(this.fake.count("stat_set")).isZero();
	}

	@Test
	void applyAllEnablesTheConfiguredCountersAndKeepsThoseAnotherToolEnabled() {
		OptionalCounters counters = counters(List.of("cc_rx_cnp_pkts", "cc_tx_cnp_pkts"), Map.of());
		counters.applyAll();
		assertThat(this.fake.counterEnabled(this.mlx, 1, "cc_rx_ce_pkts")).isTrue();
		assertThat(this.fake.counterEnabled(this.mlx, 1, "cc_rx_cnp_pkts")).isTrue();
		assertThat(this.fake.counterEnabled(this.mlx, 1, "cc_tx_cnp_pkts")).isTrue();
		assertThat(this.fake.count("stat_set")).isOne();
		assertThat(counters.snapshot().port("mlx5_0", 1).enabled()).containsExactly("cc_rx_ce_pkts", "cc_rx_cnp_pkts",
				"cc_tx_cnp_pkts");
		// already enabled: nothing is sent again
		counters.applyAll();
		counters.reapply("mlx5_0");
		assertThat(this.fake.count("stat_set")).isOne();
	}

	@Test
	void aDeviceRegisteredAgainHasItsCountersEnabledAtTheNextRead() {
		OptionalCounters counters = counters(List.of("cc_rx_cnp_pkts"), Map.of());
		counters.applyAll();
		this.fake.removeDevice(this.mlx);
		int again = addMlx5("mlx5_0");
		assertThat(again).isNotEqualTo(this.mlx);
		assertThat(this.fake.counterEnabled(again, 1, "cc_rx_cnp_pkts")).isFalse();
		PortOptionalCounters port = counters.snapshot().port("mlx5_0", 1);
		assertThat(this.fake.counterEnabled(again, 1, "cc_rx_cnp_pkts")).isTrue();
		assertThat(port.enabled()).contains("cc_rx_cnp_pkts");
		assertThat(port.value("cc_rx_cnp_pkts")).isEqualTo(5L);
		assertThat(this.fake.count("stat_set")).isEqualTo(2);
	}

	@Test
	void reapplyEnablesTheCountersOfAResetDevice() {
		OptionalCounters counters = counters(List.of("cc_tx_cnp_pkts"), Map.of());
		counters.applyAll();
		this.fake.removeDevice(this.mlx);
		int again = addMlx5("mlx5_0");
		counters.reapply("mlx5_0");
		assertThat(this.fake.counterEnabled(again, 1, "cc_tx_cnp_pkts")).isTrue();
		assertThat(this.fake.count("stat_set")).isEqualTo(2);
	}

	@Test
	void withoutCapNetAdminNothingFailsAndReadingGoesOn() {
		this.fake.capNetAdmin(false);
		OptionalCounters counters = counters(List.of("cc_rx_cnp_pkts"), Map.of());
		counters.applyAll();
		counters.reapply("mlx5_0");
		assertThat(this.fake.count("eperm")).isEqualTo(2);
		assertThat(this.fake.counterEnabled(this.mlx, 1, "cc_rx_cnp_pkts")).isFalse();
		assertThat(counters.snapshot().port("mlx5_0", 1).value("cc_rx_ce_pkts")).isEqualTo(17L);
	}

	@Test
	void aNameThePortDoesNotHaveIsLeftOutAndTheOthersAreEnabled() {
		OptionalCounters counters = counters(List.of("cc_rx_cnp_pkts", "out_of_sequence", "cc_bogus"), Map.of());
		counters.applyAll();
		assertThat(this.fake.counterEnabled(this.mlx, 1, "cc_rx_cnp_pkts")).isTrue();
		assertThat(this.fake.count("stat_set")).isOne();
	}

	@Test
	void aDevicesOwnListReplacesTheGlobalOne() {
		OptionalCounters counters = counters(List.of("cc_rx_cnp_pkts"),
				Map.of("mlx5_0", List.of("cc_tx_cnp_pkts"), "mlx5_9", List.of("cc_rx_cnp_pkts")));
		assertThat(counters.settings().propertyOf("mlx5_0")).isEqualTo("rdma.optional-counters.devices.mlx5_0.enable");
		assertThat(counters.settings().propertyOf("mlx5_1")).isEqualTo("rdma.optional-counters.enable");
		counters.applyAll();
		assertThat(this.fake.counterEnabled(this.mlx, 1, "cc_tx_cnp_pkts")).isTrue();
		assertThat(this.fake.counterEnabled(this.mlx, 1, "cc_rx_cnp_pkts")).isFalse();
	}

	@Test
	void withoutRdmaNetlinkTheSnapshotSaysWhyAndApplyingDoesNotFail() {
		this.counters = new OptionalCounters(() -> {
			throw new RdmaOperationException("socket(AF_NETLINK, SOCK_RAW, NETLINK_RDMA)", 93);
		}, new OptionalCounters.Settings(List.of("cc_rx_cnp_pkts"), Map.of(), PROPERTY), Duration.ZERO,
				Clock.systemUTC());
		this.counters.applyAll();
		OptionalCountersSnapshot snapshot = this.counters.snapshot();
		assertThat(snapshot.ports()).isEmpty();
		assertThat(snapshot.unavailable()).startsWith("socket(AF_NETLINK, SOCK_RAW, NETLINK_RDMA) failed: ");
	}

	@Test
	void metersShowValuesAndWhichCountersAreEnabled() {
		OptionalCounters counters = counters(List.of(), Map.of());
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		try (OptionalCountersMetrics metrics = new OptionalCountersMetrics(counters, Tags.empty())) {
			metrics.bindTo(registry);
			assertThat(registry.get("rdma.cc.ce.packets.received")
				.tags("device", "mlx5_0", "port", "1")
				.functionCounter()
				.count()).isEqualTo(17.0);
			assertThat(registry.get("rdma.cc.cnp.packets.received")
				.tags("device", "mlx5_0", "port", "1")
				.functionCounter()
				.count()).isNaN();
			assertThat(registry.get(OptionalCountersMetrics.ENABLED)
				.tags("device", "mlx5_0", "port", "1", "counter", "cc_rx_cnp_pkts")
				.gauge()
				.value()).isZero();
			this.fake.setCounter(this.mlx, 1, "cc_rx_ce_pkts", 0xfffffffffffff000L);
			assertThat(registry.get("rdma.cc.ce.packets.received").functionCounter().count())
				.isEqualTo(18446744073709547520.0);
			// a device that appears later gets its meters when the ports gauge is read
			int second = addMlx5("mlx5_1");
			this.fake.setCounter(second, 1, "cc_rx_ce_pkts", 4);
			assertThat(registry.get(OptionalCountersMetrics.PORTS).gauge().value()).isEqualTo(2);
			assertThat(registry.get("rdma.cc.ce.packets.received")
				.tags("device", "mlx5_1", "port", "1")
				.functionCounter()
				.count()).isEqualTo(4.0);
			System.gc();
			assertThat(registry.get(OptionalCountersMetrics.ENABLED)
				.tags("device", "mlx5_1", "counter", "cc_rx_ce_pkts")
				.gauge()
				.value()).isOne();
		}
		assertThat(registry.find("rdma.cc.ce.packets.received").meters()).isEmpty();
	}

}
