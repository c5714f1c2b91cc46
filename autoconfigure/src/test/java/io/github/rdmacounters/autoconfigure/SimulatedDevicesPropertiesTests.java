package io.github.rdmacounters.autoconfigure;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.rdmacounters.autoconfigure.simulated.SimulatedProperties;
import io.github.rdmacounters.core.DeviceId;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that {@code rdma.simulated.devices} is the one description of the simulated
 * devices: each entry is a device of the simulated host, with its ports, link layer,
 * capabilities and network interfaces, and its bad values are named as written.
 *
 * @author rdma-counters
 */
class SimulatedDevicesPropertiesTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class))
		.withPropertyValues("rdma.backend=simulated");

	@Test
	void anEntryWithOneKeyGetsTheDefaultsForTheOthers() {
		RdmaProperties properties = bind(Map.of("rdma.simulated.devices.sim_ib_0.link-layer", "infiniband"));
		assertThat(properties.simulated().devices()).containsOnlyKeys("sim_ib_0");
		SimulatedProperties.Device device = properties.simulated().devices().get("sim_ib_0");
		assertThat(device.linkLayer()).isEqualTo(LinkLayer.INFINIBAND);
		assertThat(device.ports()).isEqualTo(1);
		assertThat(device.countersSupported()).isTrue();
		assertThat(device.managedFlowSteering()).isTrue();
		assertThat(device.roceEnabled()).isTrue();
		assertThat(device.netdevs()).isEmpty();
	}

	@Test
	void bindingTheMapGivesOneDeviceWithTheCapabilitiesAsWritten() {
		RdmaProperties properties = bind(Map.of("rdma.simulated.devices.sim_rxe_0.counters-supported", "false",
				"rdma.simulated.devices.sim_rxe_0.managed-flow-steering", "false",
				"rdma.simulated.devices.sim_rxe_0.netdevs", "eth0,eth1"));
		assertThat(properties.simulated().devices()).containsOnlyKeys("sim_rxe_0");
		SimulatedProperties.Device device = properties.simulated().devices().get("sim_rxe_0");
		assertThat(device.countersSupported()).isFalse();
		assertThat(device.managedFlowSteering()).isFalse();
		assertThat(device.netdevs()).containsExactly("eth0", "eth1");
		assertThat(device.ports()).isEqualTo(1);
	}

	@Test
	void withoutDevicesTheHostHasOneDefaultDeviceSimMlx5Zero() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(SimulatedBackend.class).devices()).extracting(DeviceId::name)
				.containsExactly(SimulatedDeviceSpec.DEFAULT_NAME);
		});
	}

	@Test
	void portsAndLinkLayerShapeTheDeviceThatACounterSetOpens() {
		this.runner
			.withPropertyValues("rdma.simulated.devices.sim_ib_0.ports=2",
					"rdma.simulated.devices.sim_ib_0.link-layer=infiniband", "rdma.counter-sets.ib.port=2")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ManagedDevice device = context.getBean(RdmaRegistry.class).device("sim_ib_0");
				assertThat(device).isNotNull();
				assertThat(device.ports()).containsExactly(2);
				assertThat(device.device().queryDevice().physicalPortCount()).isEqualTo(2);
				assertThat(device.device().queryPort(2).linkLayer()).isEqualTo(LinkLayer.INFINIBAND);
			});
	}

	@Test
	void theRemovedSingleDeviceKeysFailStartupAsUnknownProperties() {
		this.runner.withPropertyValues("rdma.simulated.device-name=sim_ib_0")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(UnboundRdmaPropertyFailureAnalyzer.class)
				.descriptionContains("rdma.simulated.device-name", "sim_ib_0"));
		this.runner.withPropertyValues("rdma.simulated.ports=2")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(UnboundRdmaPropertyFailureAnalyzer.class)
				.descriptionContains("rdma.simulated.ports"));
	}

	@Test
	void severalEntriesAreSeveralDevicesInOrderWithTheirNetdevsInSysfs() {
		this.runner
			.withPropertyValues("rdma.simulated.devices.sim_a.ports=2", "rdma.simulated.devices.sim_a.netdevs=ens1f0",
					"rdma.simulated.devices.sim_b.link-layer=infiniband", "rdma.simulated.devices.sim_b.netdevs=ib0")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				SimulatedBackend backend = context.getBean(SimulatedBackend.class);
				assertThat(backend.devices()).extracting(DeviceId::name).containsExactly("sim_a", "sim_b");
				List<PortCountersSnapshot> devices = context.getBean(HostPortCountersSource.class).snapshot().devices();
				assertThat(devices).extracting(PortCountersSnapshot::deviceName).containsExactly("sim_a", "sim_b");
				assertThat(devices.get(0).identity().netdevs()).containsExactly("ens1f0");
				assertThat(devices.get(0).ports()).hasSize(2);
				assertThat(devices.get(1).identity().netdevs()).containsExactly("ib0");
			});
	}

	@Test
	void badPortCountOfASimulatedDeviceIsNamedAsWritten() {
		this.runner.withPropertyValues("rdma.simulated.devices.sim_b.ports=300")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(InvalidRdmaPropertyValueFailureAnalyzer.class)
				.descriptionContains(
						"Invalid value '300' for configuration property 'rdma.simulated.devices.sim_b.ports'",
						"must be 1 to 255"));
	}

	@Test
	void portBeyondThePortsOfTheSimulatedDeviceIsRefusedNamingTheSetsPortProperty() {
		this.runner.withPropertyValues("rdma.simulated.devices.sim_b.ports=2", "rdma.counter-sets.ib.port=3")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(InvalidRdmaConfigurationFailureAnalyzer.class)
				.descriptionContains("rdma.counter-sets.ib.port", "must be 1 to 2: sim_b has 2 ports"));
	}

	private static RdmaProperties bind(Map<String, String> values) {
		return new Binder(new MapConfigurationPropertySource(values))
			.bind(RdmaProperties.PREFIX, Bindable.of(RdmaProperties.class))
			.get();
	}

}
