package io.github.rdmacounters.netlink;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.testsupport.NativeBuild;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves the monitor's numbers against the installed {@code <rdma/rdma_netlink.h>}: those
 * it has must equal the Java constants; where it is older than Linux 6.13, as Debian 12's
 * 6.1 header is, its enums must end before the numbers the monitor uses, which the newer
 * kernels add after them.
 *
 * @author rdma-counters
 */
class NldevMonitorAbiTests {

	private static Map<String, Long> header;

	@BeforeAll
	static void runProbe() {
		// what the installed header declares, from its text: a header tree can be newer
		// than the kernel version <linux/version.h> names
		NativeBuild.Result preprocessed = NativeBuild
			.run(List.of("sh", "-c", "echo '#include <rdma/rdma_netlink.h>' | gcc -E -x c -"), Duration.ofSeconds(60));
		assertThat(preprocessed.exitCode()).as("gcc -E <rdma/rdma_netlink.h>: %s", preprocessed.output()).isZero();
		List<String> flags = new ArrayList<>();
		if (preprocessed.output().contains("RDMA_NLDEV_CMD_MONITOR")) {
			flags.add("-DFK_HAS_MONITOR");
		}
		if (preprocessed.output().contains("RDMA_NETDEV_RENAME_EVENT")) {
			flags.add("-DFK_HAS_RENAME");
		}
		Map<String, Long> values = new HashMap<>();
		for (String line : NativeBuild.run(NativeBuild.executable("netlink/monitor_probe.c", "monitor-probe", flags))
			.split("\n")) {
			int space = line.lastIndexOf(' ');
			values.put(line.substring(0, space), Long.parseLong(line.substring(space + 1)));
		}
		header = values;
	}

	private static long header(String name) {
		assertThat(header).as("the probe prints %s", name).containsKey(name);
		return header.get(name);
	}

	@Test
	void numbersEveryHeaderHasMatch() {
		assertThat(NldevMonitor.CMD_SYS_GET).isEqualTo(header("RDMA_NLDEV_CMD_SYS_GET"));
		assertThat(NldevMonitor.ATTR_NDEV_INDEX).isEqualTo(header("RDMA_NLDEV_ATTR_NDEV_INDEX"));
		assertThat(NldevMonitor.ATTR_NDEV_NAME).isEqualTo(header("RDMA_NLDEV_ATTR_NDEV_NAME"));
	}

	@Test
	void monitorNumbersMatchANewHeaderOrComeAfterAnOldOne() {
		if (header.containsKey("RDMA_NLDEV_CMD_MONITOR")) {
			assertThat(NldevMonitor.RDMA_NL_GROUP_NOTIFY).isEqualTo(header("RDMA_NL_GROUP_NOTIFY"));
			assertThat(NldevMonitor.CMD_MONITOR).isEqualTo(header("RDMA_NLDEV_CMD_MONITOR"));
			assertThat(NldevMonitor.ATTR_EVENT_TYPE).isEqualTo(header("RDMA_NLDEV_ATTR_EVENT_TYPE"));
			assertThat(NldevMonitor.SYS_ATTR_MONITOR_MODE).isEqualTo(header("RDMA_NLDEV_SYS_ATTR_MONITOR_MODE"));
			for (NldevMonitorEvent.Type type : NldevMonitorEvent.Type.values()) {
				// a 6.12 header ends before the rename events of 6.13
				if (header.containsKey(type.kernelName()) || !type.kernelName().contains("RENAME")) {
					assertThat(type.nativeValue()).as(type.kernelName()).isEqualTo(header(type.kernelName()));
				}
			}
		}
		else {
			// RDMA_NL_GROUP_NOTIFY takes RDMA_NL_NUM_GROUPS's place, the others come
			// later
			assertThat(header("RDMA_NL_NUM_GROUPS")).isEqualTo(NldevMonitor.RDMA_NL_GROUP_NOTIFY);
			assertThat(header("RDMA_NLDEV_NUM_OPS")).isLessThanOrEqualTo(NldevMonitor.CMD_MONITOR);
			assertThat(header("RDMA_NLDEV_ATTR_MAX")).isLessThanOrEqualTo(NldevMonitor.ATTR_EVENT_TYPE);
		}
	}

}
