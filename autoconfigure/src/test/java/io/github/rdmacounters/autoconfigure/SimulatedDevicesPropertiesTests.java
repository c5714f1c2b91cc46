package io.github.rdmacounters.autoconfigure;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.rdmacounters.core.DeviceId;
import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.simulated.SimulatedBackend;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that {@code rdma.simulated.devices} is the one description of the simulated
 * devices: the deprecated single-device properties are folded into it as they are bound,
 * still work, and are named in one warning with their replacements.
 *
 * @author rdma-counters
 */
@ExtendWith(OutputCaptureExtension.class)
class SimulatedDevicesPropertiesTests {

	private static final String WARNING = "Deprecated properties describe the simulated device";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class))
		.withPropertyValues("rdma.backend=simulated", "rdma.port-counters.enabled=false");

	@Test
	@SuppressWarnings("deprecation")
	void deprecatedPropertiesAreFoldedIntoOneEntryOfTheMapWhateverTheOrderTheyAreSetIn() {
		RdmaProperties.Simulated nameFirst = new RdmaProperties().getSimulated();
		nameFirst.setDeviceName("sim_ib_0");
		nameFirst.setPorts(2);
		nameFirst.setLinkLayer(LinkLayer.INFINIBAND);
		RdmaProperties.Simulated nameLast = new RdmaProperties().getSimulated();
		nameLast.setLinkLayer(LinkLayer.INFINIBAND);
		nameLast.setPorts(2);
		nameLast.setDeviceName("sim_ib_0");
		for (RdmaProperties.Simulated simulated : new RdmaProperties.Simulated[] { nameFirst, nameLast }) {
			assertThat(simulated.getDevices()).containsOnlyKeys("sim_ib_0");
			RdmaProperties.SimulatedDevice device = simulated.getDevices().get("sim_ib_0");
			assertThat(device.getPorts()).isEqualTo(2);
			assertThat(device.getLinkLayer()).isEqualTo(LinkLayer.INFINIBAND);
			assertThat(device.isCountersSupported()).isTrue();
			assertThat(device.isManagedFlowSteering()).isTrue();
		}
	}

	@Test
	void bindingTheDeprecatedPropertiesGivesTheSameMapAsBindingTheMap() {
		RdmaProperties deprecated = bind(Map.of("rdma.simulated.device-name", "sim_rxe_0",
				"rdma.simulated.counters-supported", "false", "rdma.simulated.managed-flow-steering", "false"));
		RdmaProperties map = bind(Map.of("rdma.simulated.devices.sim_rxe_0.counters-supported", "false",
				"rdma.simulated.devices.sim_rxe_0.managed-flow-steering", "false"));
		for (RdmaProperties properties : new RdmaProperties[] { deprecated, map }) {
			assertThat(properties.getSimulated().getDevices()).containsOnlyKeys("sim_rxe_0");
			RdmaProperties.SimulatedDevice device = properties.getSimulated().getDevices().get("sim_rxe_0");
			assertThat(device.isCountersSupported()).isFalse();
			assertThat(device.isManagedFlowSteering()).isFalse();
			assertThat(device.getPorts()).isEqualTo(1);
		}
	}

	@Test
	void deprecatedPropertiesStillShapeTheDeviceAndAreNamedInOneWarningWithTheirReplacements(CapturedOutput output) {
		this.runner
			.withPropertyValues("rdma.simulated.device-name=sim_ib_0", "rdma.simulated.ports=2",
					"rdma.simulated.link-layer=infiniband", "rdma.port=2")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ManagedDevice device = context.getBean(ManagedDevice.class);
				assertThat(device.name()).isEqualTo("sim_ib_0");
				assertThat(device.device().queryDevice().physicalPortCount()).isEqualTo(2);
				assertThat(device.device().queryPort(2).linkLayer()).isEqualTo(LinkLayer.INFINIBAND);
				assertThat(context.getBean(RdmaProperties.class).getSimulated().getDevices())
					.containsOnlyKeys("sim_ib_0");
			});
		assertThat(output.getOut().split(WARNING, -1)).as("warnings").hasSize(2);
		assertThat(output).contains("rdma.simulated.device-name by the key sim_ib_0 of rdma.simulated.devices",
				"rdma.simulated.ports by rdma.simulated.devices.sim_ib_0.ports",
				"rdma.simulated.link-layer by rdma.simulated.devices.sim_ib_0.link-layer");
	}

	@Test
	void theMapFormLogsNoDeprecationWarning(CapturedOutput output) {
		this.runner
			.withPropertyValues("rdma.simulated.devices.sim_ib_0.ports=2",
					"rdma.simulated.devices.sim_ib_0.link-layer=infiniband")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).doesNotContain(WARNING).doesNotContain("deprecated");
	}

	@Test
	void deprecatedDeviceBesideTheMapIsOneMoreSimulatedDevice() {
		this.runner
			.withPropertyValues("rdma.simulated.device-name=sim_a", "rdma.simulated.ports=2",
					"rdma.simulated.devices.sim_b.link-layer=infiniband", "rdma.device=sim_a", "rdma.port=2")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				SimulatedBackend backend = context.getBean(SimulatedBackend.class);
				assertThat(backend.devices()).extracting(DeviceId::name).containsExactlyInAnyOrder("sim_a", "sim_b");
				assertThat(context.getBean(ManagedDevice.class).port()).isEqualTo(2);
			});
	}

	@Test
	void deprecatedDeviceNameThatTheMapConfiguresTooFailsStartupNamingBoth() {
		this.runner
			.withPropertyValues("rdma.simulated.device-name=sim_a", "rdma.simulated.ports=2",
					"rdma.simulated.devices.sim_a.link-layer=infiniband")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy("InvalidConfigurationPropertyValueFailureAnalyzer")
				.descriptionContains("'rdma.simulated.devices.sim_a'", "rdma.simulated.device-name",
						"rdma.simulated.ports", "configure sim_a in one place"));
	}

	@Test
	void badValueOfADeprecatedPropertyIsNamedAsWritten() {
		this.runner.withPropertyValues("rdma.simulated.device-name=sim_b", "rdma.simulated.ports=300")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy("InvalidConfigurationPropertyValueFailureAnalyzer")
				.descriptionContains("Invalid value '300' for configuration property 'rdma.simulated.ports'",
						"must be 1 to 255"));
	}

	@Test
	void portBeyondThePortsOfTheOnlySimulatedDeviceIsRefusedNamingItsPortsProperty() {
		this.runner.withPropertyValues("rdma.simulated.devices.sim_b.ports=2", "rdma.port=3")
			.run((context) -> FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy("InvalidConfigurationPropertyValueFailureAnalyzer")
				.descriptionContains("'rdma.port'", "must be 1 to 2", "rdma.simulated.devices.sim_b.ports"));
	}

	private static RdmaProperties bind(Map<String, String> values) {
		return new Binder(new MapConfigurationPropertySource(values))
			.bind(RdmaProperties.PREFIX, Bindable.of(RdmaProperties.class))
			.get();
	}

}
