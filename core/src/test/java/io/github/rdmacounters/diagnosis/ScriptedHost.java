package io.github.rdmacounters.diagnosis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A host a diagnosis test scripts, the same for every backend: the kernel release, the
 * process's capabilities and {@code /dev/infiniband} are files in a temporary
 * {@code /proc} and {@code /dev}; the devices are the backend's, with their sysfs.
 *
 * @author rdma-counters
 */
abstract class ScriptedHost implements AutoCloseable {

	/** Every capability up to CAP_CHECKPOINT_RESTORE (40), as root has them. */
	static final String ALL_CAPABILITIES = "000001ffffffffff";

	/** The capabilities of root without CAP_NET_RAW (13). */
	static final String WITHOUT_NET_RAW = "000001ffffffdfff";

	static final String OLD_KERNEL = "5.4.0-150-generic";

	protected final Path temp;

	private String release = "6.8.0-45-generic";

	private String capEff = ALL_CAPABILITIES;

	protected boolean oldKernel;

	protected final List<String> uverbs = new ArrayList<>();

	ScriptedHost(Path temp) {
		this.temp = temp;
	}

	/**
	 * Run Linux before 5.8: the release says so and the device refuses don't-trap
	 * counting.
	 */
	void oldKernel() {
		this.release = OLD_KERNEL;
		this.oldKernel = true;
	}

	void capabilities(String capEff) {
		this.capEff = capEff;
	}

	/** An mlx5 device on Ethernet with RoCE enabled: port 1 ACTIVE, port 2 DOWN. */
	abstract void mlx5Roce(String name, String netdev);

	/** An mlx5 device on InfiniBand, one ACTIVE port. */
	abstract void mlx5InfiniBand(String name);

	/**
	 * A RoCE device whose provider has no flow counters (Broadcom's), one ACTIVE port.
	 */
	abstract void withoutCounters(String name);

	/** Make the kernel refuse what raw packets need, as without CAP_NET_RAW. */
	abstract void denyRawPackets();

	/** Make every counter file of a port (or of its hw_counters only) answer EINVAL. */
	abstract void restrictCounterFiles(String name, int port, boolean hwCountersOnly);

	/** Make a counter file's read hang until the host is closed. */
	abstract void hangCounterFile(String name, int port, String file);

	/** Leave the kernel without an RDMA stack. */
	abstract void noRdmaStack();

	/** Return a diagnosis of this host, without probing. */
	abstract HostDiagnosis.Builder diagnosis();

	/** Whether the backend's driver names say which provider a device has. */
	abstract boolean knowsDrivers();

	HostPaths paths(Path sysfsRoot, Path sys) {
		Path proc = this.temp.resolve("proc");
		Path dev = this.temp.resolve("dev");
		try {
			Files.createDirectories(proc.resolve("sys/kernel"));
			Files.createDirectories(proc.resolve("self/ns"));
			Files.writeString(proc.resolve("sys/kernel/osrelease"), this.release + "\n");
			Files.writeString(proc.resolve("self/status"), "Name:\tjava\nCapInh:\t0000000000000000\nCapPrm:\t"
					+ this.capEff + "\nCapEff:\t" + this.capEff + "\nCapBnd:\t" + ALL_CAPABILITIES + "\n");
			Path netns = proc.resolve("self/ns/net");
			if (!Files.isSymbolicLink(netns)) {
				Files.createSymbolicLink(netns, Path.of("net:[4026531840]"));
			}
			Files.createDirectories(dev.resolve("infiniband"));
			for (String file : this.uverbs) {
				if (!Files.exists(dev.resolve("infiniband").resolve(file))) {
					Files.createFile(dev.resolve("infiniband").resolve(file));
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return new HostPaths(sysfsRoot, sys, proc, dev);
	}

	@Override
	public void close() {
	}

}
