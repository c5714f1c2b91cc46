package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint;
import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint.CounterSetDescriptor;
import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint.DeviceDescriptor;
import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;
import io.github.rdmacounters.sysfs.HostSysfs;
import io.github.rdmacounters.testsupport.FakeVerbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests of the starter on a host of several RDMA devices: a sysfs tree of four kinds of
 * devices and a virtual function (mlx5 InfiniBand, mlx5 RoCE with two ports, its VF,
 * irdma iWARP, bnxt_re without {@code counters/}) and the fake libibverbs' devices.
 *
 * @author rdma-counters
 */
class MultiDeviceHostTests {

	private static final String MISSING_LIBRARY = "rdma.native.library=/nonexistent/libibverbs.so.1";

	private final FakeVerbs fake = FakeVerbs.get();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, PrometheusMetricsExportAutoConfiguration.class,
				RdmaAutoConfiguration.class, RdmaMetricsAutoConfiguration.class,
				RdmaHealthContributorAutoConfiguration.class, RdmaEndpointAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=rdma", "rdma.read-cache-ttl=100ms");

	@TempDir
	Path temp;

	@BeforeEach
	void resetFake() {
		this.fake.reset();
	}

	@AfterEach
	void forgetFake() {
		this.fake.reset();
	}

	@Test
	void theDevicesOfRdmaDevicesAreOpenedWithOneSnapshotOfTheHost() {
		AtomicInteger snapshots = new AtomicInteger();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class))
			.withPropertyValues("rdma.backend=simulated", "rdma.simulated.devices.mlx5_0.ports=1",
					"rdma.simulated.devices.mlx5_1.ports=1", "rdma.simulated.devices.mlx5_2.ports=1",
					"rdma.devices.mlx5_0.port=1", "rdma.devices.mlx5_1.port=1", "rdma.devices.mlx5_2.port=1")
			.withBean(HostPortCountersSource.class, () -> {
				SimulatedBackend backend = new SimulatedBackend(
						List.of(SimulatedDeviceSpec.builder().name("mlx5_0").build(),
								SimulatedDeviceSpec.builder().name("mlx5_1").build(),
								SimulatedDeviceSpec.builder().name("mlx5_2").build()));
				// no cache: each snapshot() reads the host
				HostPortCountersSource host = backend.hostPortCounters(this.temp, NameFilter.all(), NameFilter.all(),
						Duration.ZERO);
				return () -> {
					snapshots.incrementAndGet();
					return host.snapshot();
				};
			})
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(RdmaRegistry.class).devices()).hasSize(3);
				assertThat(snapshots).hasValue(1);
			});
	}

	@Test
	void withoutAnRdmaStackEveryDeviceOfTheSysfsRootIsReportedInTheEndpointHealthAndPrometheus() {
		HostSysfs host = HostSysfs.fourKinds(this.temp);
		this.runner
			.withPropertyValues(MISSING_LIBRARY, "rdma.fail-on-unavailable=false",
					"rdma.port-counters.sysfs-root=" + host.root())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Map<String, DeviceDescriptor> devices = context.getBean(RdmaEndpoint.class).rdma().getDevices();
				assertThat(devices).containsKeys("mlx5_0", "mlx5_1", "mlx5_2", "irdma0", "bnxt_re0");
				assertThat(devices.get("mlx5_1").getPorts()).containsOnlyKeys(1, 2);
				assertThat(devices.get("mlx5_1").getPorts().get(2).getCounters()).containsKey("port_rcv_data");
				assertThat(devices.get("mlx5_2").getVirtualFunction()).isTrue();
				assertThat(devices.get("mlx5_2").getPhysicalFunction()).isEqualTo("0000:41:00.0");
				assertThat(devices.get("mlx5_2").getNetdevs()).containsExactly("ens1f0v0");
				assertThat(devices.get("irdma0").getPciAddress()).isEqualTo("0000:5e:00.0");
				CompositeHealthContributor health = context.getBean("rdmaHealthContributor",
						CompositeHealthContributor.class);
				for (String name : new String[] { "mlx5_0", "mlx5_1", "mlx5_2", "irdma0", "bnxt_re0" }) {
					assertThat(health(health, name).getStatus()).as(name).isEqualTo(Status.UP);
				}
				String scrape = context.getBean(PrometheusMeterRegistry.class).scrape();
				assertThat(scrape).contains("rdma_port_data_received_bytes_total{device=\"mlx5_1\",port=\"2\"}")
					.contains("rdma_ip4_in_octets_total{device=\"irdma0\",port=\"1\"}")
					.contains("rdma_port_data_received_bytes_total{device=\"mlx5_0\",port=\"1\"}")
					.containsPattern("rdma_info\\{[^}]*device=\"mlx5_2\"[^}]*netdev=\"ens1f0v0\""
							+ "[^}]*pci_address=\"0000:41:00.2\"[^}]*virtual_function=\"true\"")
					.contains("rdma_device_present{device=\"bnxt_re0\"} 1.0")
					.contains("rdma_devices 5.0");
			});
	}

	@Test
	void aDeviceAPortOrACounterFileVanishingIsReportedAndTheOtherDevicesSeriesGoOn() throws Exception {
		HostSysfs host = HostSysfs.fourKinds(this.temp);
		this.runner
			.withPropertyValues(MISSING_LIBRARY, "rdma.fail-on-unavailable=false",
					"rdma.port-counters.sysfs-root=" + host.root())
			.run((context) -> {
				PrometheusMeterRegistry prometheus = context.getBean(PrometheusMeterRegistry.class);
				String before = prometheus.scrape();
				String bnxtBefore = line(before, "rdma_tx_bytes_total{device=\"bnxt_re0\",port=\"1\"}");
				host.removeDevice("irdma0");
				host.deletePort("mlx5_1", 2);
				delete(host.file("mlx5_0", "ports/1/counters/port_rcv_data"));
				Thread.sleep(150);
				String after = prometheus.scrape();
				assertThat(after).contains("rdma_device_present{device=\"irdma0\"} 0.0")
					.contains("rdma_ip4_in_octets_total{device=\"irdma0\",port=\"1\"} NaN")
					.contains("rdma_port_present{device=\"mlx5_1\",port=\"2\"} 0.0")
					.contains("rdma_port_present{device=\"mlx5_1\",port=\"1\"} 1.0")
					.contains("rdma_port_missing_files{device=\"mlx5_0\",port=\"1\"} 1.0")
					.contains("rdma_port_data_received_bytes_total{device=\"mlx5_0\",port=\"1\"} NaN")
					.contains("rdma_devices 4.0");
				assertThat(line(after, "rdma_tx_bytes_total{device=\"bnxt_re0\",port=\"1\"}")).isEqualTo(bnxtBefore)
					.isNotEmpty();
				CompositeHealthContributor health = context.getBean("rdmaHealthContributor",
						CompositeHealthContributor.class);
				Health irdma = health(health, "irdma0");
				assertThat(irdma.getStatus()).isEqualTo(Status.DOWN);
				assertThat(irdma.getDetails()).containsEntry("present", false);
				assertThat(String.valueOf(irdma.getDetails().get("reason"))).contains("irdma0 is gone");
				assertThat(String.valueOf(health(health, "mlx5_1").getDetails().get("ports")))
					.contains("2={present=false}");
				assertThat(String.valueOf(health(health, "mlx5_0").getDetails().get("ports")))
					.contains("missingCounterFiles=[counters/port_rcv_data]");
				assertThat(health(health, "bnxt_re0").getStatus()).isEqualTo(Status.UP);
				Map<String, DeviceDescriptor> devices = context.getBean(RdmaEndpoint.class).rdma().getDevices();
				assertThat(devices.get("irdma0").getPresent()).isFalse();
				assertThat(devices.get("mlx5_1").getPorts().get(2).getPresent()).isFalse();
				assertThat(devices.get("mlx5_0").getPorts().get(1).getMissingCounterFiles())
					.containsExactly("counters/port_rcv_data");

				host.addDevice("mlx5-roce", "mlx5_1", "mlx5_3", "0000:42:00.0", "ens4f0np0", null);
				Thread.sleep(150);
				prometheus.scrape();
				assertThat(prometheus.scrape())
					.contains("rdma_port_data_received_bytes_total{device=\"mlx5_3\",port=\"1\"}")
					.contains("rdma_device_present{device=\"mlx5_3\"} 1.0");
				assertThat(health(health, "mlx5_3").getStatus()).isEqualTo(Status.UP);
			});
	}

	@Test
	void deviceFilterChoosesTheDevicesByNameAndGlob() {
		HostSysfs host = HostSysfs.fourKinds(this.temp);
		this.runner
			.withPropertyValues(MISSING_LIBRARY, "rdma.fail-on-unavailable=false",
					"rdma.port-counters.sysfs-root=" + host.root(), "rdma.port-counters.devices.include=mlx5_*",
					"rdma.port-counters.devices.exclude=mlx5_2")
			.run((context) -> {
				String scrape = context.getBean(PrometheusMeterRegistry.class).scrape();
				assertThat(scrape).contains("rdma_device_present{device=\"mlx5_0\"} 1.0")
					.contains("rdma_device_present{device=\"mlx5_1\"} 1.0")
					.doesNotContain("device=\"mlx5_2\"")
					.doesNotContain("device=\"irdma0\"")
					.doesNotContain("device=\"bnxt_re0\"");
			});
	}

	@Test
	void setsOnTwoDevicesAndTwoPortsWithOneDeviceFailingComeUpAsConfigured() throws Exception {
		HostSysfs host = HostSysfs.fourKinds(this.temp);
		FakeDeviceSets.addDevices(this.fake);
		this.runner.withPropertyValues(FakeDeviceSets.properties(this.fake))
			.withPropertyValues("rdma.port-counters.sysfs-root=" + host.root())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(ManagedDevice.class);
				RdmaRegistry registry = context.getBean(RdmaRegistry.class);
				assertThat(registry.devices()).extracting(ManagedDevice::name)
					.containsExactly("mlx5_0", "mlx5_1", "mlx5_9");
				ManagedDevice mlx50 = registry.device("mlx5_0");
				ManagedDevice mlx51 = registry.device("mlx5_1");
				assertThat(mlx50.isAvailable()).isTrue();
				assertThat(mlx51.isAvailable()).isTrue();
				assertThat(mlx51.port()).as("first ACTIVE port").isEqualTo(2);
				assertThat(mlx51.counterSets()).extracting(CounterSet::port).containsOnly(2);
				assertThat(registry.device("mlx5_9").isAvailable()).isFalse();

				FakeDeviceSets.deliverTraffic(this.fake);
				assertThat(mlx50.counterSets().get(0).read().value(CounterType.PACKETS)).isEqualTo(1);
				assertThat(mlx51.counterSets().get(0).read().value(CounterType.PACKETS)).isEqualTo(2);
				assertThat(mlx51.counterSets().get(1).read().value(CounterType.BYTES)).isEqualTo(100);

				RdmaEndpoint endpoint = context.getBean(RdmaEndpoint.class);
				assertThatExceptionOfType(InvalidEndpointRequestException.class)
					.isThrownBy(() -> endpoint.counterSet("vxlan", null))
					.withMessageContaining("mlx5_0")
					.withMessageContaining("mlx5_1")
					.withMessageContaining("?device=");
				CounterSetDescriptor vxlan = endpoint.counterSet("vxlan", "mlx5_1");
				assertThat(vxlan.getDevice()).isEqualTo("mlx5_1");
				assertThat(vxlan.getPort()).isEqualTo(2);
				assertThat(vxlan.getValues()).containsEntry("packets", 2L);
				assertThat(endpoint.counterSet("https", null).getDevice()).isEqualTo("mlx5_1");
				assertThat(endpoint.counterSet("https", "mlx5_0")).isNull();
				assertThat(endpoint.counterSet("nope", null)).isNull();

				CompositeHealthContributor health = context.getBean("rdmaHealthContributor",
						CompositeHealthContributor.class);
				assertThat(health(health, "mlx5_0").getStatus()).isEqualTo(Status.UP);
				assertThat(health(health, "mlx5_1").getStatus()).isEqualTo(Status.UP);
				Health missing = health(health, "mlx5_9");
				assertThat(missing.getStatus()).isEqualTo(Status.DOWN);
				assertThat(String.valueOf(missing.getDetails().get("reason"))).contains("mlx5_9");
				assertThat(health(health, "irdma0").getStatus()).as("port counters only").isEqualTo(Status.UP);
				String scrape = context.getBean(PrometheusMeterRegistry.class).scrape();
				assertThat(scrape).contains("rdma_flow_packets_total{device=\"mlx5_1\",port=\"2\",set=\"vxlan\"} 2.0")
					.contains("rdma_flow_packets_total{device=\"mlx5_0\",port=\"1\",set=\"vxlan\"} 1.0");
				context.close();
				this.fake.assertClean();
			});
	}

	@Test
	void deviceOfRdmaDevicesFailingStartupIsAnalysedNamingItsProperties() {
		this.fake.device("mlx5_0").add();
		this.runner
			.withPropertyValues("rdma.native.library=" + this.fake.libraryPath(), "rdma.port-counters.enabled=false",
					"rdma.devices.mlx5_0.counter-sets.vxlan.flow.protocol=udp",
					"rdma.devices.mlx5_9.counter-sets.nvme.flow.protocol=tcp")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysisAssert.of(context.getStartupFailure())
					.analyzedBy(DeviceNotFoundFailureAnalyzer.class)
					.descriptionContains("'mlx5_9' (rdma.devices.mlx5_9) was not found", "Devices found: mlx5_0")
					.actionContains("rdma.devices.mlx5_9.fail-on-unavailable=false");
				assertThat(this.fake.liveObjects()).as("mlx5_0 closed again: %s", this.fake.liveDescription()).isZero();
			});
	}

	@Test
	void badDevicePortIsRefusedNamingTheDevicesProperty() {
		this.runner.withPropertyValues("rdma.backend=simulated", "rdma.devices.sim_mlx5_0.port=0").run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysisAssert.of(context.getStartupFailure())
				.descriptionContains("rdma.devices.sim_mlx5_0.port", "0", "must be 1 to 255");
		});
	}

	@Test
	void deviceOfRdmaDevicesAndTheShorthandNamingTheSameDeviceIsRefused() {
		this.runner
			.withPropertyValues("rdma.backend=simulated", "rdma.device=sim_mlx5_0",
					"rdma.devices.sim_mlx5_0.counter-sets.roce.flow.destination-port=4791",
					"rdma.devices.sim_mlx5_0.counter-sets.roce.flow.protocol=udp")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysisAssert.of(context.getStartupFailure())
					.descriptionContains("rdma.devices.sim_mlx5_0", "rdma.device");
			});
	}

	private static Health health(CompositeHealthContributor composite, String name) {
		HealthIndicator indicator = (HealthIndicator) composite.getContributor(name);
		assertThat(indicator).as("health contributor %s", name).isNotNull();
		return indicator.health(true);
	}

	private static String line(String scrape, String series) {
		return scrape.lines().filter((line) -> line.startsWith(series)).findFirst().orElse("");
	}

	private static void delete(Path file) {
		try {
			Files.delete(file);
		}
		catch (IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

}
