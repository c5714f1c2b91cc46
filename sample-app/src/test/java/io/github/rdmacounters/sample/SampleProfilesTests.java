package io.github.rdmacounters.sample;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.sysfs.HostSysfs;
import io.github.rdmacounters.testsupport.FakeVerbs;
import io.github.rdmacounters.verbs.NativeBackend;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each profile of the sample starts on the host it is meant for: the default one
 * ({@code application.yml}) on its simulated host, {@code hardware} on a host whose
 * device is named as on real hardware ({@code mlx5_0}, here the fake libibverbs with the
 * sysfs of a ConnectX-6 Dx), with none of the simulated host's settings; the faults (link
 * flap, congestion) only with the {@code faults} profile.
 */
@ExtendWith(OutputCaptureExtension.class)
class SampleProfilesTests {

	private static final String NO_EFFECT = "has no effect";

	/** A warning logged by the starter, whose loggers Boot abbreviates to i.g.r. */
	private static final String STARTER_WARNING = "WARN [^\\n]*i\\.g\\.r\\.";

	private final FakeVerbs fake = FakeVerbs.get();

	@TempDir
	Path temp;

	@AfterEach
	void resetFake() {
		this.fake.reset();
	}

	@Test
	void defaultProfileStartsOnItsSimulatedHostWithEveryCounterSet(CapturedOutput output) {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleApplication.class)
			.web(WebApplicationType.NONE)
			.run()) {
			assertThat(context.getBean(RdmaBackend.class)).isInstanceOf(SimulatedBackend.class);
			assertThat(context.getBeanProvider(SimulatedLinkFlapper.class).getIfAvailable()).isNull();
			assertThat(context.getBeanProvider(SimulatedCongestion.class).getIfAvailable()).isNull();
			RdmaRegistry registry = context.getBean(RdmaRegistry.class);
			assertThat(registry.counterSets()).extracting(CounterSet::name)
				.containsExactlyInAnyOrder("nvme-tcp", "https", "storage");
			assertThat(registry.counterSet("storage").deviceName()).isEqualTo("sim_mlx5_1");
			assertThat(registry.counterSet("storage").port()).isEqualTo(2);
			assertThat(registry.counterSet("https").deviceName()).isEqualTo("sim_mlx5_0");
		}
		assertThat(output).doesNotContain(NO_EFFECT).doesNotContainPattern(STARTER_WARNING);
	}

	@Test
	void faultsProfileAddsTheLinkFlapAndTheCongestion(CapturedOutput output) {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleApplication.class)
			.profiles("faults")
			.web(WebApplicationType.NONE)
			.run()) {
			assertThat(context.getBean(RdmaBackend.class)).isInstanceOf(SimulatedBackend.class);
			assertThat(context.getBeanProvider(SimulatedLinkFlapper.class).getIfAvailable()).isNotNull();
			assertThat(context.getBeanProvider(SimulatedCongestion.class).getIfAvailable()).isNotNull();
			assertThat(context.getEnvironment().getProperty("sample.link-flap.interval-ms")).isEqualTo("60000");
		}
		assertThat(output).doesNotContain(NO_EFFECT).doesNotContainPattern(STARTER_WARNING);
	}

	@Test
	void hardwareProfileStartsOnAHostWithMlx50AndHasNoSimulatedSettings(CapturedOutput output) {
		this.fake.device("mlx5_0").add();
		HostSysfs host = HostSysfs.empty(this.temp)
			.addDevice("mlx5-roce", "mlx5_1", "mlx5_0", "0000:41:00.0", "ens1f0np0", null);
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleApplication.class)
			.profiles("hardware")
			.web(WebApplicationType.NONE)
			.run("--rdma.native.library=" + this.fake.libraryPath(), "--rdma.port-counters.sysfs-root=" + host.root(),
					"--sample.netdev=ens1f0np0")) {
			assertThat(context.getBean(RdmaBackend.class)).isInstanceOf(NativeBackend.class);
			RdmaRegistry registry = context.getBean(RdmaRegistry.class);
			assertThat(registry.devices()).extracting(ManagedDevice::name).containsExactly("mlx5_0");
			assertThat(registry.counterSets()).extracting(CounterSet::name)
				.containsExactlyInAnyOrder("nvme-tcp", "https", "storage");
			assertThat(registry.counterSets()).allSatisfy((set) -> {
				assertThat(set.deviceName()).isEqualTo("mlx5_0");
				assertThat(set.port()).isEqualTo(1);
			});
			assertThat(context.getEnvironment().getProperty("rdma.simulated.devices.sim_mlx5_0.ports")).isNull();
			assertThat(context.getBeanProvider(SimulatedLinkFlapper.class).getIfAvailable()).isNull();
		}
		assertThat(output).doesNotContain("sim_").doesNotContain(NO_EFFECT).doesNotContainPattern(STARTER_WARNING);
	}

}
