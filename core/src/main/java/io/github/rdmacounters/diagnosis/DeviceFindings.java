package io.github.rdmacounters.diagnosis;

import java.util.ArrayList;
import java.util.List;

import io.github.rdmacounters.core.Errno;

/**
 * The findings about one device and its ports.
 */
final class DeviceFindings {

	private static final int LISTED_FILES = 5;

	private DeviceFindings() {
	}

	static List<Finding> of(DeviceReport device, boolean inSysfs, String sysfsRoot) {
		List<Finding> findings = new ArrayList<>();
		String name = device.name();
		if (!inSysfs) {
			findings.add(Finding.warning(name,
					"libibverbs lists " + name + " but " + sysfsRoot + " has no directory " + "for it",
					"It has no port counters here",
					"Point --sysfs-root (rdma.port-counters.sysfs-root) at the host's /sys/class/infiniband"));
		}
		ContextReport context = device.verbs();
		if (context.listed() && !context.opened()) {
			findings.add(Finding.problem(name, name + " cannot be opened: " + context.error(), "No flow counters on it",
					"Give the process read-write access to its /dev/infiniband/uverbs* "
							+ "file (group rdma), or report the error with the --json --probe output"));
		}
		if (device.driver() != null && !Verdicts.MLX5_DRIVER.equals(device.driver())) {
			findings.add(Finding.info(name, "Its driver is " + device.driver(),
					"Only the mlx5 provider implements flow counters (ibv_create_counters answers EOPNOTSUPP "
							+ "elsewhere); port counters work",
					"Use port counters here; flow counters need an NVIDIA/Mellanox ConnectX-4 or later"));
		}
		if (!context.missingOps().isEmpty()) {
			findings.add(Finding.warning(name, "The provider's op table lacks " + context.missingOps(),
					"The verbs it lacks answer EOPNOTSUPP", "Upgrade rdma-core (22 or later has every op used)"));
		}
		for (PortReport port : device.ports()) {
			ports(findings, name, port);
		}
		return findings;
	}

	private static void ports(List<Finding> findings, String name, PortReport port) {
		String subject = name + " port " + port.port();
		if (port.roce()) {
			findings.add(Finding.info(subject, "RoCE is enabled (GID types " + port.gidTypes() + ")",
					Verdicts.ROCE_NOTE,
					"Count RoCE traffic with port counters (port_rcv_data, ...) and hw_counters (rx_write_requests, "
							+ "...); flow counters see the host's TCP/UDP/IP traffic"));
		}
		CounterFilesReport files = port.counterFiles();
		if (!files.invalidArgument().isEmpty()) {
			findings.add(Finding.warning(subject,
					files.invalidArgument().size() + " counter files answer EINVAL: " + first(files.invalidArgument()),
					"Those counters have no value; restricted physical functions (DGX/HGX hosts) answer so "
							+ "(node_exporter #3434, #3823)",
					"Nothing to fix in the application; leave them out with rdma.port-counters.exclude to save "
							+ "the reads"));
		}
		if (!files.timedOut().isEmpty()) {
			findings.add(Finding.problem(subject,
					files.timedOut().size() + " counter files time out: " + first(files.timedOut()),
					"A scrape that reads them waits for them", "Leave them out with rdma.port-counters.exclude, and "
							+ "report the host with the --json --probe output"));
		}
		if (!files.otherErrors().isEmpty()) {
			findings.add(Finding.warning(subject,
					files.otherErrors().size() + " counter files are unreadable: " + first(files.otherErrors()),
					"Those counters have no value", ""));
		}
		ProbeStep failed = port.probe().stream().filter(ProbeStep::failed).findFirst().orElse(null);
		if (failed != null) {
			findings.add(Finding.problem(subject, "--probe: " + Verdicts.probeFailure(failed),
					"A counter set on this port fails the same way", probeAction(failed)));
		}
		OptionalCountersReport optional = port.optionalCounters();
		if (optional.supported().size() > optional.enabled().size()) {
			List<String> disabled = optional.supported()
				.stream()
				.filter((counter) -> !optional.enabled().contains(counter))
				.toList();
			findings.add(Finding.info(subject, "Optional counters not enabled: " + disabled,
					"They are not counted until enabled",
					"rdma statistic set link " + name + "/" + port.port() + " optional-counters <names> (as root)"));
		}
	}

	private static String probeAction(ProbeStep step) {
		Integer errno = step.errno();
		if (errno == null) {
			return "Report it with the --json --probe output";
		}
		if (errno == Errno.EPERM || errno == Errno.EACCES) {
			return "Grant CAP_NET_RAW (setcap cap_net_raw+ep on the java binary, or --cap-add NET_RAW) and "
					+ "read-write access to /dev/infiniband";
		}
		if (errno == Errno.EOPNOTSUPP || errno == Errno.ENOSYS) {
			return "Use port counters on this device; flow counters need an mlx5 device";
		}
		if (errno == Errno.EINVAL && step.step().equals("ibv_create_flow")) {
			return "Run Linux 5.8 or later";
		}
		return "Report it with the --json --probe output";
	}

	private static String first(List<String> files) {
		return (files.size() <= LISTED_FILES) ? String.join(", ", files)
				: String.join(", ", files.subList(0, LISTED_FILES)) + ", ...";
	}

}
