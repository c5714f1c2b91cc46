package io.github.rdmacounters.diagnosis;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.DeviceIdentity;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.diagnosis.DiagnosisReport.NetlinkReport;
import io.github.rdmacounters.diagnosis.SysfsCollector.SysfsDevice;
import io.github.rdmacounters.diagnosis.Verdicts.FlowFacts;
import io.github.rdmacounters.ethtool.EthtoolStatisticsReader;
import io.github.rdmacounters.ethtool.StatisticsReader;
import io.github.rdmacounters.netlink.RdmaNetlink;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.sysfs.FileSystemSysfsTree;
import io.github.rdmacounters.sysfs.SysfsHostPortCountersSource;
import io.github.rdmacounters.sysfs.SysfsTree;
import io.github.rdmacounters.verbs.NativeBackend;

/**
 * Diagnoses what will count on this host: gathers the kernel, the process's rights, the
 * verbs backend, every device and port in sysfs, optional counters and ethtool
 * statistics, and gives each port a verdict for flow and port counters with the reasons.
 * Without {@link Builder#probe(boolean) probe} it creates nothing on the host (devices
 * are opened, queried and closed); with it, each Ethernet port gets what a counter set
 * needs created and destroyed ({@link FlowProbe}).
 *
 * @since 0.1.0
 */
public final class HostDiagnosis {

	/** How long one sysfs file read may take by default. */
	public static final Duration DEFAULT_FILE_TIMEOUT = Duration.ofSeconds(2);

	private final RdmaBackend backend;

	private final HostPaths paths;

	private final boolean probe;

	private final Duration fileTimeout;

	private final @Nullable Supplier<RdmaNetlink> netlink;

	private final @Nullable Supplier<StatisticsReader> ethtool;

	private final Clock clock;

	private final @Nullable SysfsTree sysfsTree;

	private HostDiagnosis(Builder builder) {
		this.backend = builder.backend;
		this.paths = builder.paths;
		this.probe = builder.probe;
		this.fileTimeout = builder.fileTimeout;
		this.netlink = builder.netlink;
		this.ethtool = builder.ethtool;
		this.clock = builder.clock;
		this.sysfsTree = builder.sysfsTree;
	}

	/**
	 * Start a diagnosis through a backend, of the host's own paths, without probing, with
	 * RDMA netlink and ethtool on the native backend.
	 * @param backend the backend, native or simulated
	 * @return the builder
	 */
	public static Builder builder(RdmaBackend backend) {
		return new Builder(backend);
	}

	/**
	 * Diagnose the host.
	 * @return the report
	 */
	public DiagnosisReport run() {
		return new Run().run();
	}

	/**
	 * One run of the diagnosis. Its methods live here rather than in the enclosing class,
	 * whose method signatures stay small: a context that reflects on the
	 * {@link HostDiagnosis} bean then loads none of the collectors and reports unless the
	 * diagnosis runs.
	 */
	private final class Run {

		DiagnosisReport run() {
			KernelReport kernel = KernelCollector.collect(HostDiagnosis.this.paths);
			ProcessReport process = ProcessCollector.collect(HostDiagnosis.this.paths);
			VerbsReport verbs = VerbsCollector.collect(HostDiagnosis.this.backend, HostDiagnosis.this.paths);
			SysfsTree tree = sysfsTree();
			Map<String, SysfsDevice> sysfs = new LinkedHashMap<>();
			for (SysfsDevice device : SysfsCollector.collect(tree, HostDiagnosis.this.fileTimeout)) {
				sysfs.put(device.snapshot().deviceName(), device);
			}
			Set<String> names = new LinkedHashSet<>(sysfs.keySet());
			names.addAll(verbs.devices());
			Map<String, List<Integer>> devicePorts = new LinkedHashMap<>();
			sysfs.forEach((name, device) -> devicePorts.put(name,
					device.snapshot().ports().stream().filter(PortStatus::isPresent).map(PortStatus::port).toList()));
			OptionalCountersCollector optional = new OptionalCountersCollector(HostDiagnosis.this.netlink);
			if (!devicePorts.isEmpty()) {
				optional.collect(devicePorts, HostDiagnosis.this.fileTimeout);
			}
			EthtoolCollector ethtool = new EthtoolCollector(HostDiagnosis.this.ethtool, HostDiagnosis.this.fileTimeout);
			List<DeviceReport> devices = new ArrayList<>();
			try {
				for (String name : names) {
					devices.add(device(name, sysfs.get(name), kernel, process, verbs, optional, ethtool, tree));
				}
			}
			finally {
				ethtool.close();
			}
			NetlinkReport netlinkReport = devicePorts.isEmpty() ? new NetlinkReport(false, "no device to ask about")
					: optional.report();
			String rootProblem = unlistable(tree);
			List<Finding> findings = HostFindings.of(kernel, process, verbs, netlinkReport, devices, tree.describe(),
					rootProblem);
			return new DiagnosisReport(DiagnosisReport.SCHEMA_VERSION, HostDiagnosis.this.clock.instant().toString(),
					HostDiagnosis.this.probe, HostFindings.summary(verbs, devices, tree.describe(), rootProblem),
					kernel, process, verbs, netlinkReport, devices, findings);
		}

