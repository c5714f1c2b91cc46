package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.IndicatedHealthDescriptor;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.rdmacounters.actuate.endpoint.PortDescriptor;
import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint;
import io.github.rdmacounters.autoconfigure.health.RdmaHealthContributorAutoConfiguration;
import io.github.rdmacounters.autoconfigure.metrics.RdmaMetricsAutoConfiguration;
import io.github.rdmacounters.sysfs.HostSysfs;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of the starter while a counter file of the host refuses its read: the file is a
 * link to {@code /proc/self/clear_refs}, whose read the kernel answers with
 * {@code EINVAL}, as an mlx5 PPCNT counter of a function restricted by Fabric Manager
 * does. The file has no value in the scrape, and unreadable with its errno in
 * {@code /actuator/rdma} and health.
 *
 * @author rdma-counters
 */
class RefusedCounterFileTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, PrometheusMetricsExportAutoConfiguration.class,
				HealthContributorAutoConfiguration.class, HealthContributorRegistryAutoConfiguration.class,
				HealthEndpointAutoConfiguration.class, RdmaAutoConfiguration.class, RdmaMetricsAutoConfiguration.class,
				RdmaHealthContributorAutoConfiguration.class, RdmaEndpointAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=rdma,health",
				"management.endpoint.health.show-details=always", "rdma.native.library=/nonexistent/libibverbs.so.1");

	@TempDir
	Path temp;

	@Test
	void aRefusingCounterFileIsNaNAndShownWithItsErrnoInTheEndpointAndHealth() throws IOException {
		HostSysfs host = HostSysfs.fourKinds(this.temp);
		Path file = host.file("mlx5_0", "ports/1/counters/port_rcv_data");
		Files.delete(file);
		Files.createSymbolicLink(file, Path.of("/proc/self/clear_refs"));
		this.runner.withPropertyValues("rdma.port-counters.sysfs-root=" + host.root()).run((context) -> {
			assertThat(context.getBean(PrometheusMeterRegistry.class).scrape()).as("no value, never an old one")
				.doesNotContainPattern("rdma_port_data_received_bytes_total\\{device=\"mlx5_0\",port=\"1\"} [0-9]")
				.contains("rdma_port_data_received_bytes_total{device=\"mlx5_1\",port=\"1\"} 3.0E9");
			PortDescriptor port = context.getBean(RdmaEndpoint.class).rdma().devices().get("mlx5_0").ports().get(1);
			assertThat(port.refusedCounterFiles()).containsExactly(Map.entry("counters/port_rcv_data", "EINVAL"));
			assertThat(port.unreadableCounters()).contains("counters/port_rcv_data");
			IndicatedHealthDescriptor health = (IndicatedHealthDescriptor) context.getBean(HealthEndpoint.class)
				.healthForPath("rdma", "mlx5_0");
			assertThat(health.getDetails()).extractingByKey("ports")
				.asInstanceOf(InstanceOfAssertFactories.map(String.class, Map.class))
				.extractingByKey("1")
				.asInstanceOf(InstanceOfAssertFactories.MAP)
				.containsEntry("refusedFiles", Map.of("counters/port_rcv_data", "EINVAL"));
		});
	}

}
