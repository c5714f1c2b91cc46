package io.github.rdmacounters.sysfs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * A host's sysfs built in a temporary directory from the fixture trees, in the shapes the
 * kernel gives it: {@code devices/pci0000:00/<pci>/} is a PCI function with
 * {@code net/<ifname>/} and, for a virtual function, a {@code physfn} link to its
 * physical function; the RDMA device directory is
 * {@code devices/pci0000:00/<pci>/infiniband/<dev>/} with a {@code device} link back to
 * the function, and {@code class/infiniband/<dev>} is a link to it. The links are made at
 * run time, so nothing but plain fixture files is committed.
 * <p>
 * {@link #fourKinds(Path)} is the host the tests use: {@code mlx5_0} (ConnectX-6,
 * InfiniBand, {@code ib0}), {@code mlx5_1} (ConnectX-6 Dx RoCE with {@code hw_counters/},
 * two ports, {@code ens1f0np0}), {@code mlx5_2} (an SR-IOV virtual function of
 * {@code mlx5_1}, {@code ens1f0v0}), {@code irdma0} (Intel E810 iWARP, {@code ens2f0})
 * and {@code bnxt_re0} (Broadcom, no {@code counters/}, {@code ens3f0np0}).
 */
public final class HostSysfs {

	private final Path sys;

	private HostSysfs(Path sys) {
		this.sys = sys;
	}

	/**
	 * Start an empty host.
	 * @param temp the directory to build it in
	 * @return the host, with an empty {@code class/infiniband}
	 */
	public static HostSysfs empty(Path temp) {
		HostSysfs host = new HostSysfs(temp.resolve("sys"));
		createDirectories(host.root());
		return host;
	}

	/**
	 * Build the host of four kinds of devices and a virtual function.
	 * @param temp the directory to build it in
	 * @return the host
	 */
	public static HostSysfs fourKinds(Path temp) {
		HostSysfs host = empty(temp);
		host.addDevice("mlx5-infiniband", "mlx5_0", "mlx5_0", "0000:08:00.0", "ib0", null);
		host.addDevice("mlx5-roce", "mlx5_1", "mlx5_1", "0000:41:00.0", "ens1f0np0", null);
		host.addDevice("mlx5-roce", "mlx5_1", "mlx5_2", "0000:41:00.2", "ens1f0v0", "0000:41:00.0");
		host.deletePort("mlx5_2", 2);
		host.addDevice("irdma-iwarp", "irdma0", "irdma0", "0000:5e:00.0", "ens2f0", null);
		host.addDevice("bnxt_re", "bnxt_re0", "bnxt_re0", "0000:3b:00.0", "ens3f0np0", null);
		return host;
	}

	/**
	 * Return the {@code /sys} equivalent, as node_exporter's {@code --path.sysfs} takes
	 * it.
	 * @return the directory holding {@code class} and {@code devices}
	 */
	public Path sys() {
		return this.sys;
	}

	/**
	 * Return the {@code /sys/class/infiniband} equivalent.
	 * @return the root the sources read
	 */
	public Path root() {
		return this.sys.resolve("class/infiniband");
	}

	/**
	 * Add a device: its PCI function with one network interface, its directory copied
	 * from a fixture, and the links.
	 * @param fixture the fixture tree, e.g. {@code mlx5-roce}
	 * @param fixtureDevice the device directory in the fixture, e.g. {@code mlx5_1}
	 * @param name the device name on this host
	 * @param pciAddress the PCI address of its function
	 * @param netdev the network interface of the function
	 * @param physicalFunction the PCI address of the physical function if this is a
	 * virtual function, else {@code null}
	 * @return this host
	 */
	public HostSysfs addDevice(String fixture, String fixtureDevice, String name, String pciAddress, String netdev,
			@Nullable String physicalFunction) {
		Path function = this.sys.resolve("devices/pci0000:00/" + pciAddress);
		createDirectories(function.resolve("net/" + netdev));
		Path device = function.resolve("infiniband/" + name);
		Path copy = SysfsFixtures.copy(fixture, function.resolve("infiniband/.fixture-" + name));
		try {
			Files.move(copy.resolve(fixtureDevice), device);
			delete(copy);
			Files.createSymbolicLink(device.resolve("device"), Paths.get("../../../" + pciAddress));
			if (physicalFunction != null) {
				Files.createSymbolicLink(function.resolve("physfn"), Paths.get("../" + physicalFunction));
			}
			Files.createSymbolicLink(root().resolve(name),
					Paths.get("../../devices/pci0000:00/" + pciAddress + "/infiniband/" + name));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return this;
	}

	/**
	 * Remove a device the way a hot unplug or driver unload does: its directory and its
	 * link in {@code class/infiniband}; the PCI function stays.
	 * @param name the device name
	 */
	public void removeDevice(String name) {
		Path device = deviceDirectory(name);
		delete(root().resolve(name));
		delete(device);
	}

	/**
	 * Return the real directory of a device.
	 * @param name the device name
	 * @return the directory the {@code class/infiniband} link resolves to
	 */
	public Path deviceDirectory(String name) {
		try {
			return root().resolve(name).toRealPath();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Delete a port directory of a device.
	 * @param name the device name
	 * @param port the port number
	 */
	public void deletePort(String name, int port) {
		delete(deviceDirectory(name).resolve("ports/" + port));
	}

	/**
	 * Return a file of a device.
	 * @param name the device name
	 * @param relative the path in the device directory, e.g.
	 * {@code ports/1/hw_counters/out_of_buffer}
	 * @return the file
	 */
	public Path file(String name, String relative) {
		return deviceDirectory(name).resolve(relative);
	}

	static void delete(Path path) {
		if (Files.isSymbolicLink(path)) {
			try {
				Files.delete(path);
				return;
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		if (!Files.exists(path)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(path)) {
			paths.sorted(Comparator.reverseOrder()).forEach((entry) -> {
				try {
					Files.delete(entry);
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			});
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void createDirectories(Path directory) {
		try {
			Files.createDirectories(directory);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
