package io.github.rdmacounters.autoconfigure;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.actuate.endpoint.CompositeHealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.IndicatedHealthDescriptor;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.rdmacounters.autoconfigure.diagnosis.RdmaDiagnosisAutoConfiguration;
import io.github.rdmacounters.autoconfigure.health.RdmaHealthContributorAutoConfiguration;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.testsupport.FakeVerbs;
import io.github.rdmacounters.verbs.NotLibibverbsException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link NotLibibverbsFailureAnalyzer}: {@code rdma.native.library} naming the
 * C library, which loads but is not libibverbs, with a counter set on {@code mlx5_0}.
 * Startup fails with the analysis, or with {@code rdma.fail-on-unavailable=false} starts
 * and reports the device through health; no {@link UnsatisfiedLinkError} escapes, also
 * not from the host diagnosis that runs at startup for a device that cannot count.
 *
 * @author rdma-counters
 */
@ExtendWith(OutputCaptureExtension.class)
class NotLibibverbsFailureAnalyzerTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(HealthContributorAutoConfiguration.class,
				HealthContributorRegistryAutoConfiguration.class, HealthEndpointAutoConfiguration.class,
				RdmaAutoConfiguration.class, RdmaHealthContributorAutoConfiguration.class,
				RdmaDiagnosisAutoConfiguration.class))
		.withPropertyValues("management.endpoint.health.show-details=always", "rdma.native.library=libc.so.6",
				"rdma.counter-sets.storage.device=mlx5_0", "rdma.counter-sets.storage.flow.protocol=tcp");

	@Test
	void libcFailsStartupWithAnAnalysisNamingThePropertyTheValueAndWhatToDo() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().isInstanceOf(NotLibibverbsException.class);
			FailureAnalysisAssert.of(context.getStartupFailure())
				.analyzedBy(NotLibibverbsFailureAnalyzer.class)
				.descriptionContains("rdma.native.library is 'libc.so.6'", "not libibverbs", "no ibv_get_device_list",
						". RDMA device mlx5_0 of rdma.counter-sets.storage could not be started.")
				.actionContains("libibverbs.so.1", "rdma.fail-on-unavailable=false");
		});
	}

	@Test
	void libcAllowedAtStartupStartsAndReportsTheDeviceThroughHealth(CapturedOutput output) {
		this.contextRunner.withPropertyValues("rdma.fail-on-unavailable=false").run((context) -> {
			assertThat(context).hasNotFailed();
			List<ManagedDevice> devices = context.getBean(RdmaRegistry.class).devices();
			assertThat(devices).extracting(ManagedDevice::name).containsExactly("mlx5_0");
			assertThat(devices.get(0).isAvailable()).isFalse();
			assertThat(devices.get(0).unavailabilityCause()).isInstanceOf(NotLibibverbsException.class);
			HealthDescriptor rdma = context.getBean(HealthEndpoint.class).healthForPath("rdma");
			assertThat(rdma).isInstanceOf(CompositeHealthDescriptor.class);
			Map<String, HealthDescriptor> components = ((CompositeHealthDescriptor) rdma).getComponents();
			assertThat(components).containsKey("mlx5_0");
			IndicatedHealthDescriptor device = (IndicatedHealthDescriptor) components.get("mlx5_0");
			assertThat(device.getStatus()).isEqualTo(Status.DOWN);
			assertThat(device.getDetails().toString()).contains("libc.so.6", "not libibverbs");
		});
		assertThat(output).contains("Counter sets [storage] cannot count on mlx5_0", "not libibverbs")
			.doesNotContain("UnsatisfiedLinkError");
	}

	@Test
	void fakeLibibverbsAsTheLibraryIsNoWrongLibrary() {
		FakeVerbs fake = FakeVerbs.get();
		fake.reset();
		this.contextRunner.withPropertyValues("rdma.native.library=" + fake.libraryPath()).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().isNotInstanceOf(NotLibibverbsException.class);
			FailureAnalysisAssert.of(context.getStartupFailure()).analyzedBy(DeviceNotFoundFailureAnalyzer.class);
		});
		fake.reset();
	}

}