		/**
		 * Why the sysfs root cannot be listed, or {@code null} if it can or does not
		 * exist (no RDMA stack, which the libibverbs findings explain): the port counters
		 * treat an unlistable root as one without devices, the report must not.
		 */
		private static @Nullable String unlistable(SysfsTree tree) {
			try {
				tree.list("");
				return null;
			}
			catch (NoSuchFileException ex) {
				return null;
			}
			catch (AccessDeniedException ex) {
				return "permission denied";
			}
			catch (IOException | RuntimeException ex) {
				return ex.getClass().getSimpleName() + ((ex.getMessage() != null) ? ": " + ex.getMessage() : "");
			}
		}

		private SysfsTree sysfsTree() {
			if (HostDiagnosis.this.sysfsTree != null) {
				return HostDiagnosis.this.sysfsTree;
			}
			HostPortCountersSource source = HostDiagnosis.this.backend.hostPortCounters(
					HostDiagnosis.this.paths.sysfsRoot(), (device) -> true, (counter) -> true, Duration.ZERO);
			return (source instanceof SysfsHostPortCountersSource sysfs) ? sysfs.tree()
					: new FileSystemSysfsTree(HostDiagnosis.this.paths.sysfsRoot());
		}

		private DeviceReport device(String name, @Nullable SysfsDevice sysfs, KernelReport kernel,
				ProcessReport process, VerbsReport verbs, OptionalCountersCollector optional, EthtoolCollector ethtool,
				SysfsTree tree) {
			ContextReport context = VerbsCollector.context(HostDiagnosis.this.backend, name, verbs);
			List<PortReport> ports = new ArrayList<>();
			if (sysfs == null) {
				DeviceReport device = new DeviceReport(name, null, null, null, null, null, List.of(), null, false, null,
						context, List.of(), ports, List.of());
				return withFindings(device, sysfs, tree);
			}
			for (PortStatus status : sysfs.snapshot().ports()) {
				int port = status.port();
				List<String> gidTypes = sysfs.gidTypes().getOrDefault(port, List.of());
				boolean ethernet = "Ethernet".equals(status.linkLayer());
				boolean roce = ethernet && gidTypes.stream().anyMatch((type) -> type.contains("RoCE"));
				CounterFilesReport files = sysfs.counterFiles()
					.getOrDefault(port, new CounterFilesReport(0, List.of(), List.of(), List.of()));
				List<ProbeStep> probeSteps = List.of();
				if (HostDiagnosis.this.probe && status.isPresent()) {
					probeSteps = ethernet ? FlowProbe.probe(HostDiagnosis.this.backend, name, port)
							: List.of(new ProbeStep("ibv_open_device", ProbeStep.SKIPPED, null, null,
									"not probed: flows match Ethernet frames and the port's link layer is "
											+ status.linkLayer()));
				}
				Verdict flow = Verdicts.flow(new FlowFacts(kernel, process, verbs, context, sysfs.driver(),
						status.linkLayer(), status.state(), roce, probeSteps));
				Verdict portCounters = Verdicts.port(true, status.isPresent(), files);
				ports
					.add(new PortReport(port, status.linkLayer(), status.state(), status.physicalState(), status.rate(),
							gidTypes, roce, files, optional.port(name, port), probeSteps, flow, portCounters));
			}
			DeviceIdentity identity = sysfs.snapshot().identity();
			DeviceReport device = new DeviceReport(name, sysfs.nodeType(), sysfs.driver(), sysfs.snapshot().hcaType(),
					sysfs.snapshot().boardId(), sysfs.snapshot().firmwareVersion(), identity.netdevs(),
					identity.pciAddress(), identity.virtualFunction(), identity.physicalFunction(), context,
					ethtool.collect(identity.netdevs()), ports, List.of());
			return withFindings(device, sysfs, tree);
		}

