package io.github.rdmacounters.netlink;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.testsupport.NativeBuild;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves the netlink client's numbers against the installed {@code <linux/netlink.h>},
 * {@code <linux/rtnetlink.h>} and {@code <rdma/rdma_netlink.h>}: a probe compiled against
 * them prints each, and each must equal the Java constant.
 *
 * @author rdma-counters
 */
class NetlinkAbiTests {

	private static Map<String, Long> header;

	@BeforeAll
	static void runProbe() {
		Path probe = NativeBuild.executable("netlink/netlink_probe.c", "netlink-probe");
		Map<String, Long> values = new HashMap<>();
		for (String line : NativeBuild.run(probe).split("\n")) {
			int space = line.lastIndexOf(' ');
			values.put(line.substring(0, space), Long.parseLong(line.substring(space + 1)));
		}
		header = values;
	}

	static long header(String name) {
		assertThat(header).as("the probe prints %s", name).containsKey(name);
		return header.get(name);
	}

	@Test
	void socketConstantsMatchHeaders() {
		assertThat(Netlink.AF_NETLINK).isEqualTo(header("AF_NETLINK"));
		assertThat(Netlink.SOCK_RAW).isEqualTo(header("SOCK_RAW"));
		assertThat(Netlink.SOCK_CLOEXEC).isEqualTo(header("SOCK_CLOEXEC"));
		assertThat(Netlink.SOL_SOCKET).isEqualTo(header("SOL_SOCKET"));
		assertThat(Netlink.SO_RCVTIMEO).isEqualTo(header("SO_RCVTIMEO"));
		assertThat(Netlink.MSG_PEEK).isEqualTo(header("MSG_PEEK"));
		assertThat(Netlink.MSG_TRUNC).isEqualTo(header("MSG_TRUNC"));
		assertThat(Netlink.MSG_DONTWAIT).isEqualTo(header("MSG_DONTWAIT"));
		assertThat(Netlink.TIMEVAL_SIZE).isEqualTo(header("sizeof(timeval)"));
		assertThat(Netlink.NETLINK_ROUTE).isEqualTo(header("NETLINK_ROUTE"));
		assertThat(Netlink.NETLINK_RDMA).isEqualTo(header("NETLINK_RDMA"));
		assertThat(Netlink.SOCKADDR_NL_SIZE).isEqualTo(header("sizeof(sockaddr_nl)"));
		assertThat(Netlink.SOCKADDR_NL_PID).isEqualTo(header("sockaddr_nl.nl_pid"));
	}

	@Test
	void messageLayoutMatchesNetlinkHeader() {
		assertThat(Netlink.NLMSG_HDRLEN).isEqualTo(header("NLMSG_HDRLEN")).isEqualTo(header("sizeof(nlmsghdr)"));
		// NetlinkMessage and NetlinkRequest read and write the header at these offsets
		assertThat(header("nlmsghdr.nlmsg_len")).isZero();
		assertThat(header("nlmsghdr.nlmsg_type")).isEqualTo(4);
		assertThat(header("nlmsghdr.nlmsg_flags")).isEqualTo(6);
		assertThat(header("nlmsghdr.nlmsg_seq")).isEqualTo(8);
		assertThat(header("nlmsghdr.nlmsg_pid")).isEqualTo(12);
		assertThat(Netlink.NLMSGERR_SIZE).isEqualTo(header("sizeof(nlmsgerr)"));
		assertThat(Netlink.NLA_HDRLEN).isEqualTo(header("NLA_HDRLEN")).isEqualTo(header("sizeof(nlattr)"));
		assertThat(Netlink.NLMSG_ALIGNTO).isEqualTo(header("NLMSG_ALIGNTO"));
		assertThat(Netlink.NLA_ALIGNTO).isEqualTo(header("NLA_ALIGNTO"));
		assertThat(Netlink.NLA_F_NESTED).isEqualTo(header("NLA_F_NESTED"));
		assertThat(Netlink.NLA_TYPE_MASK).isEqualTo(header("NLA_TYPE_MASK") & 0xffff);
		for (int length : new int[] { 0, 1, 5, 16, 17 }) {
			assertThat(Netlink.nlmsgAlign(length)).isEqualTo(header("NLMSG_ALIGN(" + length + ")"));
		}
		for (int length : new int[] { 3, 8, 9 }) {
			assertThat(Netlink.nlaAlign(length)).isEqualTo(header("NLA_ALIGN(" + length + ")"));
		}
	}

