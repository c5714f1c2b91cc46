package io.github.rdmacounters.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.verbs.NativeBackend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * The sample's {@code hardware} profile on a host whose RDMA device is a sysfs fixture
 * ({@code rdma.port-counters.sysfs-root}) and whose verbs library cannot be loaded
 * ({@code rdma.native.library} names one that does not exist, so the outcome is the same
 * on every machine, with or without rdma-core). That is what this project's machines can
 * honestly check: the profile's properties bind and pass the checks, the counter sets
 * find their device through {@code sample.netdev} in sysfs without a verbs call, and then
 * opening that device needs verbs, so startup fails naming the device and the sets, or
 * with {@code rdma.fail-on-unavailable=false} starts and reports it DOWN while the port
 * counters, which need no verbs, are served. Counting flows on a real mlx5 device is not
 * tested here (no machine of this project has one).
 */
@ExtendWith(OutputCaptureExtension.class)
class SampleHardwareProfileTests {

	private static final String NO_VERBS = "librdma-counters-no-such-libibverbs.so.1";

	@TempDir
	Path sysfs;

	@Test
	void hardwareProfileFindsTheDeviceOfSampleNetdevInSysfsAndFailsNamingItWhenVerbsCannotBeLoaded(
			CapturedOutput output) throws IOException {
		writeDevice("mlx5_2", "0000:41:00.0", "ens1f0np0");
		writeDevice("mlx5_3", "0000:41:00.1", "ens1f1np1");

		assertThatException().isThrownBy(() -> run("--sample.netdev=ens1f0np0").close());

		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("RDMA device mlx5_2 of rdma.counter-sets.nvme-tcp, rdma.counter-sets.https, "
					+ "rdma.counter-sets.storage")
			.contains(NO_VERBS)
			.contains("rdma.devices.mlx5_2.fail-on-unavailable=false")
			.doesNotContain("mlx5_3 of");
	}

	@Test
	void hardwareProfileWithANetdevNoDeviceHasFailsNamingTheSetPropertyAndTheInterfacesFound(CapturedOutput output)
			throws IOException {
		writeDevice("mlx5_2", "0000:41:00.0", "ens1f0np0");

		assertThatException().isThrownBy(() -> run("--sample.netdev=eth9").close());

		assertThat(output).contains("APPLICATION FAILED TO START")
			.containsPattern("rdma\\.counter-sets\\.(nvme-tcp|https|storage)\\.netdev")
			.contains("No RDMA device of this host has the network interface eth9")
			.contains("mlx5_2=[ens1f0np0]");
	}

	@Test
	void hardwareProfileAllowedToStartWithoutVerbsReportsTheDeviceDownAndServesItsPortCounters() throws IOException {
		writeDevice("mlx5_2", "0000:41:00.0", "ens1f0np0");

		try (ConfigurableApplicationContext context = run("--sample.netdev=ens1f0np0",
				"--rdma.devices.mlx5_2.fail-on-unavailable=false")) {
			assertThat(context.getBean(NativeBackend.class)).isNotNull();
			RdmaRegistry registry = context.getBean(RdmaRegistry.class);
			assertThat(registry.devices()).singleElement().satisfies((device) -> {
				assertThat(device.name()).isEqualTo("mlx5_2");
				assertThat(device.isAvailable()).isFalse();
			});
			assertThat(registry.counterSets()).extracting(CounterSet::name)
				.containsExactlyInAnyOrder("nvme-tcp", "https", "storage");
			Health health = ((HealthIndicator) context
				.getBean("rdmaHealthContributor", CompositeHealthContributor.class)
				.getContributor("mlx5_2")).health();
			assertThat(health.getStatus()).isEqualTo(Status.DOWN);
			assertThat((String) health.getDetails().get("reason")).startsWith("Device unavailable: ")
				.contains(NO_VERBS);
			assertThat(context.getBean(HostPortCountersSource.class).snapshot().device("mlx5_2"))
				.satisfies((device) -> {
					assertThat(device).isNotNull();
					assertThat(device.port(1).state()).isEqualTo("ACTIVE");
					assertThat(device.port(1).counters()).containsEntry("port_rcv_packets", 25L);
				});
		}
	}

	private ConfigurableApplicationContext run(String... args) {
		String[] all = new String[args.length + 2];
		all[0] = "--rdma.port-counters.sysfs-root=" + infiniband();
		all[1] = "--rdma.native.library=" + NO_VERBS;
		System.arraycopy(args, 0, all, 2, args.length);
		return new SpringApplicationBuilder(SampleApplication.class).profiles("hardware")
			.web(WebApplicationType.NONE)
			.run(all);
	}

	private Path infiniband() {
		return this.sysfs.resolve("class/infiniband");
	}

	/**
	 * Write a device as the kernel lays it out: {@code device} links to the PCI
	 * function's directory, whose {@code net} lists the network interface.
	 */
	private void writeDevice(String name, String pciAddress, String netdev) throws IOException {
		Path pci = Files.createDirectories(this.sysfs.resolve("devices/pci0000:40").resolve(pciAddress));
		Files.createDirectories(pci.resolve("net").resolve(netdev));
		Path device = Files.createDirectories(infiniband().resolve(name));
		Files.createSymbolicLink(device.resolve("device"), pci);
		write(device.resolve("fw_ver"), "22.36.1010");
		write(device.resolve("node_guid"), "0c42:a103:0065:0f2c");
		Path port = device.resolve("ports/1");
		write(port.resolve("state"), "4: ACTIVE");
		write(port.resolve("phys_state"), "5: LinkUp");
		write(port.resolve("rate"), "100 Gb/sec (4X EDR)");
		write(port.resolve("link_layer"), "Ethernet");
		write(port.resolve("counters/port_rcv_data"), "1000");
		write(port.resolve("counters/port_rcv_packets"), "25");
	}

	private static void write(Path file, String content) throws IOException {
		Files.createDirectories(file.getParent());
		Files.writeString(file, content + "\n");
	}

}