		private static DeviceReport withFindings(DeviceReport device, @Nullable SysfsDevice sysfs, SysfsTree tree) {
			List<Finding> findings = DeviceFindings.of(device, sysfs != null, tree.describe());
			return new DeviceReport(device.name(), device.nodeType(), device.driver(), device.hcaType(),
					device.boardId(), device.firmware(), device.netdevs(), device.pciAddress(),
					device.virtualFunction(), device.physicalFunction(), device.verbs(), device.ethtool(),
					device.ports(), findings);
		}

	}

	/**
	 * Builds a {@link HostDiagnosis}.
	 */
	public static final class Builder {

		private final RdmaBackend backend;

		private HostPaths paths = HostPaths.system();

		private boolean probe;

		private Duration fileTimeout = DEFAULT_FILE_TIMEOUT;

		private @Nullable Supplier<RdmaNetlink> netlink;

		private @Nullable Supplier<StatisticsReader> ethtool;

		private Clock clock = Clock.systemUTC();

		private @Nullable SysfsTree sysfsTree;

		private Builder(RdmaBackend backend) {
			this.backend = backend;
			if (backend instanceof NativeBackend) {
				this.netlink = RdmaNetlink::open;
				this.ethtool = EthtoolStatisticsReader::open;
			}
			else if (backend instanceof SimulatedBackend simulated) {
				this.ethtool = simulated::netdevStatistics;
			}
		}

		/**
		 * Set where the host is read.
		 * @param paths the paths
		 * @return this builder
		 */
		public Builder paths(HostPaths paths) {
			this.paths = paths;
			return this;
		}

		/**
		 * Set whether each Ethernet port gets what a counter set needs created and
		 * destroyed.
		 * @param probe whether to probe
		 * @return this builder
		 */
		public Builder probe(boolean probe) {
			this.probe = probe;
			return this;
		}

		/**
		 * Set how long one sysfs file read may take before it is reported timed out, and
		 * how long RDMA netlink may take to answer about the optional counters of every
		 * port and one netdev's ethtool statistics read may take.
		 * @param timeout the timeout, positive
		 * @return this builder
		 */
		public Builder fileTimeout(Duration timeout) {
			if (timeout.isNegative() || timeout.isZero()) {
				throw new IllegalArgumentException("The sysfs file timeout must be positive, not " + timeout);
			}
			this.fileTimeout = timeout;
			return this;
		}

		/**
		 * Set how RDMA netlink is opened.
		 * @param netlink opens a client, or {@code null} for none
		 * @return this builder
		 */
		public Builder netlink(@Nullable Supplier<RdmaNetlink> netlink) {
			this.netlink = netlink;
			return this;
		}

		/**
		 * Set how ethtool statistics are read.
		 * @param ethtool opens a reader, or {@code null} for none
		 * @return this builder
		 */
		public Builder ethtool(@Nullable Supplier<StatisticsReader> ethtool) {
			this.ethtool = ethtool;
			return this;
		}

		/**
		 * Set the clock that stamps the report.
		 * @param clock the clock
		 * @return this builder
		 */
		public Builder clock(Clock clock) {
			this.clock = clock;
			return this;
		}

		/**
		 * Set the sysfs tree to read instead of the backend's.
		 * @param tree the tree whose root holds one directory per device
		 * @return this builder
		 */
		public Builder sysfsTree(SysfsTree tree) {
			this.sysfsTree = tree;
			return this;
		}

		/**
		 * Build the diagnosis.
		 * @return the diagnosis
		 */
		public HostDiagnosis build() {
			return new HostDiagnosis(this);
		}

	}

}
