package io.github.rdmacounters.ethtool;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.libc.LibC;
import io.github.rdmacounters.testsupport.NativeBuild;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves the reader's view of the ioctl ABI against the installed
 * {@code <linux/ethtool.h>}, {@code <linux/sockios.h>} and {@code <net/if.h>}: a probe
 * compiled against them prints every size, offset and constant the Java side uses.
 *
 * @author rdma-counters
 */
class EthtoolAbiTests {

	private static Map<String, Long> header;

	@BeforeAll
	static void runProbe() {
		Map<String, Long> values = new HashMap<>();
		String output = NativeBuild.run(NativeBuild.executable("ethtool-probe/ethtool_probe.c", "ethtool-probe"));
		for (String line : output.split("\n")) {
			String[] parts = line.trim().split(" ");
			values.put(parts[0], Long.parseLong(parts[1]));
		}
		header = values;
	}

	private static long header(String name) {
		assertThat(header).as("the probe prints %s", name).containsKey(name);
		return header.get(name);
	}

	@Test
	void socketAndIfreqMatchHeaders() {
		assertThat(LibC.AF_INET).isEqualTo(header("AF_INET"));
		assertThat(LibC.SOCK_DGRAM).isEqualTo(header("SOCK_DGRAM"));
		assertThat(LibC.SOCK_CLOEXEC).isEqualTo(header("SOCK_CLOEXEC"));
		assertThat(Ethtool.SIOCETHTOOL).isEqualTo(header("SIOCETHTOOL"));
		assertThat(Ethtool.IFNAMSIZ).isEqualTo(header("IFNAMSIZ"));
		assertThat(Ethtool.SIZEOF_IFREQ).isEqualTo(header("sizeof(ifreq)"));
		assertThat(header("ifreq.ifr_name")).isZero();
		assertThat(Ethtool.IFREQ_DATA).isEqualTo(header("ifreq.ifr_data"));
	}

	@Test
	void commandsAndStringSetMatchHeader() {
		assertThat(Ethtool.ETHTOOL_GSSET_INFO).isEqualTo(header("ETHTOOL_GSSET_INFO"));
		assertThat(Ethtool.ETHTOOL_GSTRINGS).isEqualTo(header("ETHTOOL_GSTRINGS"));
		assertThat(Ethtool.ETHTOOL_GSTATS).isEqualTo(header("ETHTOOL_GSTATS"));
		assertThat(Ethtool.ETH_SS_STATS).isEqualTo(header("ETH_SS_STATS"));
		assertThat(Ethtool.ETH_GSTRING_LEN).isEqualTo(header("ETH_GSTRING_LEN"));
	}

	@Test
	void structLayoutsMatchHeader() {
		assertThat(header("ethtool_sset_info.cmd")).isZero();
		assertThat(Ethtool.SSET_INFO_SSET_MASK).isEqualTo(header("ethtool_sset_info.sset_mask"));
		assertThat(Ethtool.SSET_INFO_DATA).isEqualTo(header("ethtool_sset_info.data"));
		assertThat(header("sizeof(ethtool_sset_info.data[0])")).isEqualTo(Integer.BYTES);
		assertThat(header("ethtool_gstrings.cmd")).isZero();
		assertThat(Ethtool.GSTRINGS_STRING_SET).isEqualTo(header("ethtool_gstrings.string_set"));
		assertThat(Ethtool.GSTRINGS_LEN).isEqualTo(header("ethtool_gstrings.len"));
		assertThat(Ethtool.GSTRINGS_DATA).isEqualTo(header("ethtool_gstrings.data"));
		assertThat(header("ethtool_stats.cmd")).isZero();
		assertThat(Ethtool.STATS_N_STATS).isEqualTo(header("ethtool_stats.n_stats"));
		assertThat(Ethtool.STATS_DATA).isEqualTo(header("ethtool_stats.data"));
		assertThat(header("sizeof(ethtool_stats.data[0])")).isEqualTo(Long.BYTES);
	}

}
