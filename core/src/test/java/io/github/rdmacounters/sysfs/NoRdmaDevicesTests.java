package io.github.rdmacounters.sysfs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link NoRdmaDevices}: each way a host shows no device gets its own reason
 * and the same next steps.
 */
class NoRdmaDevicesTests {

	@TempDir
	Path temp;

	@Test
	void missingRootSaysTheStackIsNotLoaded() {
		Path root = this.temp.resolve("sys/class/infiniband");
		assertThat(NoRdmaDevices.line(root))
			.startsWith("No RDMA devices on this host: " + root
					+ " does not exist: the kernel's RDMA stack (ib_core) is not loaded. Next: load the RDMA modules")
			.contains("--device /dev/infiniband", "rdma.backend=simulated", "rdmadiagnosis",
					"management.endpoints.web.exposure.include");
	}

	@Test
	void emptyRootWithUverbsLoadedSaysItHoldsNoDevice() throws IOException {
		// a GPU host as probed: ib_core and ib_uverbs loaded, rdma_cm there, no RDMA
		// device
		Path classes = this.temp.resolve("sys/class");
		Path root = Files.createDirectories(classes.resolve("infiniband"));
		Files.createDirectories(classes.resolve("infiniband_verbs"));
		Files.writeString(classes.resolve("infiniband_verbs/abi_version"), "6\n");
		assertThat(NoRdmaDevices.reason(root)).isEqualTo(root + " exists but holds no device: the RDMA stack "
				+ "(ib_core, ib_uverbs) is loaded, but no NIC driver has registered an RDMA device");
		assertThat(NoRdmaDevices.line(root)).doesNotContain("does not exist").contains(NoRdmaDevices.NEXT_STEPS);
	}

	@Test
	void emptyRootWithoutUverbsNamesOnlyIbCore() throws IOException {
		Path root = Files.createDirectories(this.temp.resolve("sys/class/infiniband"));
		assertThat(NoRdmaDevices.reason(root)).contains("exists but holds no device: the RDMA stack (ib_core) is");
	}

	@Test
	void rootThatIsAFileIsNotADirectory() throws IOException {
		Path root = Files.writeString(this.temp.resolve("infiniband"), "");
		assertThat(NoRdmaDevices.reason(root)).isEqualTo(root + " is not a directory");
	}

	@Test
	void rootWithADeviceHasNoReason() throws IOException {
		Path root = HostSysfs.fourKinds(this.temp).root();
		assertThat(NoRdmaDevices.reason(root)).isNull();
		assertThat(NoRdmaDevices.line(root)).isNull();
	}

}
