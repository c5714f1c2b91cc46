package io.github.rdmacounters.metrics;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.ethtool.NetdevStatistics;
import io.github.rdmacounters.ethtool.NetdevStatisticsSource;
import io.github.rdmacounters.ethtool.StatisticNames;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ethtool meters on the statistic names of an mlx5 port as the kernel's
 * {@code Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst}
 * documents them (typed into {@code ethtool/mlx5-counters-rst.txt}, PFC on priority 3),
 * each statistic given a value of its own.
 *
 * @author rdma-counters
 */
class NetdevStatisticsMetricsTests {

	private static final String NETDEV = "ens1f0np0";

	/** The curated groups of the issue, for PFC priority 3. */
	private static final List<String> CURATED = List.of("rx_prio3_pause", "tx_prio3_pause", "rx_prio3_pause_duration",
			"rx_prio3_pause_transition", "tx_pause_storm_warning_events", "tx_pause_storm_error_events",
			"rx_discards_phy", "rx_prio3_buf_discard", "rx_prio3_cong_discard", "rx_out_of_buffer",
			"link_down_events_phy", "rx_pcs_symbol_err_phy", "rx_corrected_bits_phy", "rx_vport_rdma_unicast_bytes",
			"rx_vport_rdma_unicast_packets", "tx_vport_rdma_unicast_bytes", "tx_vport_rdma_unicast_packets");

	private final AtomicReference<NetdevStatistics> statistics = new AtomicReference<>(
			statistics(recordedNames(), 1000));

	private final NetdevStatisticsSource source = new NetdevStatisticsSource("mlx5_0", () -> List.of(NETDEV),
			this::read, Duration.ZERO, Clock.systemUTC());

	private NetdevStatistics read(String netdev) {
		NetdevStatistics current = this.statistics.get();
		if (current == null) {
			throw new RdmaOperationException("ioctl(SIOCETHTOOL, ETHTOOL_GSSET_INFO) on " + netdev, Errno.ENODEV);
		}
		return current;
	}

	@Test
	void defaultGivesEveryCuratedStatisticOneMeterAndNoOther() {
		MeterRegistry registry = new SimpleMeterRegistry();
		new NetdevStatisticsMetrics(List.of(this.source), Tags.empty()).bindTo(registry);
		List<FunctionCounter> counters = registry.getMeters()
			.stream()
			.filter((m) -> m instanceof FunctionCounter && m.getId().getName().startsWith("rdma.ethtool."))
			.map(FunctionCounter.class::cast)
			.toList();
		assertThat(counters).hasSize(CURATED.size()).hasSizeLessThanOrEqualTo(40);
		Map<String, Double> byStatistic = new HashMap<>();
		for (FunctionCounter counter : counters) {
			String description = counter.getId().getDescription();
			String statistic = description.substring(description.lastIndexOf('(') + 1, description.lastIndexOf(')'));
			byStatistic.put(statistic, counter.count());
			assertThat(counter.getId().getTag("device")).isEqualTo("mlx5_0");
			assertThat(counter.getId().getTag("netdev")).isEqualTo(NETDEV);
		}
		Map<String, Double> expected = new HashMap<>();
		// the pause duration in seconds, the driver's in microseconds
		CURATED.forEach((name) -> expected.put(name,
				this.statistics.get().value(name) * (name.endsWith("_pause_duration") ? 1e-6 : 1)));
		assertThat(byStatistic).isEqualTo(expected);
		assertThat(registry.get("rdma.ethtool.pause.frames")
			.tags("direction", "transmitted", "priority", "3")
			.functionCounter()
			.count()).isEqualTo(this.statistics.get().value("tx_prio3_pause"));
	}

