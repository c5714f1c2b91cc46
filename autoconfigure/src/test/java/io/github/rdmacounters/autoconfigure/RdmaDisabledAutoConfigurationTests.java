package io.github.rdmacounters.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.rdmacounters.core.RdmaRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RdmaDisabledAutoConfiguration}.
 *
 * @author rdma-counters
 */
@ExtendWith(OutputCaptureExtension.class)
class RdmaDisabledAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class, RdmaDisabledAutoConfiguration.class));

	@Test
	void settingsOfTheStartersSetsWithTheStarterOffAreWarnedAboutOnceAsWritten(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("rdma.enabled=false", "rdma.counterSets.roce.flow.protocol=udp",
					"rdma.port-counters.include=port_*", "rdma.events.enabled=false")
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(RdmaRegistry.class);
				assertThat(output).containsOnlyOnce("rdma.counterSets.roce.flow.protocol=udp, "
						+ "rdma.port-counters.include=port_* have no effect: rdma.enabled=false switches RDMA counters "
						+ "off; remove them, or set rdma.enabled=true")
					.doesNotContain("rdma.events.enabled=false,");
			});
	}

	@Test
	void manySettingsAreCounted(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("rdma.enabled=false", "rdma.backend=simulated", "rdma.counter-sets.a.flow.protocol=udp",
					"rdma.counter-sets.b.flow.protocol=udp", "rdma.counter-sets.c.flow.protocol=udp",
					"rdma.counter-sets.d.flow.protocol=udp", "rdma.counter-sets.e.flow.protocol=udp")
			.run((context) -> assertThat(output).containsOnlyOnce(" and 1 more have no effect: rdma.enabled=false"));
	}

	@Test
	void starterOnOrNothingElseSetIsNotWarnedAbout(CapturedOutput output) {
		this.contextRunner.withPropertyValues("rdma.enabled=false", "rdma.ui.path=/counters")
			.run((context) -> assertThat(context).hasNotFailed());
		this.contextRunner.withPropertyValues("rdma.backend=simulated", "rdma.counter-sets.roce.flow.protocol=udp")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(RdmaRegistry.class));
		assertThat(output).doesNotContain("switches RDMA counters off");
	}

}
