package io.github.rdmacounters.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.rdmacounters.autoconfigure.ui.RdmaUiAutoConfiguration;
import io.github.rdmacounters.ui.RdmaUi;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DependentSettings}: a setting of a feature that another one switches
 * off is warned about once, naming both.
 *
 * @author rdma-counters
 */
@ExtendWith(OutputCaptureExtension.class)
class DependentSettingsTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class))
		.withPropertyValues("rdma.backend=simulated");

	@Test
	void perQueuePairCountersWithQueuePairsOffAreWarnedAboutNamingBoth(CapturedOutput output) {
		this.contextRunner.withPropertyValues("rdma.queue-pairs.counters.per-queue-pair=true").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).containsOnlyOnce("rdma.queue-pairs.counters.per-queue-pair=true has no effect: "
					+ "rdma.queue-pairs.enabled=false switches that feature off; remove it, or set "
					+ "rdma.queue-pairs.enabled=true");
		});
	}

	@Test
	void eventSettingsWithEventsOffAreWarnedAboutAsWritten(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("rdma.events.enabled=false", "rdma.events.monitor.enabled=true",
					"rdma.events.reopen-backoff.max=10s")
			.run((context) -> assertThat(output).containsOnlyOnce(
					"rdma.events.monitor.enabled=true, rdma.events.reopen-backoff.max=10s have no effect: "
							+ "rdma.events.enabled=false switches that feature off"));
	}

	@Test
	void pageSettingsWithThePageOffAreWarnedAboutNamingBoth(CapturedOutput output) {
		this.contextRunner.withPropertyValues("rdma.ui.path=/counters", "rdma.ui.poll-interval=5s")
			.run((context) -> assertThat(output)
				.containsOnlyOnce("rdma.ui.path=/counters, rdma.ui.poll-interval=5s have no effect: "
						+ "rdma.ui.enabled=false switches that feature off; remove them, or set rdma.ui.enabled=true"));
	}

	@Test
	void portCounterFiltersWithPortCountersOffAreWarnedAboutAsWritten(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("rdma.port-counters.enabled=false", "rdma.port-counters.include=port_*,link_*",
					"rdma.port-counters.devices.exclude[0]=mlx5_1")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).containsOnlyOnce("rdma.port-counters.include=port_*,link_*, "
						+ "rdma.port-counters.devices.exclude[0]=mlx5_1 have no effect: "
						+ "rdma.port-counters.enabled=false switches that feature off");
			});
	}

	@Test
	void trafficSettingsWithTrafficOffAreWarnedAboutOnTheSimulatedBackend(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("rdma.counter-sets.roce.flow.protocol=udp", "rdma.simulated.traffic.packet-size=100",
					"rdma.simulated.traffic.sets.roce.packets-per-second=5")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).containsOnlyOnce("rdma.simulated.traffic.packet-size=100, "
						+ "rdma.simulated.traffic.sets.roce.packets-per-second=5 have no effect: "
						+ "rdma.simulated.traffic.enabled=false switches that feature off");
			});
	}

	@Test
	void pageEnabledOutsideAServletWebApplicationIsWarnedAbout(CapturedOutput output) {
		this.contextRunner.withPropertyValues("rdma.ui.enabled=true")
			.run((context) -> assertThat(output).containsOnlyOnce("rdma.ui.enabled=true has no effect: the live page "
					+ "is served by a Spring MVC (servlet) web application, and this application is not one"));
	}

	@Test
	void pageServedInAServletWebApplicationIsNotWarnedAbout(CapturedOutput output) {
		new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class, RdmaUiAutoConfiguration.class))
			.withPropertyValues("rdma.backend=simulated", "rdma.ui.enabled=true", "rdma.ui.path=/counters")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(RdmaUi.class);
				assertThat(output).doesNotContain("has no effect");
			});
	}

	@Test
	void settingsOfAnEnabledFeatureAreNotWarnedAbout(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("rdma.queue-pairs.enabled=true", "rdma.queue-pairs.counters.per-queue-pair=true",
					"rdma.events.monitor.enabled=false", "rdma.port-counters.include=port_*",
					"rdma.simulated.traffic.enabled=true", "rdma.simulated.traffic.packet-size=100")
			.run((context) -> assertThat(output).doesNotContain("has no effect"));
	}

}