	@Test
	void flagsAndControlTypesMatchNetlinkHeader() {
		assertThat(Netlink.NLM_F_REQUEST).isEqualTo(header("NLM_F_REQUEST"));
		assertThat(Netlink.NLM_F_MULTI).isEqualTo(header("NLM_F_MULTI"));
		assertThat(Netlink.NLM_F_ACK).isEqualTo(header("NLM_F_ACK"));
		assertThat(Netlink.NLM_F_DUMP_INTR).isEqualTo(header("NLM_F_DUMP_INTR"));
		assertThat(Netlink.NLM_F_DUMP).isEqualTo(header("NLM_F_DUMP"));
		assertThat(Netlink.NLMSG_NOOP).isEqualTo(header("NLMSG_NOOP"));
		assertThat(Netlink.NLMSG_ERROR).isEqualTo(header("NLMSG_ERROR"));
		assertThat(Netlink.NLMSG_DONE).isEqualTo(header("NLMSG_DONE"));
		assertThat(Netlink.NLMSG_OVERRUN).isEqualTo(header("NLMSG_OVERRUN"));
		assertThat(Netlink.NLMSG_MIN_TYPE).isEqualTo(header("NLMSG_MIN_TYPE"));
	}

	@Test
	void rdmaNldevNumbersMatchRdmaNetlinkHeader() {
		assertThat(RdmaNldev.RDMA_NL_NLDEV).isEqualTo(header("RDMA_NL_NLDEV"));
		assertThat(RdmaNldev.type(RdmaNldev.CMD_GET))
			.isEqualTo(header("RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET)"));
		assertThat(RdmaNldev.type(RdmaNldev.CMD_STAT_GET))
			.isEqualTo(header("RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_GET)"));
		assertThat(RdmaNldev.CMD_GET).isEqualTo(header("RDMA_NLDEV_CMD_GET"));
		assertThat(RdmaNldev.CMD_RES_QP_GET).isEqualTo(header("RDMA_NLDEV_CMD_RES_QP_GET"));
		assertThat(RdmaNldev.CMD_STAT_SET).isEqualTo(header("RDMA_NLDEV_CMD_STAT_SET"));
		assertThat(RdmaNldev.CMD_STAT_GET).isEqualTo(header("RDMA_NLDEV_CMD_STAT_GET"));
		assertThat(RdmaNldev.CMD_STAT_GET_STATUS).isEqualTo(header("RDMA_NLDEV_CMD_STAT_GET_STATUS"));
		assertThat(header("RDMA_NLDEV_ATTR_PAD")).isZero();
		assertThat(RdmaNldev.ATTR_DEV_INDEX).isEqualTo(header("RDMA_NLDEV_ATTR_DEV_INDEX"));
		assertThat(RdmaNldev.ATTR_DEV_NAME).isEqualTo(header("RDMA_NLDEV_ATTR_DEV_NAME"));
		assertThat(RdmaNldev.ATTR_PORT_INDEX).isEqualTo(header("RDMA_NLDEV_ATTR_PORT_INDEX"));
		assertThat(RdmaNldev.ATTR_FW_VERSION).isEqualTo(header("RDMA_NLDEV_ATTR_FW_VERSION"));
		assertThat(RdmaNldev.ATTR_NODE_GUID).isEqualTo(header("RDMA_NLDEV_ATTR_NODE_GUID"));
		assertThat(RdmaNldev.ATTR_RES_QP).isEqualTo(header("RDMA_NLDEV_ATTR_RES_QP"));
		assertThat(RdmaNldev.ATTR_RES_QP_ENTRY).isEqualTo(header("RDMA_NLDEV_ATTR_RES_QP_ENTRY"));
		assertThat(RdmaNldev.ATTR_RES_LQPN).isEqualTo(header("RDMA_NLDEV_ATTR_RES_LQPN"));
		assertThat(RdmaNldev.ATTR_RES_TYPE).isEqualTo(header("RDMA_NLDEV_ATTR_RES_TYPE"));
		assertThat(RdmaNldev.ATTR_RES_STATE).isEqualTo(header("RDMA_NLDEV_ATTR_RES_STATE"));
		assertThat(RdmaNldev.ATTR_RES_PID).isEqualTo(header("RDMA_NLDEV_ATTR_RES_PID"));
		assertThat(RdmaNldev.ATTR_RES_KERN_NAME).isEqualTo(header("RDMA_NLDEV_ATTR_RES_KERN_NAME"));
		assertThat(RdmaNldev.ATTR_DEV_PROTOCOL).isEqualTo(header("RDMA_NLDEV_ATTR_DEV_PROTOCOL"));
		assertThat(RdmaNldev.ATTR_STAT_HWCOUNTERS).isEqualTo(header("RDMA_NLDEV_ATTR_STAT_HWCOUNTERS"));
		assertThat(RdmaNldev.ATTR_STAT_HWCOUNTER_ENTRY).isEqualTo(header("RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY"));
		assertThat(RdmaNldev.ATTR_STAT_HWCOUNTER_ENTRY_NAME)
			.isEqualTo(header("RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME"));
		assertThat(RdmaNldev.ATTR_STAT_HWCOUNTER_ENTRY_VALUE)
			.isEqualTo(header("RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE"));
		assertThat(RdmaNldev.ATTR_STAT_HWCOUNTER_INDEX).isEqualTo(header("RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX"));
		assertThat(RdmaNldev.ATTR_STAT_HWCOUNTER_DYNAMIC).isEqualTo(header("RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC"));
		assertThat(RdmaNldev.CMD_STAT_DEL).isEqualTo(header("RDMA_NLDEV_CMD_STAT_DEL"));
		assertThat(RdmaNldev.ATTR_STAT_MODE).isEqualTo(header("RDMA_NLDEV_ATTR_STAT_MODE"));
		assertThat(RdmaNldev.ATTR_STAT_RES).isEqualTo(header("RDMA_NLDEV_ATTR_STAT_RES"));
		assertThat(RdmaNldev.ATTR_STAT_AUTO_MODE_MASK).isEqualTo(header("RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK"));
		assertThat(RdmaNldev.ATTR_STAT_COUNTER).isEqualTo(header("RDMA_NLDEV_ATTR_STAT_COUNTER"));
		assertThat(RdmaNldev.ATTR_STAT_COUNTER_ENTRY).isEqualTo(header("RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY"));
		assertThat(RdmaNldev.ATTR_STAT_COUNTER_ID).isEqualTo(header("RDMA_NLDEV_ATTR_STAT_COUNTER_ID"));
		assertThat(RdmaNldev.COUNTER_MODE_NONE).isEqualTo(header("RDMA_COUNTER_MODE_NONE"));
		assertThat(RdmaNldev.COUNTER_MODE_AUTO).isEqualTo(header("RDMA_COUNTER_MODE_AUTO"));
		assertThat(RdmaNldev.COUNTER_MODE_MANUAL).isEqualTo(header("RDMA_COUNTER_MODE_MANUAL"));
		assertThat(RdmaNldev.COUNTER_MASK_QP_TYPE).isEqualTo(header("RDMA_COUNTER_MASK_QP_TYPE"));
		assertThat(RdmaNldev.COUNTER_MASK_PID).isEqualTo(header("RDMA_COUNTER_MASK_PID"));
	}

}
