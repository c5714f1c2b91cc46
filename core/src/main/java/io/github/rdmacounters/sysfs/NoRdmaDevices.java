package io.github.rdmacounters.sysfs;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jspecify.annotations.Nullable;

/**
 * Why a host shows no RDMA device under its sysfs root, and what to do next: the one line
 * of the startup log and of the rdma endpoint on such a host. The root is listed, never a
 * file read.
 *
 * @since 0.1.0
 */
public final class NoRdmaDevices {

	/** What to do next on a host without an RDMA device. */
	public static final String NEXT_STEPS = "Next: load the RDMA modules (modprobe ib_uverbs and the NIC's driver, "
			+ "e.g. mlx5_ib); in a container, pass --device /dev/infiniband; without RDMA hardware, set "
			+ "rdma.backend=simulated; the host diagnosis says more: the rdmadiagnosis endpoint (add it to "
			+ "management.endpoints.web.exposure.include) or java -jar rdma-counters-diagnosis.jar --probe";

	private NoRdmaDevices() {
	}

	/**
	 * Say why the root holds no device.
	 * @param root the directory holding one directory per RDMA device, usually
	 * {@code /sys/class/infiniband}
	 * @return why it holds none, or {@code null} if it holds a device
	 */
	public static @Nullable String reason(Path root) {
		// ib_core registers the infiniband class at load (class_register(&ib_class) in
		// ib_core_init, drivers/infiniband/core/device.c); a driver's ib_register_device
		// adds
		// a device to it
		if (!Files.exists(root)) {
			return root + " does not exist: the kernel's RDMA stack (ib_core) is not loaded";
		}
		if (!Files.isDirectory(root)) {
			return root + " is not a directory";
		}
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
			if (entries.iterator().hasNext()) {
				return null;
			}
		}
		catch (IOException | RuntimeException ex) {
			return root + " cannot be listed (" + ex.getMessage() + ")";
		}
		// ib_uverbs_init registers infiniband_verbs with its abi_version (uverbs_main.c)
		String stack = Files.isDirectory(root.resolveSibling("infiniband_verbs")) ? "ib_core, ib_uverbs" : "ib_core";
		return root + " exists but holds no device: the RDMA stack (" + stack + ") is loaded, but no NIC driver "
				+ "has registered an RDMA device";
	}

	/**
	 * Return the line for a host whose root holds no device: the reason and the next
	 * steps.
	 * @param root the directory holding one directory per RDMA device
	 * @return the line, or {@code null} if the root holds a device
	 */
	public static @Nullable String line(Path root) {
		String reason = reason(root);
		return (reason != null) ? "No RDMA devices on this host: " + reason + ". " + NEXT_STEPS + "." : null;
	}

}
