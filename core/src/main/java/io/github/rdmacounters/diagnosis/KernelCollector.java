package io.github.rdmacounters.diagnosis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the kernel release ({@code /proc/sys/kernel/osrelease}, else the JVM's
 * {@code os.version}, which is {@code uname -r}) and the counting features of its
 * version.
 */
final class KernelCollector {

	private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+).*");

	private KernelCollector() {
	}

	static KernelReport collect(HostPaths paths) {
		Path osrelease = paths.proc().resolve("sys/kernel/osrelease");
		String release;
		String source;
		try {
			release = Files.readString(osrelease).trim();
			source = osrelease.toString();
		}
		catch (IOException ex) {
			release = System.getProperty("os.version", "unknown");
			source = "uname (os.version)";
		}
		Matcher matcher = VERSION.matcher(release);
		if (!matcher.matches()) {
			return new KernelReport(release, source, null, null, false, false, false);
		}
		int major = Integer.parseInt(matcher.group(1));
		int minor = Integer.parseInt(matcher.group(2));
		// Linux v5.8, commit 8e14c75c999a: mlx5's create_dont_trap_rule keeps the count
		// action (drivers/infiniband/hw/mlx5/fs.c)
		boolean dontTrap = atLeast(major, minor, 5, 8);
		// Linux v5.16: RDMA_NLDEV_CMD_STAT_GET_STATUS and optional counters
		// (drivers/infiniband/core/nldev.c)
		boolean optional = atLeast(major, minor, 5, 16);
		// Linux v6.15: mlx5 per-QP optional rdma_tx/rx_bytes and packets
		// (drivers/infiniband/hw/mlx5/counters.c)
		boolean perQp = atLeast(major, minor, 6, 15);
		return new KernelReport(release, source, major, minor, dontTrap, optional, perQp);
	}

	private static boolean atLeast(int major, int minor, int wantMajor, int wantMinor) {
		return major > wantMajor || (major == wantMajor && minor >= wantMinor);
	}

	static List<Finding> findings(KernelReport kernel) {
		List<Finding> findings = new ArrayList<>();
		String linux = "Linux " + kernel.release();
		if (kernel.major() == null) {
			findings.add(Finding.warning("host", "The kernel release '" + kernel.release() + "' does not parse",
					"Which counting features the kernel has is unknown", "Run with --probe to try a counted flow"));
			return findings;
		}
		if (!kernel.dontTrapCounting()) {
			findings.add(Finding.problem("host", linux + " is older than 5.8",
					"A counted don't-trap flow fails with EINVAL (fixed by commit 8e14c75c999a in 5.8): flow counters "
							+ "cannot count without taking the traffic from the kernel",
					"Run Linux 5.8 or later for flow counters; port counters work on any kernel"));
		}
		if (!kernel.optionalCounters()) {
			findings.add(Finding.info("host", linux + " is older than 5.16",
					"RDMA netlink has no optional counters (e.g. mlx5's cc_rx_cnp_pkts, rdma_tx_bytes)",
					"Run Linux 5.16 or later for optional counters"));
		}
		else if (!kernel.perQpRdmaBytes()) {
			findings.add(Finding.info("host", linux + " is older than 6.15",
					"mlx5 cannot bind the optional RDMA byte and packet counters to a queue pair",
					"Run Linux 6.15 or later for per-queue-pair RDMA bytes"));
		}
		return findings;
	}

}
