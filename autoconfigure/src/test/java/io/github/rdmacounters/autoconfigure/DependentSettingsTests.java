package io.github.rdmacounters.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

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
	void settingsOfAnEnabledFeatureAreNotWarnedAbout(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("rdma.queue-pairs.enabled=true", "rdma.queue-pairs.counters.per-queue-pair=true",
					"rdma.events.monitor.enabled=false")
			.run((context) -> assertThat(output).doesNotContain("has no effect"));
	}

}
