package io.github.rdmacounters.diagnosis;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.diagnosis.DiagnosisReport.NetlinkReport;
import io.github.rdmacounters.verbs.NativeBackend;

/**
 * The findings about the host as a whole, and the summary line.
 */
final class HostFindings {

	static final String INSTALL_LIBRARY = "Install rdma-core's libibverbs (Debian/Ubuntu: apt install libibverbs1 "
			+ "ibverbs-providers; RHEL/Fedora/SUSE: install rdma-core and libibverbs)";

	static final String LOAD_MODULES = "Load the RDMA kernel modules: ib_uverbs and the NIC's driver (modprobe "
			+ "mlx5_ib for NVIDIA/Mellanox ConnectX; on Ubuntu they ship in linux-modules-extra-$(uname -r)); "
			+ "rdma-core's udev rules load them at boot. In a container, run on a host that has them and pass "
			+ "--device /dev/infiniband. Without RDMA hardware, use the simulated backend (rdma.backend=simulated)";

	private HostFindings() {
	}

	static List<Finding> of(KernelReport kernel, ProcessReport process, VerbsReport verbs, NetlinkReport netlink,
			List<DeviceReport> devices, String sysfsRoot, @Nullable String sysfsRootProblem) {
		List<Finding> findings = new ArrayList<>();
		if (sysfsRootProblem != null) {
			findings.add(Finding.problem("host", "Cannot list " + sysfsRoot + ": " + sysfsRootProblem,
					"No device's port counters or sysfs attributes can be read: the report lacks them",
					unlistableAction(sysfsRoot)));
		}
		if (!verbs.loaded()) {
			findings.add(Finding.problem("host", "libibverbs cannot be loaded: " + verbs.error(),
					"No verbs device can be opened: no flow counters (port counters from sysfs still work)",
					libraryAction(verbs)));
		}
		else if (!verbs.kernelStack()) {
			findings.add(Finding.problem("host", String.valueOf(verbs.error()),
					"There is no RDMA device: neither flow nor port counters", LOAD_MODULES));
		}
		else if (verbs.error() != null) {
			findings.add(Finding.problem("host", "Listing RDMA devices failed: " + verbs.error(),
					"No verbs device can be opened: no flow counters", "Report it with the --json --probe output"));
		}
		if (devices.isEmpty() && verbs.kernelStack()) {
			findings.add(Finding.problem("host", "No RDMA device in " + sysfsRoot + " or from libibverbs",
					"There is nothing to count", LOAD_MODULES));
		}
		findings.addAll(KernelCollector.findings(kernel));
		findings.addAll(ProcessCollector.findings(process, "native".equals(verbs.backend())));
		if (!netlink.available() && !devices.isEmpty()) {
			findings.add(Finding.info("host", "RDMA netlink is not available: " + netlink.error(),
					"Optional counters cannot be listed or enabled",
					"Nothing, unless you want optional counters: they need RDMA netlink (Linux 5.16)"));
		}
		return findings;
	}

	/**
	 * What to do when libibverbs cannot be loaded: install it, and first check a library
	 * named other than the default (--library, rdma.native.library), which may be a wrong
	 * path or another library.
	 */
	private static String libraryAction(VerbsReport verbs) {
		if (NativeBackend.DEFAULT_LIBRARY.equals(verbs.library())) {
			return INSTALL_LIBRARY;
		}
		return "Check the library named (" + verbs.library() + "): it must be rdma-core's libibverbs, such as "
				+ NativeBackend.DEFAULT_LIBRARY + " or its full path; name none to load "
				+ NativeBackend.DEFAULT_LIBRARY + ". " + INSTALL_LIBRARY;
	}

	static String summary(VerbsReport verbs, List<DeviceReport> devices, String sysfsRoot,
			@Nullable String sysfsRootProblem) {
		if (devices.isEmpty() && sysfsRootProblem != null) {
			return "Cannot list " + sysfsRoot + " (" + sysfsRootProblem + "), so this report shows no device. "
					+ unlistableAction(sysfsRoot) + ".";
		}
		if (devices.isEmpty()) {
			if (!verbs.loaded()) {
				return "No RDMA: libibverbs cannot be loaded and " + sysfsRoot + " shows no RDMA device. "
						+ libraryAction(verbs) + ". " + LOAD_MODULES + ".";
			}
			if (!verbs.kernelStack()) {
				return "No RDMA stack: the kernel has no RDMA stack, so nothing can count. " + LOAD_MODULES + ".";
			}
			return "No RDMA device: the RDMA stack is loaded but no device is present. " + LOAD_MODULES + ".";
		}
		int ports = 0;
		List<String> flow = new ArrayList<>();
		List<String> port = new ArrayList<>();
		for (DeviceReport device : devices) {
			for (PortReport report : device.ports()) {
				ports++;
				String name = device.name() + "/" + report.port();
				if (report.flowCounters().answersYes()) {
					flow.add(name);
				}
				if (report.portCounters().answersYes()) {
					port.add(name);
				}
			}
		}
		return devices.size() + ((devices.size() == 1) ? " device, " : " devices, ") + ports
				+ ((ports == 1) ? " port" : " ports") + ": flow counters on " + list(flow) + ", port counters on "
				+ list(port);
	}

	private static String unlistableAction(String sysfsRoot) {
		return "Run the diagnosis as a user that can list " + sysfsRoot + " (sysfs is world-readable unless a "
				+ "security module or a container's mount restricts it)";
	}

	private static String list(List<String> ports) {
		return ports.isEmpty() ? "none" : ports.size() + " (" + String.join(", ", ports) + ")";
	}

}
