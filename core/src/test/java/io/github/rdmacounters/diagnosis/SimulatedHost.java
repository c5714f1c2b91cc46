package io.github.rdmacounters.diagnosis;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.DeviceId;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.PortCountersSource;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.RdmaUnavailableException;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedBackendControl;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;
import io.github.rdmacounters.sysfs.SysfsTree;

/**
 * A scripted host of the simulated backend: the devices are simulated ones and their
 * sysfs the simulator's tree, through a wrapper that answers {@code EINVAL} for
 * restricted files and hangs on a latch for hanging ones, as the file system tree would.
 *
 * @author rdma-counters
 */
final class SimulatedHost extends ScriptedHost {

	private final List<SimulatedDeviceSpec.Builder> devices = new ArrayList<>();

	private final Set<String> restricted = new HashSet<>();

	private final Set<String> hanging = new HashSet<>();

	private final CountDownLatch release = new CountDownLatch(1);

	private boolean denyRawPackets;

	private boolean noStack;

	SimulatedHost(Path temp) {
		super(temp);
	}

	@Override
	void mlx5Roce(String name, String netdev) {
		this.devices.add(SimulatedDeviceSpec.builder()
			.name(name)
			.portCount(2)
			.portState(2, PortState.DOWN)
			.netdevs(List.of(netdev)));
	}

	@Override
	void mlx5InfiniBand(String name) {
		this.devices.add(SimulatedDeviceSpec.builder().name(name).linkLayer(LinkLayer.INFINIBAND));
	}

	@Override
	void withoutCounters(String name) {
		this.devices.add(SimulatedDeviceSpec.builder().name(name).countersSupported(false));
	}

	@Override
	void denyRawPackets() {
		this.denyRawPackets = true;
	}

	@Override
	void restrictCounterFiles(String name, int port, boolean hwCountersOnly) {
		this.restricted.add(name + "/ports/" + port + "/" + (hwCountersOnly ? "hw_counters/" : ""));
	}

	@Override
	void hangCounterFile(String name, int port, String file) {
		this.hanging.add(name + "/ports/" + port + "/" + file);
	}

	@Override
	void noRdmaStack() {
		this.noStack = true;
	}

	@Override
	HostDiagnosis.Builder diagnosis() {
		SimulatedBackend simulated = new SimulatedBackend(
				this.devices.stream().map((builder) -> builder.linuxBefore58(this.oldKernel).build()).toList());
		if (this.denyRawPackets) {
			// the simulator has no queue pair of its own: the flow is where it is refused
			SimulatedBackendControl.of(simulated).failNext("ibv_create_flow", Errno.EPERM);
		}
		SysfsTree tree = new FaultyTree(simulated.sysfsTree());
		RdmaBackend backend = this.noStack ? new NoStackBackend(simulated, tree) : simulated;
		return HostDiagnosis.builder(backend)
			.paths(paths(this.temp.resolve("unused-sysfs"), this.temp.resolve("sys")))
			.sysfsTree(tree);
	}

	@Override
	boolean knowsDrivers() {
		return false;
	}

	@Override
	public void close() {
		this.release.countDown();
	}

	/** The simulated tree with restricted and hanging files. */
	private final class FaultyTree implements SysfsTree {

		private final SysfsTree tree;

		FaultyTree(SysfsTree tree) {
			this.tree = tree;
		}

		@Override
		public List<String> list(String path) throws IOException {
			return this.tree.list(path);
		}

		@Override
		public String read(String path) throws IOException {
			fault(path);
			return this.tree.read(path);
		}

		@Override
		public @Nullable Long readCounter(String path) throws IOException {
			fault(path);
			return this.tree.readCounter(path);
		}

		private void fault(String path) throws IOException {
			if (SimulatedHost.this.hanging.contains(path)) {
				try {
					SimulatedHost.this.release.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				throw new IOException(path + ": Interrupted system call");
			}
			boolean counterFile = path.contains("/counters/") || path.contains("/hw_counters/");
			if (counterFile && SimulatedHost.this.restricted.stream().anyMatch(path::startsWith)) {
				// what FileChannel reports for a read(2) failing with EINVAL
				throw new IOException(Errno.message(Errno.EINVAL));
			}
		}

		@Override
		public @Nullable String resolvedName(String path) {
			return this.tree.resolvedName(path);
		}

		@Override
		public String describe() {
			return this.tree.describe();
		}

	}

	/** A host whose libibverbs finds no kernel RDMA stack, as ENOSYS tells it. */
	private static final class NoStackBackend implements RdmaBackend {

		private final SimulatedBackend sysfs;

		private final SysfsTree tree;

		NoStackBackend(SimulatedBackend sysfs, SysfsTree tree) {
			this.sysfs = sysfs;
			this.tree = tree;
		}

		@Override
		public String name() {
			return SimulatedBackend.NAME;
		}

		@Override
		public List<DeviceId> devices() {
			throw new RdmaUnavailableException(RdmaUnavailableException.Reason.NO_KERNEL_STACK,
					"ibv_get_device_list failed: ENOSYS (38) Function not implemented", null);
		}

		@Override
		public RdmaDevice open(String deviceName) {
			return this.sysfs.open(devices().get(0).name());
		}

		@Override
		public PortCountersSource portCounters(String deviceName, Path sysfsRoot, Duration readCacheTtl) {
			return this.sysfs.portCounters(deviceName, readCacheTtl);
		}

		@Override
		public HostPortCountersSource hostPortCounters(Path sysfsRoot, Predicate<String> deviceFilter,
				Predicate<String> counterFilter, Duration readCacheTtl) {
			return this.sysfs.hostPortCounters(sysfsRoot, deviceFilter, counterFilter, readCacheTtl);
		}

		@Override
		public String toString() {
			return "no RDMA stack over " + this.tree.describe();
		}

	}

}
