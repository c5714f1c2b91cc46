package io.github.rdmacounters.sample;

import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.rdmacounters.core.RdmaBackend;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the sample application starts with {@code rdma.enabled=false}.
 *
 * @author rdma-counters
 */
class SampleApplicationDisabledTests {

	@Test
	void rdmaDisabledStartsWithoutRdmaBeansAndWithoutTheTrafficGenerator() {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleApplication.class)
			.web(WebApplicationType.NONE)
			.run("--rdma.enabled=false")) {
			assertThat(context.getBeanNamesForType(RdmaBackend.class)).isEmpty();
			assertThat(context.getBeanNamesForType(SimulatedTrafficGenerator.class)).isEmpty();
		}
	}

}
