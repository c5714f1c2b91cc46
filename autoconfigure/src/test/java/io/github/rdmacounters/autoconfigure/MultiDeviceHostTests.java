package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.net.InetAddress;
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

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.actuate.endpoint.CompositeHealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.IndicatedHealthDescriptor;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.rdmacounters.actuate.endpoint.CounterSetDescriptor;
import io.github.rdmacounters.actuate.endpoint.DeviceDescriptor;
import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint;
import io.github.rdmacounters.autoconfigure.health.RdmaHealthContributorAutoConfiguration;
import io.github.rdmacounters.autoconfigure.metrics.RdmaMetricsAutoConfiguration;
import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.ManagedDeviceFactory;
import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.core.ReadMode;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;
import io.github.rdmacounters.sysfs.HostSysfs;
import io.github.rdmacounters.testsupport.FakeVerbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests of the starter on a host of several RDMA devices: a sysfs tree of four kinds of
 * devices and a virtual function (mlx5 InfiniBand, mlx5 RoCE with two ports, its VF,
 * irdma iWARP, bnxt_re without {@code counters/}) and the fake libibverbs' devices; and
 * on hosts without a verbs stack or without RDMA at all. Without counter sets no device
 * is opened: port counters, health and the endpoint come from sysfs.
 *
 * @author rdma-counters
 */
class MultiDeviceHostTests {

	private static final String MISSING_LIBRARY = "rdma.native.library=/nonexistent/libibverbs.so.1";

	private final FakeVerbs fake = FakeVerbs.get();

