package io.github.rdmacounters.diagnosis;

import java.io.File;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.diagnosis.ProcessReport.DeviceFile;

/**
 * Reads the process's effective capabilities ({@code CapEff} of
 * {@code /proc/self/status}, as {@code task_cap} in {@code fs/proc/array.c} prints it),
 * its network namespace, the RDMA netns mode and {@code /dev/infiniband}.
 */
final class ProcessCollector {

	/** {@code CAP_NET_ADMIN} in {@code include/uapi/linux/capability.h}. */
	static final int CAP_NET_ADMIN = 12;

	/** {@code CAP_NET_RAW} in {@code include/uapi/linux/capability.h}. */
	static final int CAP_NET_RAW = 13;

	private ProcessCollector() {
	}

	static ProcessReport collect(HostPaths paths) {
		String capEff = capEff(paths.proc().resolve("self/status"));
		BigInteger mask = (capEff != null) ? new BigInteger(capEff, 16) : BigInteger.ZERO;
		String netns = link(paths.proc().resolve("self/ns/net"));
		Boolean shared = netnsShared(paths.sys().resolve("module/ib_core/parameters/netns_mode"));
		Path devInfiniband = paths.dev().resolve("infiniband");
		List<DeviceFile> files = new ArrayList<>();
		String[] names = devInfiniband.toFile().list();
		if (names != null) {
			Arrays.sort(names);
			for (String name : names) {
				File file = devInfiniband.resolve(name).toFile();
				files.add(new DeviceFile(name, file.canRead(), file.canWrite()));
			}
		}
		return new ProcessReport(capEff, mask.testBit(CAP_NET_RAW), mask.testBit(CAP_NET_ADMIN), netns, shared,
				Files.isDirectory(devInfiniband), files);
	}

	private static @Nullable String capEff(Path status) {
		try {
			for (String line : Files.readAllLines(status)) {
				if (line.startsWith("CapEff:")) {
					String hex = line.substring("CapEff:".length()).trim();
					return hex.matches("\\p{XDigit}{1,32}") ? hex : null;
				}
			}
		}
		catch (IOException ex) {
			// unknown
		}
		return null;
	}

	private static @Nullable String link(Path path) {
		try {
			return Files.readSymbolicLink(path).toString();
		}
		catch (IOException | UnsupportedOperationException ex) {
			return null;
		}
	}

	// ib_core's netns_mode parameter (ib_devices_shared_netns in
	// drivers/infiniband/core/device.c): Y shares every device, N is exclusive
	private static @Nullable Boolean netnsShared(Path parameter) {
		try {
			String value = Files.readString(parameter).trim();
			return value.equals("Y") || value.equals("1");
		}
		catch (IOException ex) {
			return null;
		}
	}

	static List<Finding> findings(ProcessReport process, boolean nativeBackend) {
		List<Finding> findings = new ArrayList<>();
		if (process.capEff() == null) {
			findings.add(Finding.warning("host", "The effective capabilities cannot be read (/proc/self/status)",
					"Whether flows may be created is unknown", "Run with --probe to try"));
		}
		else {
			if (!process.capNetRaw()) {
				findings.add(Finding.problem("host", "The process lacks CAP_NET_RAW (CapEff " + process.capEff() + ")",
						"Raw packet queue pairs and steering rules need it: no flow counter can be created",
						"Grant it: setcap cap_net_raw+ep on the java binary, or --cap-add NET_RAW in a container"));
			}
			if (!process.capNetAdmin()) {
				findings.add(Finding.info("host", "The process lacks CAP_NET_ADMIN",
						"Optional counters can be read but not enabled (RDMA_NLDEV_CMD_STAT_SET needs it)",
						"Enable them with 'rdma statistic set' as root, or grant CAP_NET_ADMIN"));
			}
		}
		if (nativeBackend && !process.devInfinibandExists()) {
			findings.add(Finding.problem("host", "/dev/infiniband does not exist",
					"No verbs device can be opened: flow counters need one (port counters do not)",
					"Load ib_uverbs on the host; in a container pass --device /dev/infiniband"));
		}
		else if (nativeBackend) {
			for (DeviceFile file : process.devInfiniband()) {
				if (file.name().startsWith("uverbs") && !(file.readable() && file.writable())) {
					findings.add(Finding.problem("host",
							"/dev/infiniband/" + file.name() + " is not read-write for this process",
							"Its device cannot be opened for flow counters",
							"Add the user to the group that owns it (often rdma) or adjust the udev rule"));
				}
			}
		}
		if (Boolean.FALSE.equals(process.rdmaNetnsShared())) {
			findings.add(Finding.info("host",
					"RDMA devices are exclusive to network namespaces (ib_core netns_mode=N), this process is in "
							+ process.netNamespace(),
					"Only the devices moved into this namespace are seen",
					"Move a device here with 'rdma dev set <dev> netns <ns>' if one is missing"));
		}
		return findings;
	}

}