	@Test
	void prometheusNamesCarryPriorityAndDirectionAsLabels() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		new NetdevStatisticsMetrics(List.of(this.source), List.of("rx_prio*_bytes"), List.of(), Tags.empty())
			.bindTo(registry);
		String text = registry.scrape();
		assertThat(text).contains("rdma_ethtool_pause_frames_total{device=\"mlx5_0\",direction=\"received\","
				+ "netdev=\"ens1f0np0\",port=\"unknown\",priority=\"3\"} "
				+ this.statistics.get().value("rx_prio3_pause"));
		assertThat(text).contains("rdma_ethtool_pause_duration_seconds_total{");
		assertThat(text).contains("rdma_ethtool_vport_rdma_unicast_bytes_total{device=\"mlx5_0\","
				+ "direction=\"transmitted\",netdev=\"ens1f0np0\",port=\"unknown\"} "
				+ this.statistics.get().value("tx_vport_rdma_unicast_bytes"));
		// an included statistic without a curated meter: node_exporter's name after the
		// prefix
		assertThat(text)
			.contains("rdma_ethtool_received_prio0_bytes{device=\"mlx5_0\",netdev=\"ens1f0np0\",port=\"unknown\"} "
					+ this.statistics.get().value("rx_prio0_bytes"));
	}

	@Test
	void filterAddsAndExcludesStatisticsAndCuratedNamesKeepTheirMeter() {
		MeterRegistry registry = new SimpleMeterRegistry();
		new NetdevStatisticsMetrics(List.of(this.source), List.of("rx_prio*_buf_discard", "rx_prio?_bytes"),
				List.of("*_pause_duration"), Tags.empty())
			.bindTo(registry);
		assertThat(registry.find("rdma.ethtool.buffer.discards").functionCounters()).hasSize(8);
		assertThat(registry.find("rdma.ethtool.congestion.discards").functionCounters()).hasSize(1);
		assertThat(registry.find("rdma.ethtool.pause.duration").functionCounters()).isEmpty();
		assertThat(registry.get("rdma.ethtool.received.prio7.bytes").gauge().value())
			.isEqualTo(this.statistics.get().value("rx_prio7_bytes"));
		assertThat(registry.find("rdma.ethtool.transmitted.prio7.bytes").gauges()).isEmpty();
	}

	@Test
	void metersFollowTheValuesAndNewNamesGetMetersWhenTheCountIsRead() {
		MeterRegistry registry = new SimpleMeterRegistry();
		new NetdevStatisticsMetrics(List.of(this.source), Tags.empty()).bindTo(registry);
		assertThat(registry.find("rdma.ethtool.pause.frames").tag("priority", "4").functionCounters()).isEmpty();
		List<String> names = new ArrayList<>(recordedNames());
		names.addAll(names.indexOf("rx_prio4_bytes"), List.of("rx_prio4_pause", "tx_prio4_pause"));
		this.statistics.set(statistics(names, 5000));
		double count = registry.get(NetdevStatisticsMetrics.STATISTICS).gauge().value();
		assertThat(count).isEqualTo(names.size());
		assertThat(registry.get("rdma.ethtool.pause.frames")
			.tags("direction", "received", "priority", "4")
			.functionCounter()
			.count()).isEqualTo(this.statistics.get().value("rx_prio4_pause"));
		assertThat(registry.get("rdma.ethtool.pause.frames")
			.tags("direction", "received", "priority", "3")
			.functionCounter()
			.count()).isEqualTo(this.statistics.get().value("rx_prio3_pause"));
	}

	@Test
	void unsignedValuesAboveLongMaxStayPositive() {
		List<String> names = List.of("rx_vport_rdma_unicast_bytes");
		this.statistics.set(new NetdevStatistics(NETDEV, StatisticNames.of(names), new long[] { -2L }));
		MeterRegistry registry = new SimpleMeterRegistry();
		new NetdevStatisticsMetrics(List.of(this.source), Tags.empty()).bindTo(registry);
		double value = registry.get("rdma.ethtool.vport.rdma.unicast").functionCounter().count();
		assertThat(value).isEqualTo(new java.math.BigDecimal(Long.toUnsignedString(-2L)).doubleValue()).isPositive();
	}

	@Test
	void unreadableNetdevHasNoValueAndIsCounted() {
		MeterRegistry registry = new SimpleMeterRegistry();
		new NetdevStatisticsMetrics(List.of(this.source), Tags.empty()).bindTo(registry);
		this.statistics.set(null);
		assertThat(this.source.snapshot().failures().get(NETDEV)).contains("ENODEV");
		assertThat(registry.get("rdma.ethtool.out.of.buffer.drops").functionCounter().count()).isNaN();
		assertThat(registry.get(NetdevStatisticsMetrics.UNREADABLE).gauge().value()).isEqualTo(1);
	}

	@Test
	void sourceThatCannotReadAtAllGivesNoValues() {
		MeterRegistry registry = new SimpleMeterRegistry();
		NetdevStatisticsSource broken = new NetdevStatisticsSource("mlx5_1", () -> List.of(NETDEV), (netdev) -> {
			throw new IllegalStateException("reader closed");
		}, Duration.ZERO, Clock.systemUTC());
		new NetdevStatisticsMetrics(List.of(this.source, broken), Tags.empty()).bindTo(registry);
		assertThat(registry.find("rdma.ethtool.pause.frames").tag("device", "mlx5_1").functionCounters()).isEmpty();
		assertThat(registry.get(NetdevStatisticsMetrics.UNREADABLE).tag("device", "mlx5_1").gauge().value()).isNaN();
		assertThat(registry.get(NetdevStatisticsMetrics.UNREADABLE).tag("device", "mlx5_0").gauge().value()).isZero();
	}

	@Test
	void closeRemovesTheMeters() {
		MeterRegistry registry = new SimpleMeterRegistry();
		NetdevStatisticsMetrics metrics = new NetdevStatisticsMetrics(List.of(this.source), Tags.empty());
		metrics.bindTo(registry);
		assertThat(registry.getMeters()).filteredOn((m) -> m.getId().getName().startsWith("rdma.ethtool."))
			.hasSizeGreaterThan(CURATED.size());
		metrics.close();
		assertThat(registry.getMeters()).extracting(Meter::getId)
			.noneMatch((id) -> id.getName().startsWith("rdma.ethtool."));
	}

	@Test
	void genericNamesSpellRxAndTxAsNodeExporterDoes() {
		assertThat(NetdevStatisticsMetrics.genericName("rx_queue_0_xdp_tx"))
			.isEqualTo("rdma.ethtool.received.queue.0.xdp.transmitted");
		assertThat(NetdevStatisticsMetrics.genericName("rx64_bytes_phy")).isEqualTo("rdma.ethtool.rx64.bytes.phy");
		assertThat(NetdevStatisticsMetrics.genericName("Tx-Errors")).isEqualTo("rdma.ethtool.transmitted.errors");
	}

	static List<String> recordedNames() {
		try (InputStream in = NetdevStatisticsMetricsTests.class
			.getResourceAsStream("/ethtool/mlx5-counters-rst.txt")) {
			List<String> names = new ArrayList<>();
			for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
				if (!line.isBlank() && !line.startsWith("#")) {
					names.add(line.trim());
				}
			}
			return names;
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** Each statistic a value of its own: the index times a step, plus 7. */
	private static NetdevStatistics statistics(List<String> names, long step) {
		long[] values = new long[names.size()];
		for (int i = 0; i < values.length; i++) {
			values[i] = i * step + 7;
		}
		return new NetdevStatistics(NETDEV, StatisticNames.of(names), values);
	}

}
