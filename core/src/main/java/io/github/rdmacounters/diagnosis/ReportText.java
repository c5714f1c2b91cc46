package io.github.rdmacounters.diagnosis;

import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.diagnosis.ProcessReport.DeviceFile;

/**
 * Writes a {@link DiagnosisReport} as text for a terminal or a bug report.
 */
public final class ReportText {

	private ReportText() {
	}

	/**
	 * Write a report.
	 * @param report the report
	 * @return the text, ending with a line break
	 */
	public static String write(DiagnosisReport report) {
		StringBuilder text = new StringBuilder();
		line(text, 0, "RDMA host diagnosis (schema " + report.schemaVersion() + ", " + report.generatedAt()
				+ (report.probed() ? ", with --probe)" : ", without --probe)"));
		line(text, 0, "");
		line(text, 0, report.summary());
		line(text, 0, "");
		KernelReport kernel = report.kernel();
		line(text, 0, "Kernel: Linux " + kernel.release() + " (" + kernel.source() + ")");
		line(text, 1,
				"counted don't-trap flows (5.8): " + yesNo(kernel.dontTrapCounting()) + ", optional counters (5.16): "
						+ yesNo(kernel.optionalCounters()) + ", per-QP RDMA bytes (6.15): "
						+ yesNo(kernel.perQpRdmaBytes()));
		ProcessReport process = report.process();
		line(text, 0, "Process: CAP_NET_RAW " + yesNo(process.capNetRaw()) + ", CAP_NET_ADMIN "
				+ yesNo(process.capNetAdmin()) + " (CapEff " + orUnknown(process.capEff()) + "), network namespace "
				+ orUnknown(process.netNamespace()) + ", RDMA netns mode " + ((process.rdmaNetnsShared() == null)
						? "unknown" : process.rdmaNetnsShared() ? "shared" : "exclusive"));
		line(text, 1,
				"/dev/infiniband: " + (process.devInfinibandExists() ? (process.devInfiniband().isEmpty() ? "empty"
						: process.devInfiniband().stream().map(ReportText::access).collect(Collectors.joining(", ")))
						: "missing"));
		VerbsReport verbs = report.verbs();
		if (!"native".equals(verbs.backend())) {
			line(text, 0, "Verbs: the " + verbs.backend() + " backend");
		}
		else if (!verbs.loaded()) {
			line(text, 0, "libibverbs: " + verbs.library() + " cannot be loaded");
		}
		else {
			line(text, 0,
					"libibverbs: " + orUnknown(verbs.path())
							+ ((verbs.rdmaCoreVersion() != null) ? " (rdma-core " + verbs.rdmaCoreVersion() + ")" : "")
							+ ", kernel RDMA stack " + yesNo(verbs.kernelStack()) + ", devices " + verbs.devices());
		}
		line(text, 1,
				"binding struct sizes: " + verbs.bindingSizes()
					.entrySet()
					.stream()
					.map((entry) -> entry.getKey() + " " + entry.getValue())
					.collect(Collectors.joining(", ")));
		line(text, 0, "RDMA netlink: "
				+ (report.netlink().available() ? "available" : "not available (" + report.netlink().error() + ")"));
		for (DeviceReport device : report.devices()) {
			device(text, device);
		}
		if (!report.findings().isEmpty() || report.devices().stream().anyMatch((d) -> !d.findings().isEmpty())) {
			line(text, 0, "");
			line(text, 0, "Findings:");
			report.findings().forEach((finding) -> finding(text, finding));
			report.devices().forEach((device) -> device.findings().forEach((finding) -> finding(text, finding)));
		}
		return text.toString();
	}

	private static void device(StringBuilder text, DeviceReport device) {
		line(text, 0, "");
		line(text, 0,
				"Device " + device.name() + ": driver " + orUnknown(device.driver()) + ", node type "
						+ orUnknown(device.nodeType()) + ", HCA " + orUnknown(device.hcaType()) + ", board "
						+ orUnknown(device.boardId()) + ", firmware " + orUnknown(device.firmware()));
		line(text, 1,
				"PCI " + orUnknown(device.pciAddress())
						+ (device.virtualFunction() ? " (virtual function of " + device.physicalFunction() + ")" : "")
						+ ", netdevs " + device.netdevs());
		ContextReport verbs = device.verbs();
		line(text, 1,
				"verbs: "
						+ (verbs.opened()
								? "opened"
										+ ((verbs.opsTableSize() != null)
												? ", op table sz " + verbs.opsTableSize()
														+ (Boolean.TRUE.equals(verbs.extended()) ? " (extended)" : "")
												: "")
										+ ", managed flow steering "
										+ yesNo(Boolean.TRUE.equals(verbs.managedFlowSteering()))
								: "not opened (" + verbs.error() + ")"));
		for (EthtoolReport ethtool : device.ethtool()) {
			line(text, 1, "ethtool " + ethtool.netdev() + ": " + (ethtool.reachable()
					? ethtool.statistics() + " statistics" : "unreachable (" + ethtool.error() + ")"));
		}
		for (PortReport port : device.ports()) {
			line(text, 1,
					"port " + port.port() + ": " + orUnknown(port.linkLayer()) + ", " + orUnknown(port.state()) + " ("
							+ orUnknown(port.physicalState()) + "), " + orUnknown(port.rate()) + ", GID types "
							+ (port.gidTypes().isEmpty() ? "none" : port.gidTypes()));
			CounterFilesReport files = port.counterFiles();
			line(text, 2,
					"counter files: " + files.readable() + " readable, " + files.invalidArgument().size() + " EINVAL, "
							+ files.timedOut().size() + " timed out, " + files.otherErrors().size() + " other errors");
			OptionalCountersReport optional = port.optionalCounters();
			line(text, 2,
					"optional counters: " + ("read".equals(optional.status())
							? optional.supported() + ", enabled " + optional.enabled()
							: optional.status() + ((optional.error() != null) ? " (" + optional.error() + ")" : "")));
			if (port.probe().size() == 1 && port.probe().get(0).message() != null) {
				line(text, 2, "probe: " + port.probe().get(0).outcome() + ", " + port.probe().get(0).message());
			}
			else if (!port.probe().isEmpty()) {
				line(text, 2,
						"probe: " + port.probe()
							.stream()
							.map((step) -> step.step() + " " + step.outcome()
									+ ((step.errnoName() != null) ? " " + step.errnoName() : ""))
							.collect(Collectors.joining(", ")));
			}
			line(text, 2, port.flowCounters().text());
			line(text, 2, port.portCounters().text());
		}
	}

	private static void finding(StringBuilder text, Finding finding) {
		line(text, 1, "[" + finding.severity() + "] " + finding.subject() + ": " + finding.what());
		line(text, 3, "means: " + finding.meaning());
		if (!finding.action().isEmpty()) {
			line(text, 3, "do: " + finding.action());
		}
	}

	private static String access(DeviceFile file) {
		return file.name() + " " + (file.readable() ? "r" : "-") + (file.writable() ? "w" : "-");
	}

	private static String yesNo(boolean value) {
		return value ? "yes" : "no";
	}

	private static String orUnknown(@Nullable Object value) {
		return (value != null) ? value.toString() : "unknown";
	}

	private static void line(StringBuilder text, int depth, String line) {
		text.append("  ".repeat(depth)).append(line).append('\n');
	}

}