	private static final Duration SCRAPE_TIMEOUT = Duration.ofSeconds(10);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, PrometheusMetricsExportAutoConfiguration.class,
				HealthContributorAutoConfiguration.class, HealthContributorRegistryAutoConfiguration.class,
				HealthEndpointAutoConfiguration.class, RdmaAutoConfiguration.class, RdmaMetricsAutoConfiguration.class,
				RdmaHealthContributorAutoConfiguration.class, RdmaEndpointAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=rdma,health",
				"management.endpoint.health.show-details=always", "rdma.read-cache-ttl=100ms");

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
	void theDevicesOfTheCounterSetsAreOpenedWithOneSnapshotOfTheHost() {
		AtomicInteger snapshots = new AtomicInteger();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class))
			.withPropertyValues("rdma.backend=simulated", "rdma.simulated.devices.mlx5_0.ports=1",
					"rdma.simulated.devices.mlx5_1.ports=1", "rdma.simulated.devices.mlx5_2.ports=1",
					"rdma.counter-sets.a.device=mlx5_0", "rdma.counter-sets.a.flow.protocol=tcp",
					"rdma.counter-sets.b.device=mlx5_1", "rdma.counter-sets.b.flow.protocol=tcp",
					"rdma.counter-sets.c.device=mlx5_2", "rdma.counter-sets.c.port=1",
					"rdma.counter-sets.c.flow.protocol=tcp")
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
				assertThat(context.getBean(RdmaRegistry.class).devices()).extracting(ManagedDevice::name)
					.containsExactlyInAnyOrder("mlx5_0", "mlx5_1", "mlx5_2");
				assertThat(snapshots).hasValue(1);
			});
	}

	@Test
	void withoutTheVerbsLibraryEveryDeviceOfTheSysfsRootIsReportedInTheEndpointHealthAndPrometheus() {
		HostSysfs host = HostSysfs.fourKinds(this.temp);
		this.runner.withPropertyValues(MISSING_LIBRARY, "rdma.port-counters.sysfs-root=" + host.root())
			.run((context) -> {
				assertThat(context).as("no counter set needs the library").hasNotFailed();
				Map<String, DeviceDescriptor> devices = context.getBean(RdmaEndpoint.class).rdma().devices();
				assertThat(devices).containsOnlyKeys("mlx5_0", "mlx5_1", "mlx5_2", "irdma0", "bnxt_re0");
				assertThat(devices.get("mlx5_1").ports()).containsOnlyKeys(1, 2);
				assertThat(devices.get("mlx5_1").ports().get(2).counters()).containsKey("port_rcv_data");
				assertThat(devices.get("mlx5_2").virtualFunction()).isTrue();
				assertThat(devices.get("mlx5_2").physicalFunction()).isEqualTo("0000:41:00.0");
				assertThat(devices.get("mlx5_2").netdevs()).containsExactly("ens1f0v0");
				assertThat(devices.get("irdma0").pciAddress()).isEqualTo("0000:5e:00.0");
				CompositeHealthContributor health = context.getBean("rdmaHealthContributor",
						CompositeHealthContributor.class);
				for (String name : new String[] { "mlx5_0", "mlx5_1", "mlx5_2", "irdma0", "bnxt_re0" }) {
					assertThat(health(health, name).getStatus()).as(name).isEqualTo(Status.UP);
				}
				String scrape = context.getBean(PrometheusMeterRegistry.class).scrape();
				assertThat(scrape).contains("rdma_port_data_received_bytes_total{device=\"mlx5_1\",port=\"2\"}")
					.contains("rdma_ip4_in_octets_total{device=\"irdma0\",port=\"1\"}")
					.contains("rdma_port_data_received_bytes_total{device=\"mlx5_0\",port=\"1\"}")
					.containsPattern("rdma_device_info\\{[^}]*device=\"mlx5_2\"[^}]*netdev=\"ens1f0v0\""
							+ "[^}]*pci_address=\"0000:41:00.2\"[^}]*virtual_function=\"true\"")
					.contains("rdma_device_present{device=\"bnxt_re0\"} 1.0")
					.contains("rdma_devices 5.0");
			});
	}

	@Test
	void aDeviceAPortOrACounterFileVanishingIsReportedAndTheOtherDevicesSeriesGoOn() {
		HostSysfs host = HostSysfs.fourKinds(this.temp);
		this.runner.withPropertyValues(MISSING_LIBRARY, "rdma.port-counters.sysfs-root=" + host.root())
			.run((context) -> {
				PrometheusMeterRegistry prometheus = context.getBean(PrometheusMeterRegistry.class);
				String before = prometheus.scrape();
				String bnxtBefore = line(before, "rdma_tx_bytes_total{device=\"bnxt_re0\",port=\"1\"}");
				host.removeDevice("irdma0");
				host.deletePort("mlx5_1", 2);
				delete(host.file("mlx5_0", "ports/1/counters/port_rcv_data"));
				// the next snapshot, once the read cache time-to-live is over, sees them
				// gone
				String after = await().atMost(SCRAPE_TIMEOUT)
					.until(prometheus::scrape, (scrape) -> scrape.contains("rdma_devices 4.0"));
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
				Map<String, DeviceDescriptor> devices = context.getBean(RdmaEndpoint.class).rdma().devices();
				assertThat(devices.get("irdma0").present()).isFalse();
				assertThat(devices.get("mlx5_1").ports().get(2).present()).isFalse();
				assertThat(devices.get("mlx5_0").ports().get(1).missingCounterFiles())
					.containsExactly("counters/port_rcv_data");

				host.addDevice("mlx5-roce", "mlx5_1", "mlx5_3", "0000:42:00.0", "ens4f0np0", null);
				// a device that appears gets its meters at a scrape after the next
				// snapshot
				await().atMost(SCRAPE_TIMEOUT)
					.untilAsserted(() -> assertThat(prometheus.scrape())
						.contains("rdma_port_data_received_bytes_total{device=\"mlx5_3\",port=\"1\"}")
						.contains("rdma_device_present{device=\"mlx5_3\"} 1.0"));
				assertThat(health(health, "mlx5_3").getStatus()).isEqualTo(Status.UP);
			});
	}

	@Test
	void deviceFilterChoosesTheDevicesByNameAndGlob() {
		HostSysfs host = HostSysfs.fourKinds(this.temp);
		this.runner
			.withPropertyValues(MISSING_LIBRARY, "rdma.port-counters.sysfs-root=" + host.root(),
					"rdma.port-counters.devices.include=mlx5_*", "rdma.port-counters.devices.exclude=mlx5_2")
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
				RdmaRegistry registry = context.getBean(RdmaRegistry.class);
				assertThat(registry.devices()).extracting(ManagedDevice::name)
					.containsExactly("mlx5_0", "mlx5_1", "mlx5_9");
				ManagedDevice mlx50 = registry.device("mlx5_0");
				ManagedDevice mlx51 = registry.device("mlx5_1");
				assertThat(mlx50.isAvailable()).isTrue();
				assertThat(mlx51.isAvailable()).isTrue();
				assertThat(mlx50.ports()).containsExactly(1);
				assertThat(mlx51.ports()).as("first ACTIVE port").containsExactly(2);
				assertThat(mlx51.counterSets()).extracting(CounterSet::name).containsExactly("vxlan1", "https");
				assertThat(mlx51.counterSets()).extracting(CounterSet::port).containsOnly(2);
				assertThat(registry.device("mlx5_9").isAvailable()).isFalse();

				FakeDeviceSets.deliverTraffic(this.fake);
				assertThat(mlx50.counterSets().get(0).read().value(CounterType.PACKETS)).isEqualTo(1);
				assertThat(mlx51.counterSets().get(0).read().value(CounterType.PACKETS)).isEqualTo(2);
				assertThat(mlx51.counterSets().get(1).read().value(CounterType.BYTES)).isEqualTo(100);

				RdmaEndpoint endpoint = context.getBean(RdmaEndpoint.class);
				CounterSetDescriptor vxlan1 = endpoint.counterSet("vxlan1");
				assertThat(vxlan1.device()).isEqualTo("mlx5_1");
				assertThat(vxlan1.port()).isEqualTo(2);
				assertThat(vxlan1.values()).containsEntry("packets", 2L);
				assertThat(endpoint.counterSet("vxlan0").device()).isEqualTo("mlx5_0");
				assertThat(endpoint.counterSet("vxlan0").values()).containsEntry("packets", 1L);
				assertThat(endpoint.counterSet("https").device()).isEqualTo("mlx5_1");
				assertThat(endpoint.counterSet("nvme").device()).isEqualTo("mlx5_9");
				assertThat(endpoint.counterSet("nvme").readSucceeded()).isFalse();
				assertThat(endpoint.counterSet("nope")).isNull();

				CompositeHealthContributor health = context.getBean("rdmaHealthContributor",
						CompositeHealthContributor.class);
				assertThat(health(health, "mlx5_0").getStatus()).isEqualTo(Status.UP);
				assertThat(health(health, "mlx5_1").getStatus()).isEqualTo(Status.UP);
				Health missing = health(health, "mlx5_9");
				assertThat(missing.getStatus()).isEqualTo(Status.DOWN);
				assertThat(String.valueOf(missing.getDetails().get("reason"))).contains("mlx5_9");
				assertThat(health(health, "irdma0").getStatus()).as("port counters only").isEqualTo(Status.UP);
				String scrape = context.getBean(PrometheusMeterRegistry.class).scrape();
				assertThat(scrape).contains("rdma_flow_packets_total{device=\"mlx5_1\",port=\"2\",set=\"vxlan1\"} 2.0")
					.contains("rdma_flow_packets_total{device=\"mlx5_0\",port=\"1\",set=\"vxlan0\"} 1.0");
				context.close();
				this.fake.assertClean();
			});
	}

	@Test
	void setOnAMissingDeviceFailingStartupIsAnalysedNamingItsPropertyAndTheOtherDeviceIsClosedAgain() {
		this.fake.device("mlx5_0").add();
		this.runner
			.withPropertyValues("rdma.native.library=" + this.fake.libraryPath(), "rdma.port-counters.enabled=false",
					"rdma.counter-sets.vxlan.device=mlx5_0", "rdma.counter-sets.vxlan.flow.protocol=udp",
					"rdma.counter-sets.nvme.device=mlx5_9", "rdma.counter-sets.nvme.flow.protocol=tcp")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysisAssert.of(context.getStartupFailure())
					.analyzedBy(DeviceNotFoundFailureAnalyzer.class)
					.descriptionContains("'mlx5_9' that rdma.counter-sets.nvme counts on was not found",
							"Devices found: mlx5_0")
					.actionContains("rdma.devices.mlx5_9.fail-on-unavailable=false");
				assertThat(this.fake.liveObjects()).as("mlx5_0 closed again: %s", this.fake.liveDescription()).isZero();
			});
	}

	@Test
	void setOnASecondDeviceWhoseProviderHasNoCountersFailsStartupNamingThatSetsPropertyAndDevice() {
		this.fake.device("mlx5_0").add().device("rxe0").countersSupported(false).add();
		this.runner
			.withPropertyValues("rdma.native.library=" + this.fake.libraryPath(), "rdma.port-counters.enabled=false",
					"rdma.counter-sets.vxlan.device=mlx5_0", "rdma.counter-sets.vxlan.flow.protocol=udp",
					"rdma.counter-sets.roce.device=rxe0", "rdma.counter-sets.roce.flow.protocol=udp",
					"rdma.counter-sets.roce.flow.destination-port=4791")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = FailureAnalysisAssert.of(context.getStartupFailure())
					.analyzedBy(RdmaOperationFailureAnalyzer.class)
					.descriptionContains("Creating counter set 'roce' (rdma.counter-sets.roce) on rxe0 port 1",
							"ibv_create_counters", "EOPNOTSUPP (95)")
					.actionContains("Set rdma.counter-sets.roce.device to an mlx5 device", "fail-on-unavailable=false")
					.analysis();
				assertThat(analysis.getDescription()).as("the set on mlx5_0 is fine").doesNotContain("vxlan");
				assertThat(this.fake.liveObjects()).as("mlx5_0 closed again: %s", this.fake.liveDescription()).isZero();
			});
		this.fake.assertClean();
	}

	@Test
	void setsSelectedByNetdevCountOnTheDeviceWithThatInterface() {
		FakeDeviceSets.addDevices(this.fake);
		HostSysfs host = FakeDeviceSets.sysfs(this.temp);
		this.runner
			.withPropertyValues("rdma.native.library=" + this.fake.libraryPath(),
					"rdma.port-counters.sysfs-root=" + host.root(),
					"rdma.counter-sets.front.netdev=" + FakeDeviceSets.MLX5_1_NETDEV,
					"rdma.counter-sets.front.flow.protocol=udp", "rdma.counter-sets.front.flow.destination-port=4789",
					"rdma.counter-sets.back.netdev=" + FakeDeviceSets.MLX5_0_NETDEV,
					"rdma.counter-sets.back.flow.protocol=udp", "rdma.counter-sets.back.flow.destination-port=4789")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RdmaRegistry registry = context.getBean(RdmaRegistry.class);
				CounterSet front = registry.counterSet("front");
				CounterSet back = registry.counterSet("back");
				assertThat(front.deviceName()).isEqualTo("mlx5_1");
				assertThat(front.port()).as("mlx5_1's first ACTIVE port").isEqualTo(2);
				assertThat(back.deviceName()).isEqualTo("mlx5_0");
				assertThat(back.port()).isEqualTo(1);
				InetAddress a = InetAddress.getByName("192.168.1.1");
				InetAddress b = InetAddress.getByName("192.168.1.2");
				this.fake.deliver("mlx5_1", 2, Packet.udp(a, 40000, b, 4789, 512));
				this.fake.deliver("mlx5_1", 2, Packet.udp(a, 40000, b, 4789, 512));
				this.fake.deliver("mlx5_0", 1, Packet.udp(a, 40000, b, 4789, 1024));
				assertThat(context.getBean("front", Counters.class).read(ReadMode.FRESH).get(0)).isEqualTo(2);
				assertThat(context.getBean("back", Counters.class).read(ReadMode.FRESH).get(0)).isEqualTo(1);
				assertThat(this.fake.calls("ibv_open_device")).as("each device opened once").isEqualTo(2);
				context.close();
				this.fake.assertClean();
			});
	}

	@Test
	void setSelectedByANetdevNoDeviceHasFailsStartupListingEachDevicesInterfaces() {
		FakeDeviceSets.addDevices(this.fake);
		HostSysfs host = FakeDeviceSets.sysfs(this.temp);
		this.runner
			.withPropertyValues("rdma.native.library=" + this.fake.libraryPath(),
					"rdma.port-counters.sysfs-root=" + host.root(), "rdma.counter-sets.front.netdev=eth9",
					"rdma.counter-sets.front.flow.protocol=udp")
			.run((context) -> {
				FailureAnalysisAssert.of(context.getStartupFailure())
					.analyzedBy(InvalidRdmaConfigurationFailureAnalyzer.class)
					.descriptionContains("Property: rdma.counter-sets.front.netdev", "eth9",
							"mlx5_0=[" + FakeDeviceSets.MLX5_0_NETDEV + "]",
							"mlx5_1=[" + FakeDeviceSets.MLX5_1_NETDEV + "]");
				assertThat(this.fake.calls("ibv_open_device")).isZero();
			});
		this.fake.assertClean();
	}

	@Test
	void applicationWithoutCounterSetsOnAHostWithoutAVerbsStackServesEveryDevicesPortCountersAndIsUp() {
		this.fake.noKernelStack(true);
		HostSysfs host = HostSysfs.fourKinds(this.temp);
		this.runner
			.withPropertyValues("rdma.native.library=" + this.fake.libraryPath(),
					"rdma.port-counters.sysfs-root=" + host.root())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				List<String> names = List.of("bnxt_re0", "irdma0", "mlx5_0", "mlx5_1", "mlx5_2");
				assertThat(context.getBean(RdmaRegistry.class).devices()).isEmpty();
				Map<String, DeviceDescriptor> devices = context.getBean(RdmaEndpoint.class).rdma().devices();
				assertThat(devices).containsOnlyKeys(names);
				assertThat(devices.get("mlx5_1").ports().get(2).counters()).containsKey("port_rcv_data");
				HealthEndpoint health = context.getBean(HealthEndpoint.class);
				assertThat(health.health().getStatus()).isEqualTo(Status.UP);
				Map<String, HealthDescriptor> rdma = rdmaComponents(health);
				assertThat(rdma).as("no %s phantom device", ManagedDeviceFactory.ANY_DEVICE).containsOnlyKeys(names);
				assertThat(rdma.values()).extracting(HealthDescriptor::getStatus).containsOnly(Status.UP);
				assertThat(context.getBean(PrometheusMeterRegistry.class).scrape()).contains("rdma_devices 5.0");
				assertThat(this.fake.calls("ibv_get_device_list")).as("nothing asked verbs for devices").isZero();
			});
		this.fake.assertClean();
	}

	@Test
	void fourDevicesWithoutCounterSetsAreEachUpInTheRdmaHealthAndNoneIsOpened() {
		HostSysfs host = HostSysfs.empty(this.temp);
		for (int i = 0; i < 4; i++) {
			host.addDevice("mlx5-roce", "mlx5_1", "mlx5_" + i, "0000:4" + i + ":00.0", "ens" + i + "f0np0", null);
			this.fake.device("mlx5_" + i).add();
		}
		this.runner
			.withPropertyValues("rdma.native.library=" + this.fake.libraryPath(),
					"rdma.port-counters.sysfs-root=" + host.root())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				HealthEndpoint health = context.getBean(HealthEndpoint.class);
				assertThat(health.health().getStatus()).isEqualTo(Status.UP);
				Map<String, HealthDescriptor> rdma = rdmaComponents(health);
				assertThat(rdma).containsOnlyKeys("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3");
				assertThat(rdma.values()).extracting(HealthDescriptor::getStatus).containsOnly(Status.UP);
				assertThat(((IndicatedHealthDescriptor) rdma.get("mlx5_3")).getDetails()).containsEntry("present",
						true);
				assertThat(context.getBean(RdmaEndpoint.class).rdma().devices()).containsOnlyKeys("mlx5_0", "mlx5_1",
						"mlx5_2", "mlx5_3");
				assertThat(this.fake.calls("ibv_open_device")).as("no device opened").isZero();
				assertThat(this.fake.calls("ibv_get_device_list")).isZero();
				assertThat(this.fake.liveObjects()).isZero();
			});
		this.fake.assertClean();
	}

	@Test
	void hostWithAnEmptySysfsRootStartsWithNoDevicesAndAnUnknownRdmaHealthWithAReason() {
		HostSysfs host = HostSysfs.empty(this.temp);
		this.runner
			.withPropertyValues("rdma.native.library=" + this.fake.libraryPath(),
					"rdma.port-counters.sysfs-root=" + host.root())
			.run(this::assertStartedWithoutRdma);
		this.fake.assertClean();
	}

	@Test
	void hostWithoutTheDefaultSysfsRootStartsWithNoDevicesAndAnUnknownRdmaHealthWithAReason() {
		assumeThat(Path.of(ManagedDeviceFactory.DEFAULT_SYSFS_ROOT)).as("a host without RDMA").doesNotExist();
		this.runner.withPropertyValues("rdma.native.library=" + this.fake.libraryPath())
			.run(this::assertStartedWithoutRdma);
		this.fake.assertClean();
	}

	private void assertStartedWithoutRdma(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		assertThat(context.getBean(RdmaRegistry.class).devices()).isEmpty();
		assertThat(context.getBean(RdmaEndpoint.class).rdma().devices()).isEmpty();
		HealthEndpoint health = context.getBean(HealthEndpoint.class);
		assertThat(health.health().getStatus()).as("overall").isEqualTo(Status.UP);
		HealthDescriptor rdma = health.healthForPath("rdma");
		assertThat(rdma.getStatus()).isEqualTo(Status.UNKNOWN);
		Map<String, HealthDescriptor> components = rdmaComponents(health);
		assertThat(components).containsOnlyKeys("devices");
		assertThat(((IndicatedHealthDescriptor) components.get("devices")).getDetails()).hasEntrySatisfying("reason",
				(reason) -> assertThat(reason).asString().contains("No RDMA device on this host"));
		assertThat(context.getBean(PrometheusMeterRegistry.class).scrape()).contains("rdma_devices 0.0");
		assertThat(this.fake.calls("ibv_get_device_list")).as("nothing asked verbs for devices").isZero();
	}

	@Test
	void setPortOutOfRangeIsRefusedNamingTheSetsProperty() {
		this.runner
			.withPropertyValues("rdma.backend=simulated", "rdma.counter-sets.storage.device=sim_mlx5_0",
					"rdma.counter-sets.storage.port=0", "rdma.counter-sets.storage.flow.protocol=tcp")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysisAssert.of(context.getStartupFailure())
					.descriptionContains("rdma.counter-sets.storage.port", "0", "must be 1 to 255");
			});
	}

	@Test
	void setNamingItsDeviceTwiceByNameAndByNetdevIsRefused() {
		this.runner
			.withPropertyValues("rdma.backend=simulated", "rdma.counter-sets.roce.device=sim_mlx5_0",
					"rdma.counter-sets.roce.netdev=ens1f0np0", "rdma.counter-sets.roce.flow.destination-port=4791",
					"rdma.counter-sets.roce.flow.protocol=udp")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysisAssert.of(context.getStartupFailure())
					.descriptionContains("rdma.counter-sets.roce.netdev", "ens1f0np0", "names the device a second time",
							"set either device or netdev");
			});
	}

	private static Map<String, HealthDescriptor> rdmaComponents(HealthEndpoint health) {
		HealthDescriptor rdma = health.healthForPath("rdma");
		assertThat(rdma).as("rdma health component").isInstanceOf(CompositeHealthDescriptor.class);
		return ((CompositeHealthDescriptor) rdma).getComponents();
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
