package io.github.rdmacounters.autoconfigure.ethtool;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import io.github.rdmacounters.actuate.endpoint.PortDescriptor;
import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint;
import io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration;
import io.github.rdmacounters.autoconfigure.RdmaEndpointAutoConfiguration;
import io.github.rdmacounters.autoconfigure.RdmaProperties;
import io.github.rdmacounters.autoconfigure.health.RdmaHealthContributorAutoConfiguration;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.ethtool.HostNetdevStatistics;
import io.github.rdmacounters.ethtool.NetdevPortStatistics;
import io.github.rdmacounters.ethtool.PauseStorm;
import io.github.rdmacounters.ethtool.StatisticsReader;
import io.github.rdmacounters.metrics.NetdevStatisticsMetrics;
import io.github.rdmacounters.simulated.SimulatedBackend;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RdmaEthtoolAutoConfiguration} on a simulated host of an mlx5 device, a
 * two-port mlx5 device and an InfiniBand device: the meters per port, the endpoint and
 * health details, the device filter, and the properties.
 *
 * @author rdma-counters
 */
@ExtendWith(OutputCaptureExtension.class)
class RdmaEthtoolAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class, RdmaEthtoolAutoConfiguration.class,
				RdmaEndpointAutoConfiguration.class, RdmaHealthContributorAutoConfiguration.class))
		.withBean(SimpleMeterRegistry.class)
		.withPropertyValues("rdma.backend=simulated", "rdma.read-cache-ttl=100ms",
				"management.endpoints.web.exposure.include=rdma", "rdma.simulated.devices.sim_mlx5_0.ports=1",
				"rdma.simulated.devices.sim_mlx5_0.netdevs=ens1f0np0", "rdma.simulated.devices.sim_mlx5_1.ports=2",
				"rdma.simulated.devices.sim_mlx5_1.netdevs=ens2f0np0,ens2f1np1",
				"rdma.simulated.devices.sim_ib_0.link-layer=infiniband");

	@Test
	void curatedDefaultAddsAtMostFortySeriesPerPortTaggedAsThePortCounters() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(NetdevStatisticsMetrics.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			context.getBean(NetdevStatisticsMetrics.class).bindTo(registry);
			for (String[] port : new String[][] { { "sim_mlx5_0", "1" }, { "sim_mlx5_1", "1" },
					{ "sim_mlx5_1", "2" } }) {
				List<Meter> series = registry.getMeters()
					.stream()
					.filter((m) -> m.getId().getName().startsWith("rdma.ethtool."))
					.filter((m) -> port[0].equals(m.getId().getTag("device"))
							&& port[1].equals(m.getId().getTag("port")))
					.toList();
				assertThat(series).as("series of %s port %s", port[0], port[1])
					.hasSizeGreaterThanOrEqualTo(17)
					.hasSizeLessThanOrEqualTo(40);
			}
			assertThat(registry.find("rdma.ethtool.pause.frames").tag("device", "sim_ib_0").meters()).isEmpty();
			assertThat(registry.find("rdma.ethtool.pause.frames").tag("port", "unknown").meters()).isEmpty();
		});
	}

	@Test
	void onlyTheNetdevsOfTheServedDevicesAreRead() {
		Set<String> read = ConcurrentHashMap.newKeySet();
		this.contextRunner.withPropertyValues("rdma.port-counters.devices.exclude=sim_mlx5_0")
			.withBean("rdmaNetdevStatisticsReader", StatisticsReader.class, () -> (netdev) -> {
				read.add(netdev);
				throw new IllegalArgumentException("not read in this test");
			})
			.run((context) -> {
				context.getBean(NetdevStatisticsMetrics.class).bindTo(context.getBean(MeterRegistry.class));
				context.getBean(RdmaEndpoint.class).rdma();
				assertThat(read).containsExactlyInAnyOrder("ens2f0np0", "ens2f1np1");
			});
	}

	@Test
	void endpointShowsThePauseAndDiscardCountersOfEachPortsNetdev() {
		this.contextRunner.run((context) -> {
			SimulatedBackend backend = (SimulatedBackend) context.getBean(RdmaBackend.class);
			backend.setCongested("sim_mlx5_1", 2, true);
			for (int i = 0; i < 5; i++) {
				backend.transmit("sim_mlx5_1", 2, roce());
			}
			PortDescriptor port = context.getBean(RdmaEndpoint.class).rdma().devices().get("sim_mlx5_1").ports().get(2);
			assertThat(port.counters()).isNotEmpty();
			assertThat(port.ethtool()).containsOnlyKeys("ens2f1np1");
			NetdevPortStatistics netdev = port.ethtool().get("ens2f1np1");
			assertThat(netdev.statistics()).containsEntry("rx_prio3_pause", 5L)
				.containsEntry("rx_prio3_pause_duration", 5 * 335L)
				.containsEntry("rx_discards_phy", 0L)
				.containsEntry("rx_prio3_buf_discard", 0L)
				.containsEntry("tx_vport_rdma_unicast_packets", 5L);
			assertThat(netdev.error()).isNull();
			assertThat(context.getBean(RdmaEndpoint.class).rdma().devices().get("sim_ib_0").ports().get(1).ethtool())
				.isNull();
		});
	}

	@Test
	void pauseStormIsAHealthDetailOfAPortThatStaysUp() {
		this.contextRunner
			.withPropertyValues("rdma.ethtool.pause-storm.window=200ms", "rdma.ethtool.pause-storm.pause-share=0.5")
			.run((context) -> {
				SimulatedBackend backend = (SimulatedBackend) context.getBean(RdmaBackend.class);
				HealthIndicator device = (HealthIndicator) context
					.getBean("rdmaHealthContributor", CompositeHealthContributor.class)
					.getContributor("sim_mlx5_0");
				assertThat(pauseStorm(device.health())).isNull();
				backend.setCongested("sim_mlx5_0", 1, true);
				Health health = device.health();
				long deadline = System.nanoTime() + 20_000_000_000L;
				while (pauseStorm(health) == null && System.nanoTime() < deadline) {
					// each packet the congested port sends meets 335 µs of pause
					for (int i = 0; i < 3000; i++) {
						backend.transmit("sim_mlx5_0", 1, roce());
					}
					health = device.health();
				}
				assertThat(health.getStatus()).isEqualTo(Status.UP);
				PauseStorm storm = pauseStorm(health);
				assertThat(storm).isNotNull();
				assertThat(storm.reason()).startsWith("priority 3 paused ").endsWith("(rx_prio3_pause_duration)");
			});
	}

	@Test
	void disabledReadsNoNetdev() {
		this.contextRunner.withPropertyValues("rdma.ethtool.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(HostNetdevStatistics.class)
				.doesNotHaveBean(NetdevStatisticsMetrics.class)
				.doesNotHaveBean(StatisticsReader.class);
			assertThat(context.getBean(RdmaEndpoint.class).rdma().devices().get("sim_mlx5_0").ports().get(1).ethtool())
				.isNull();
		});
	}

	@Test
	void settingsWithoutEffectAreWarnedAbout(CapturedOutput output) {
		this.contextRunner.withPropertyValues("rdma.ethtool.enabled=false", "rdma.ethtool.include=*")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).containsOnlyOnce(
				"rdma.ethtool.include=* has no effect: rdma.ethtool.enabled=false switches that feature off");
		this.contextRunner.withPropertyValues("rdma.port-counters.enabled=false", "rdma.ethtool.exclude=rx_*")
			.run((context) -> assertThat(context).doesNotHaveBean(HostNetdevStatistics.class));
		assertThat(output).contains("rdma.ethtool settings have no effect without port counters");
	}

	@Test
	void includeThatMatchesNoStatisticOfTheHostIsWarnedAboutWithTheClosestNames(CapturedOutput output) {
		this.contextRunner.withPropertyValues("rdma.ethtool.include=rx_prio*_bytes,rx_prio3_pausee")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).containsOnlyOnce("rdma.ethtool.include[1]=rx_prio3_pausee matches none of the ")
			.containsPattern("include\\[1]=rx_prio3_pausee matches none of the \\d+ driver statistics of this host's "
					+ "netdevs \\(closest: rx_prio3_pause, [^)]+\\); correct the name or glob")
			.doesNotContain("include[0]=");
	}

	@Test
	void excludeThatRemovesEveryStatisticIsWarnedAbout(CapturedOutput output) {
		this.contextRunner.withPropertyValues("rdma.ethtool.exclude=*")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output)
			.containsOnlyOnce("rdma.ethtool.exclude=* removes every driver statistic of this host's " + "netdevs (")
			.doesNotContain("exclude[0]=");
	}

	@Test
	void patternsThatMatchAStatisticAreNotWarnedAbout(CapturedOutput output) {
		this.contextRunner.withPropertyValues("rdma.ethtool.include=rx_prio*_bytes", "rdma.ethtool.exclude=rx_pause*")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).doesNotContain("matches none").doesNotContain("removes every");
	}

	@Test
	void pauseShareOutOfRangeFailsNamingTheProperty() {
		this.contextRunner.withPropertyValues("rdma.ethtool.pause-storm.pause-share=20").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("rdma.ethtool.pause-storm.pause-share")
				.hasMessageContaining("20");
		});
	}

	@ParameterizedTest(name = "{0}={1}")
	@CsvSource(delimiter = '|', textBlock = """
			rdma.ethtool.exclude | rx_prio[0-9]_pause*
			rdma.ethtool.include | rx_prio.*_bytes
			rdma.ethtool.include | rx_[0-9]*
			rdma.ethtool.exclude | tx_pause_[a-z]
			rdma.ethtool.exclude | rx_prio.*_pause.+
			rdma.ethtool.include | (rx|tx)_bytes
			""")
	void characterClassesAndRegularExpressionsAreRefusedAsWritten(String property, String pattern) {
		this.contextRunner.withPropertyValues(property + "=" + pattern)
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidRdmaConfigurationException.class)
				.hasMessageContaining(property + "[0]=" + pattern + ": must be a driver statistic as ethtool -S "
						+ "names it or a glob of letters, digits, '_', '-', '*' (any run) and '?' (one character)")
				.hasMessageContaining("character classes and regular expressions are not globs"));
	}

	@Test
	void aRegularExpressionFromAnEnvironmentVariableIsRefused() {
		this.contextRunner
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
								Map.of("RDMA_ETHTOOL_INCLUDE", "rx_prio.*_bytes"))))
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("rdma.ethtool.include[0]=rx_prio.*_bytes: must be a driver statistic"));
	}

	@Test
	void globsWithDashesAndQuestionMarksAreAccepted() {
		this.contextRunner.withPropertyValues("rdma.ethtool.include=rx-0?packets,rx_prio*_bytes")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void propertiesBindFromEnvironmentVariables() {
		this.contextRunner.withInitializer((context) -> context.getEnvironment()
			.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
					new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
							Map.of("RDMA_ETHTOOL_INCLUDE", "rx_prio*_bytes,tx_prio*_bytes", "RDMA_ETHTOOL_EXCLUDE",
									"rx_corrected_bits_phy", "RDMA_ETHTOOL_PAUSESTORM_PAUSESHARE", "0.3",
									"RDMA_ETHTOOL_PAUSESTORM_WINDOW", "30s"))))
			.run((context) -> {
				RdmaEthtoolProperties properties = context.getBean(RdmaProperties.class).ethtool();
				assertThat(properties.include()).containsExactly("rx_prio*_bytes", "tx_prio*_bytes");
				assertThat(properties.pauseStorm().pauseShare()).isEqualTo(0.3);
				assertThat(properties.pauseStorm().window()).hasSeconds(30);
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				context.getBean(NetdevStatisticsMetrics.class).bindTo(registry);
				assertThat(registry.find("rdma.ethtool.received.prio0.bytes").tag("port", "1").meters()).isNotEmpty();
				assertThat(registry.find("rdma.ethtool.corrected.bits").meters()).isEmpty();
			});
	}

	private static PauseStorm pauseStorm(Health health) {
		Map<?, ?> ports = (Map<?, ?>) health.getDetails().get("ports");
		Map<?, ?> port = (Map<?, ?>) ports.get("1");
		Map<?, ?> storms = (Map<?, ?>) port.get("pauseStorm");
		return (storms != null) ? (PauseStorm) storms.get("ens1f0np0") : null;
	}

	private static Packet roce() throws Exception {
		return Packet.udp(InetAddress.getByName("192.0.2.1"), 50000, InetAddress.getByName("192.0.2.2"),
				Packet.ROCE_V2_PORT, 1024);
	}

}
