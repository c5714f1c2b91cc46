package io.github.rdmacounters.diagnosis;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.sysfs.HostSysfs;
import io.github.rdmacounters.testsupport.FakeVerbs;

/**
 * A scripted host of the fake libibverbs: the devices are the fake's, their sysfs a tree
 * built by {@link HostSysfs} from the fixtures, with the driver links and GID types the
 * kernel adds. Restricted files are links to {@code /proc/self/clear_refs}, whose read
 * fails with a real {@code EINVAL}; a hanging file is a FIFO without a writer.
 *
 * @author rdma-counters
 */
final class FakeLibibverbsHost extends ScriptedHost {

	private final FakeVerbs fake = FakeVerbs.get();

	private final HostSysfs sysfs;

	private final List<String> devices = new ArrayList<>();

	private final List<Path> fifos = new ArrayList<>();

	private int functions;

	FakeLibibverbsHost(Path temp) {
		super(temp);
		this.sysfs = HostSysfs.empty(temp);
	}

	@Override
	void mlx5Roce(String name, String netdev) {
		add("mlx5-roce", "mlx5_1", name, netdev, "mlx5_core");
		gidTypes(name, 1, "IB/RoCE v1", "RoCE v2");
		gidTypes(name, 2, "IB/RoCE v1", "RoCE v2");
		this.fake.device(name).ports(2).portState(2, PortState.DOWN).physicalState(2, 3).add();
		this.devices.add(name);
	}

	@Override
	void mlx5InfiniBand(String name) {
		add("mlx5-infiniband", "mlx5_0", name, "ib" + this.functions, "mlx5_core");
		gidTypes(name, 1, "IB/RoCE v1");
		this.fake.device(name).linkLayer(1, LinkLayer.INFINIBAND).add();
		this.devices.add(name);
	}

	@Override
	void withoutCounters(String name) {
		add("bnxt_re", "bnxt_re0", name, "ens3f" + this.functions + "np0", "bnxt_en");
		gidTypes(name, 1, "IB/RoCE v1", "RoCE v2");
		this.fake.device(name).countersSupported(false).add();
		this.devices.add(name);
	}

	private String add(String fixture, String fixtureDevice, String name, String netdev, String driver) {
		String pci = String.format("0000:%02x:00.0", 0x41 + this.functions);
		this.uverbs.add("uverbs" + this.functions);
		this.functions++;
		this.sysfs.addDevice(fixture, fixtureDevice, name, pci, netdev, null);
		try {
			Path drivers = this.sysfs.sys().resolve("bus/pci/drivers/" + driver);
			Files.createDirectories(drivers);
			Files.createSymbolicLink(this.sysfs.sys().resolve("devices/pci0000:00/" + pci + "/driver"),
					Path.of("../../../bus/pci/drivers/" + driver));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return pci;
	}

	private void gidTypes(String name, int port, String... types) {
		Path directory = this.sysfs.file(name, "ports/" + port + "/gid_attrs/types");
		try {
			Files.createDirectories(directory);
			for (int i = 0; i < types.length; i++) {
				Files.writeString(directory.resolve(Integer.toString(i)), types[i] + "\n");
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	void denyRawPackets() {
		this.fake.failNext("ibv_create_qp", Errno.EPERM);
	}

	@Override
	void restrictCounterFiles(String name, int port, boolean hwCountersOnly) {
		for (String group : hwCountersOnly ? List.of("hw_counters") : List.of("counters", "hw_counters")) {
			Path directory = this.sysfs.file(name, "ports/" + port + "/" + group);
			try (Stream<Path> files = Files.list(directory)) {
				for (Path file : files.toList()) {
					Files.delete(file);
					Files.createSymbolicLink(file, Path.of("/proc/self/clear_refs"));
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
	}

	@Override
	void hangCounterFile(String name, int port, String file) {
		Path fifo = this.sysfs.file(name, "ports/" + port + "/" + file);
		try {
			Files.delete(fifo);
			Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
			if (mkfifo.waitFor() != 0) {
				throw new IllegalStateException("mkfifo failed; install coreutils");
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		this.fifos.add(fifo);
	}

	@Override
	void noRdmaStack() {
		this.fake.noKernelStack(true);
	}

	@Override
	HostDiagnosis.Builder diagnosis() {
		if (this.oldKernel) {
			this.devices.forEach((device) -> this.fake.linuxBefore58(device, true));
		}
		return HostDiagnosis.builder(this.fake.backend())
			.paths(paths(this.sysfs.root(), this.sysfs.sys()))
			.netlink(null)
			.ethtool(null);
	}

	@Override
	boolean knowsDrivers() {
		return true;
	}

	/**
	 * Open each FIFO read-write, which never blocks and lets a reader stuck in open go.
	 */
	@Override
	public void close() {
		for (Path fifo : this.fifos) {
			try (RandomAccessFile unblock = new RandomAccessFile(fifo.toFile(), "rw")) {
				unblock.getFD();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
	}

}
