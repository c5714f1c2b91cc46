package io.github.rdmacounters.autoconfigure.netlink;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import io.github.rdmacounters.actuate.endpoint.OptionalCounterDescriptor;
import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint;
import io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration;
import io.github.rdmacounters.autoconfigure.RdmaEndpointAutoConfiguration;
import io.github.rdmacounters.core.DeviceEventTracker;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.metrics.OptionalCountersMetrics;
import io.github.rdmacounters.netlink.FakeNldev;
import io.github.rdmacounters.netlink.HwCounterStatus;
import io.github.rdmacounters.netlink.NldevClient;
import io.github.rdmacounters.netlink.NldevDevice;
import io.github.rdmacounters.netlink.OptionalCounters;
import io.github.rdmacounters.netlink.RdmaNetlink;
import io.github.rdmacounters.simulated.SimulatedBackend;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RdmaOptionalCountersAutoConfiguration} on the simulated backend and on
 * the fake RDMA netlink kernel.
 *
 * @author rdma-counters
 */
@ExtendWith(OutputCaptureExtension.class)
class RdmaOptionalCountersAutoConfigurationTests {

	private static final String DEVICE = "sim_mlx5_0";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class,
				RdmaOptionalCountersAutoConfiguration.class, RdmaEndpointAutoConfiguration.class))
		.withUserConfiguration(MeterRegistryConfiguration.class)
		.withPropertyValues("rdma.backend=simulated", "management.endpoints.web.exposure.include=rdma");

	@Test
	void configuredCountersAreEnabledAtStartupAndShownAsMetersAndPerPortInTheEndpoint() {
		this.contextRunner.withPropertyValues("rdma.optional-counters.enable=cc_rx_ce_pkts,cc_rx_cnp_pkts")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(enabled(context.getBean(RdmaBackend.class))).containsExactly("cc_rx_ce_pkts",
						"cc_rx_cnp_pkts");
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				context.getBean(OptionalCountersMetrics.class).bindTo(meters);
				assertThat(meters.get("rdma.cc.ce.packets.received")
					.tags("device", DEVICE, "port", "1")
					.functionCounter()
					.count()).isZero();
				assertThat(meters.get("rdma.cc.cnp.packets.transmitted").functionCounter().count()).isNaN();
				Map<String, OptionalCounterDescriptor> port = context.getBean(RdmaEndpoint.class)
					.rdma()
					.devices()
					.get(DEVICE)
					.ports()
					.get(1)
					.optionalCounters();
				assertThat(port).containsEntry("cc_rx_ce_pkts", new OptionalCounterDescriptor(true, 0L))
					.containsEntry("cc_tx_cnp_pkts", new OptionalCounterDescriptor(false, null))
					.hasSize(7);
			});
	}

	@Test
	void theListIsReachableFromAnEnvironmentVariable() {
		this.contextRunner
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
								Map.of("RDMA_OPTIONALCOUNTERS_ENABLE", "cc_tx_cnp_pkts,rdma_rx_bytes"))))
			.run((context) -> assertThat(enabled(context.getBean(RdmaBackend.class))).containsExactly("cc_tx_cnp_pkts",
					"rdma_rx_bytes"));
	}

	@Test
	void aDeviceResetIsFollowedByEnablingTheCountersAgainOnceTheDeviceIsReopened() {
		this.contextRunner
			.withPropertyValues("rdma.optional-counters.enable=cc_rx_cnp_pkts",
					"rdma.events.reopen-backoff.initial=1ms", "rdma.counter-sets.roce.flow.protocol=udp",
					"rdma.counter-sets.roce.flow.destination-port=4791")
			.run((context) -> {
				SimulatedBackend backend = (SimulatedBackend) context.getBean(RdmaBackend.class);
				DeviceEventTracker events = context.getBean(RdmaRegistry.class).device(DEVICE).events();
				assertThat(enabled(backend)).containsExactly("cc_rx_cnp_pkts");
				backend.removeDevice(DEVICE);
				backend.restoreDevice(DEVICE);
				// the reopen listener, not a read, enables them again
				Awaitility.await()
					.atMost(Duration.ofSeconds(10))
					.until(() -> events.reopens() == 1 && enabled(backend).contains("cc_rx_cnp_pkts"));
			});
	}

	@Test
	void withoutCapNetAdminOneWarningNamesTheCapabilityAndTheCommandAndTheApplicationStarts(CapturedOutput output) {
		FakeNldev fake = FakeNldev.get();
		fake.reset();
		int mlx = fake.addDevice("mlx5_0", 1, 0x1L, "28.39.1002", "roce");
		fake.addOptionalCounter(mlx, 1, "cc_rx_ce_pkts", true, 9);
		fake.addOptionalCounter(mlx, 1, "cc_rx_cnp_pkts", false, 0);
		fake.capNetAdmin(false);
		this.contextRunner.withBean(NldevClient.class, fake::client)
			.withPropertyValues("rdma.optional-counters.enable=cc_rx_cnp_pkts")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				OptionalCounters counters = context.getBean(OptionalCounters.class);
				counters.reapply("mlx5_0");
				assertThat(fake.count("eperm")).isEqualTo(2);
				assertThat(fake.counterEnabled(mlx, 1, "cc_rx_cnp_pkts")).isFalse();
				assertThat(counters.snapshot().port("mlx5_0", 1).value("cc_rx_ce_pkts")).isEqualTo(9L);
				assertThat(occurrences(output.getAll(), "needs the CAP_NET_ADMIN capability")).isOne();
				assertThat(output)
					.contains("Cannot enable the optional counters [cc_rx_cnp_pkts] of RDMA mlx5_0 port 1 "
							+ "(rdma.optional-counters.enable): setting them needs the CAP_NET_ADMIN capability, which "
							+ "this process does not have; the application goes on without them. An operator can enable "
							+ "them instead with: rdma statistic set link mlx5_0/1 optional-counters "
							+ "cc_rx_ce_pkts,cc_rx_cnp_pkts");
			});
	}

	@Test
	void withCapNetAdminTheFakeKernelEnablesThemAtStartup() {
		FakeNldev fake = FakeNldev.get();
		fake.reset();
		int mlx = fake.addDevice("mlx5_0", 1, 0x1L, "28.39.1002", "roce");
		fake.addOptionalCounter(mlx, 1, "cc_rx_cnp_pkts", false, 0);
		fake.capNetAdmin(true);
		this.contextRunner.withBean(NldevClient.class, fake::client)
			.withPropertyValues("rdma.optional-counters.devices.mlx5_0.enable=cc_rx_cnp_pkts")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(fake.counterEnabled(mlx, 1, "cc_rx_cnp_pkts")).isTrue();
				assertThat(fake.count("stat_set")).isOne();
			});
	}

	@Test
	void namesAPortDoesNotHaveAndDevicesThatAreNotThereAreWarnedAbout(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("rdma.optional-counters.enable=cc_rx_ce_pkts,cc_rx_ecn",
					"rdma.optional-counters.devices.mlx5_7.enable=cc_rx_ce_pkts")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(enabled(context.getBean(RdmaBackend.class))).containsExactly("cc_rx_ce_pkts");
				assertThat(output).contains("rdma.optional-counters.enable names [cc_rx_ecn], which sim_mlx5_0 port 1 "
						+ "does not have as optional counters (it has [cc_rx_ce_pkts, cc_rx_cnp_pkts, cc_tx_cnp_pkts, "
						+ "rdma_tx_packets, rdma_tx_bytes, rdma_rx_packets, rdma_rx_bytes], as 'rdma statistic mode "
						+ "supported link sim_mlx5_0/1' lists them); correct the names");
				assertThat(output).contains("rdma.optional-counters.devices.mlx5_7.enable names RDMA device 'mlx5_7', "
						+ "which this network namespace does not have (it has [sim_mlx5_0])");
			});
	}

	@Test
	void disabledTheyAreNotReadAndAListToEnableIsWarnedAbout(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("rdma.optional-counters.enabled=false", "rdma.optional-counters.enable=cc_rx_ce_pkts")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(OptionalCounters.class)
					.doesNotHaveBean(OptionalCountersMetrics.class);
				assertThat(enabled(context.getBean(RdmaBackend.class))).isEmpty();
				assertThat(output).containsOnlyOnce("rdma.optional-counters.enable=cc_rx_ce_pkts has no effect: "
						+ "rdma.optional-counters.enabled=false switches that feature off");
				assertThat(context.getBean(RdmaEndpoint.class)
					.rdma()
					.devices()
					.get(DEVICE)
					.ports()
					.get(1)
					.optionalCounters()).isNull();
			});
	}

	@Test
	void onTheNativeBackendWithoutRdmaNetlinkTheApplicationStartsAndWarnsOnlyWhenAskedToEnable(CapturedOutput output) {
		Assumptions.assumeFalse(RdmaNetlinkAvailability.available(), "this host has RDMA netlink");
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(RdmaAutoConfiguration.class, RdmaOptionalCountersAutoConfiguration.class))
			.withPropertyValues("rdma.optional-counters.enable=cc_rx_ce_pkts")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(OptionalCounters.class).snapshot().unavailable()).contains("NETLINK_RDMA");
				assertThat(output).contains("Cannot enable the optional counters of rdma.optional-counters: RDMA "
						+ "netlink cannot be asked (socket(AF_NETLINK, SOCK_RAW, NETLINK_RDMA) failed: ");
			});
	}

	private static List<String> enabled(RdmaBackend backend) {
		NldevClient nldev = ((SimulatedBackend) backend).nldev();
		NldevDevice device = nldev.devices()
			.stream()
			.filter((candidate) -> candidate.name().equals(DEVICE))
			.findFirst()
			.orElseThrow();
		return nldev.counterStatus(device, 1)
			.stream()
			.filter((counter) -> counter.optional() && counter.enabled())
			.map(HwCounterStatus::name)
			.toList();
	}

	private static int occurrences(String text, String part) {
		Matcher matcher = Pattern.compile(Pattern.quote(part)).matcher(text);
		int count = 0;
		while (matcher.find()) {
			count++;
		}
		return count;
	}

	/**
	 * Whether this host can open a {@code NETLINK_RDMA} socket.
	 */
	static final class RdmaNetlinkAvailability {

		static boolean available() {
			try (RdmaNetlink netlink = RdmaNetlink.open()) {
				return true;
			}
			catch (RuntimeException ex) {
				return false;
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MeterRegistryConfiguration {

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

}
