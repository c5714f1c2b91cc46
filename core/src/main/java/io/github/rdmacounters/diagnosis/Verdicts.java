package io.github.rdmacounters.diagnosis;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.Errno;

/**
 * The verdicts of a port from the facts gathered: whether flow counters and port counters
 * work there, and why not.
 */
final class Verdicts {

	static final String FLOW_COUNTERS = "flow counters";

	static final String PORT_COUNTERS = "port counters";

	/** The kernel driver of the PCI functions whose provider implements flow counters. */
	static final String MLX5_DRIVER = "mlx5_core";

	static final String ROCE_NOTE = "RoCEv2 traffic on this port is not visible to flow counters; see the port and "
			+ "hw counters";

	private Verdicts() {
	}

	/**
	 * The facts a port's flow verdict rests on.
	 */
	record FlowFacts(KernelReport kernel, ProcessReport process, VerbsReport verbs, ContextReport context,
			@Nullable String driver, @Nullable String linkLayer, @Nullable String state, boolean roce,
			List<ProbeStep> probe) {

	}

	static Verdict flow(FlowFacts facts) {
		List<String> because = new ArrayList<>();
		List<String> notes = new ArrayList<>();
		VerbsReport verbs = facts.verbs();
		ContextReport context = facts.context();
		if (!verbs.loaded()) {
			because.add("libibverbs cannot be loaded");
		}
		else if (!verbs.kernelStack()) {
			because.add("the kernel has no RDMA stack");
		}
		else if (!context.listed()) {
			because.add("libibverbs does not list the device");
		}
		else if (!context.opened()) {
			because.add("the device cannot be opened (" + context.error() + ")");
		}
		if ("InfiniBand".equals(facts.linkLayer())) {
			because.add("the port's link layer is InfiniBand and flows match Ethernet frames");
		}
		if (Boolean.FALSE.equals(context.managedFlowSteering())) {
			because.add("the device lacks managed flow steering (IBV_DEVICE_MANAGED_FLOW_STEERING)");
		}
		if (facts.driver() != null && !MLX5_DRIVER.equals(facts.driver())) {
			because.add("only the mlx5 provider implements flow counters and the device's driver is " + facts.driver());
		}
		KernelReport kernel = facts.kernel();
		if (kernel.major() != null && !kernel.dontTrapCounting()) {
			because.add("Linux " + kernel.release() + " is older than 5.8, which refuses a counted don't-trap flow "
					+ "with EINVAL (unless the distribution backported commit 8e14c75c999a: try --probe)");
		}
		if (facts.process().capEff() != null && !facts.process().capNetRaw()) {
			because.add("the process lacks CAP_NET_RAW");
		}
		ProbeStep failedStep = facts.probe().stream().filter(ProbeStep::failed).findFirst().orElse(null);
		boolean flowCreated = facts.probe()
			.stream()
			.anyMatch((step) -> step.step().equals("ibv_create_flow") && ProbeStep.OK.equals(step.outcome()));
		String answer;
		if (flowCreated) {
			// the probe is the fact; what the versions and masks suggested is not
			notes.add("a counted don't-trap flow was created and destroyed by --probe");
			because.forEach((reason) -> notes.add("it was created although " + reason));
			because.clear();
			answer = Verdict.YES;
		}
		else {
			if (failedStep != null && !failedStep.step().startsWith("ibv_destroy")
					&& !failedStep.step().equals("ibv_close_device")) {
				because.add(0, "--probe: " + probeFailure(failedStep));
			}
			if (!because.isEmpty()) {
				answer = Verdict.NO;
			}
			else if (facts.driver() == null) {
				because.add("the device's driver is unknown and only the mlx5 provider implements flow counters; "
						+ "run with --probe to try");
				answer = Verdict.UNKNOWN;
			}
			else {
				answer = Verdict.YES;
			}
		}
		if (!Verdict.NO.equals(answer)) {
			if (facts.roce()) {
				notes.add(ROCE_NOTE);
			}
			if (facts.state() != null && !"ACTIVE".equals(facts.state())) {
				notes.add("the port is " + facts.state() + ": flows count once it is ACTIVE");
			}
		}
		return Verdict.of(FLOW_COUNTERS, answer, because, notes);
	}

	static String probeFailure(ProbeStep step) {
		String errno = (step.errno() != null) ? Errno.describe(step.errno()) : String.valueOf(step.message());
		String explanation = (step.errno() != null) ? Errno.explain(step.step(), step.errno()) : null;
		return step.step() + " failed with " + errno + ((explanation != null) ? ": " + explanation : "");
	}

	static Verdict port(boolean sysfsDirectory, boolean present, CounterFilesReport files) {
		List<String> because = new ArrayList<>();
		List<String> notes = new ArrayList<>();
		if (!sysfsDirectory) {
			because.add("sysfs has no directory for the device");
		}
		else if (!present) {
			because.add("the port's sysfs directory is gone");
		}
		else if (files.readable() == 0) {
			if (!files.invalidArgument().isEmpty()) {
				because.add("every counter file answers EINVAL, as on a restricted physical function (DGX/HGX "
						+ "hosts; node_exporter #3434, #3823)");
			}
			else if (!files.timedOut().isEmpty()) {
				because.add("reading the counter files times out");
			}
			else if (!files.otherErrors().isEmpty()) {
				because.add("no counter file reads as a number (" + files.otherErrors().get(0) + ")");
			}
			else {
				because.add("the port has no counter files");
			}
		}
		else {
			if (!files.invalidArgument().isEmpty()) {
				notes.add(files.invalidArgument().size() + " counter files answer EINVAL");
			}
			if (!files.timedOut().isEmpty()) {
				notes.add(files.timedOut().size() + " counter files time out");
			}
			if (!files.otherErrors().isEmpty()) {
				notes.add(files.otherErrors().size() + " counter files are unreadable");
			}
		}
		return Verdict.of(PORT_COUNTERS, because.isEmpty() ? Verdict.YES : Verdict.NO, because, notes);
	}

}
