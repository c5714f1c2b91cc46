package io.github.rdmacounters.autoconfigure.diagnosis;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.rdmacounters.actuate.endpoint.RdmaDiagnosisEndpoint;
import io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration;
import io.github.rdmacounters.diagnosis.DiagnosisReport;
import io.github.rdmacounters.diagnosis.HostDiagnosis;
import io.github.rdmacounters.diagnosis.ReportJson;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RdmaDiagnosisAutoConfiguration}.
 */
@ExtendWith(OutputCaptureExtension.class)
class RdmaDiagnosisAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class, RdmaDiagnosisAutoConfiguration.class))
		.withPropertyValues("rdma.backend=simulated", "rdma.simulated.devices.mlx5_0.ports=2");

	@Test
	void runWhenExposedShouldServeTheReportTheCommandPrints() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=rdmadiagnosis")
			.run((context) -> {
				assertThat(context).hasSingleBean(RdmaDiagnosisEndpoint.class);
				DiagnosisReport report = context.getBean(RdmaDiagnosisEndpoint.class).diagnosis();
				assertThat(report.probed()).isFalse();
				assertThat(report.device("mlx5_0").ports()).hasSize(2);
				assertThat(report.device("mlx5_0").port(1).portCounters().text()).isEqualTo("port counters: yes");
				// what Jackson makes of the records is what the command prints
				JsonMapper mapper = JsonMapper.builder().build();
				ObjectNode served = (ObjectNode) mapper.valueToTree(report);
				ObjectNode printed = (ObjectNode) mapper.readTree(ReportJson.write(report));
				assertThat(served.get("schemaVersion").asInt()).isEqualTo(1);
				assertThat(served).isEqualTo(printed);
				JsonNode port = served.get("devices").get(0).get("ports").get(0);
				assertThat(port.get("flowCounters").get("answer").asString()).isEqualTo("yes");
			});
	}

	@Test
	void runWhenNotExposedShouldNotCreateEndpoint() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(HostDiagnosis.class);
			assertThat(context).doesNotHaveBean(RdmaDiagnosisEndpoint.class);
		});
	}

	@Test
	void diagnosisIsBuiltOnlyWhenSomethingUsesIt() {
		this.contextRunner.run((context) -> assertThat(diagnosisBuilt(context)).isFalse());
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=rdmadiagnosis")
			.run((context) -> assertThat(diagnosisBuilt(context)).isTrue());
	}

	@Test
	void runWithoutBackendShouldNotDiagnose() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RdmaDiagnosisAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(HostDiagnosis.class));
	}

	@Test
	void deviceThatCannotCountIsExplainedAtStartup(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("rdma.simulated.devices.mlx5_1.counters-supported=false",
					"rdma.devices.mlx5_1.fail-on-unavailable=false", "rdma.counter-sets.nvme.device=mlx5_1",
					"rdma.counter-sets.nvme.flow.protocol=tcp", "rdma.counter-sets.nvme.flow.destination-port=4420")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(diagnosisBuilt(context)).isTrue();
				assertThat(output).contains("Counter sets [nvme] cannot count on mlx5_1 (")
					.contains("Host diagnosis: port 1 flow counters: ")
					.contains(", port counters: yes")
					.contains("java -jar rdma-counters-diagnosis.jar --probe")
					.contains("add rdmadiagnosis to management.endpoints.web.exposure.include");
			});
	}

	@Test
	void devicesThatCountLogNoDiagnosis(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("rdma.counter-sets.nvme.device=mlx5_0", "rdma.counter-sets.nvme.flow.protocol=tcp",
					"rdma.counter-sets.nvme.flow.destination-port=4420")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(diagnosisBuilt(context)).isFalse();
				assertThat(output).doesNotContain("cannot count on");
			});
	}

	private static boolean diagnosisBuilt(ConfigurableApplicationContext context) {
		return context.getBeanFactory().containsSingleton("rdmaHostDiagnosis");
	}

}
