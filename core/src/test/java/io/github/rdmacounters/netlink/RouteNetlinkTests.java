package io.github.rdmacounters.netlink;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.jna.Library;
import com.sun.jna.Native;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.testsupport.NativeBuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Cross-checks the netlink framing against the real kernel: the same
 * {@link NetlinkSocket} that speaks RDMA netlink dumps the links of {@code NETLINK_ROUTE}
 * ({@code RTM_GETLINK}), and the result must agree with iproute2's {@code ip -o link}; a
 * request the kernel refuses comes back with its errno; in a network namespace of the
 * test's own with 80 veth links the dump spans many datagrams. Needs root (for the
 * namespace) and iproute2.
 *
 * @author rdma-counters
 */
class RouteNetlinkTests {

	/** {@code RTM_GETLINK} ({@code include/uapi/linux/rtnetlink.h}). */
	static final int RTM_GETLINK = 18;

	/** {@code RTM_NEWLINK}. */
	static final int RTM_NEWLINK = 16;

	/** {@code sizeof(struct ifinfomsg)}. */
	static final int IFINFOMSG_SIZE = 16;

	/** {@code IFLA_IFNAME} ({@code include/uapi/linux/if_link.h}). */
	static final int IFLA_IFNAME = 3;

	/** {@code IFLA_MTU}. */
	static final int IFLA_MTU = 4;

	private static final Pattern IP_LINK = Pattern.compile("^(\\d+): ([^:@]+)(@[^:]+)?: <[^>]*> mtu (\\d+) .*");

	private static final String NAMESPACE = "rdmacounters-nl-" + ProcessHandle.current().pid();

	private static final int VETH_PAIRS = 40;

	@BeforeAll
	static void createNamespace() throws IOException {
		boolean root = "root".equals(System.getProperty("user.name"));
		if ("true".equals(System.getenv("CI"))) {
			assertThat(root).as("RouteNetlinkTests create a network namespace and need root (CI=true)").isTrue();
		}
		assumeThat(root).as("root, to create a network namespace").isTrue();
		ip("netns", "add", NAMESPACE);
		StringBuilder batch = new StringBuilder();
		for (int i = 0; i < VETH_PAIRS; i++) {
			batch.append("link add rcva")
				.append(i)
				.append(" mtu ")
				.append(1280 + i)
				.append(" type veth peer name rcvb")
				.append(i)
				.append('\n');
		}
		Path file = Files.createTempFile("veth-", ".batch");
		try {
			Files.writeString(file, batch);
			ip("-n", NAMESPACE, "-batch", file.toString());
		}
		finally {
			Files.delete(file);
		}
	}

	@AfterAll
	static void deleteNamespace() {
		if ("root".equals(System.getProperty("user.name"))) {
			NativeBuild.run(List.of("ip", "netns", "del", NAMESPACE), Duration.ofSeconds(60));
		}
	}

	@Test
	void linkDumpAgreesWithIpLink() {
		try (NetlinkSocket socket = NetlinkSocket.open(Netlink.NETLINK_ROUTE, "NETLINK_ROUTE", Duration.ofSeconds(5))) {
			assertThat(links(socket.dump(linkDump(), NetlinkBudget.DEFAULT))).isEqualTo(ipLinks(List.of()));
		}
	}

	@Test
	void largeLinkDumpInANamespaceIsMultipartAndAgreesWithIpLink() {
		NetlinkDump dump;
		try (NetlinkSocket socket = inNamespace(
				() -> NetlinkSocket.open(Netlink.NETLINK_ROUTE, "NETLINK_ROUTE", Duration.ofSeconds(5)))) {
			dump = socket.dump(linkDump(), NetlinkBudget.DEFAULT);
		}
		List<Link> links = links(dump);
		assertThat(links).hasSize(2 * VETH_PAIRS + 1).isEqualTo(ipLinks(List.of("-n", NAMESPACE)));
		assertThat(links.stream().filter((link) -> link.name().equals("rcva7"))).singleElement()
			.extracting(Link::mtu)
			.isEqualTo(1287L);
		assertThat(dump.datagrams()).isGreaterThan(3);
	}

	@Test
	void aDumpOverItsBudgetOnTheRealKernelFailsAndClosesTheSocket() {
		NetlinkSocket socket = inNamespace(
				() -> NetlinkSocket.open(Netlink.NETLINK_ROUTE, "NETLINK_ROUTE", Duration.ofSeconds(5)));
		assertThatExceptionOfType(NetlinkBudgetExceededException.class)
			.isThrownBy(() -> socket.dump(linkDump(), new NetlinkBudget(10, 1 << 24)));
		assertThat(socket.isClosed()).isTrue();
	}

	@Test
	void aLinkThatDoesNotExistIsEnodevFromTheKernel() {
		try (NetlinkSocket socket = NetlinkSocket.open(Netlink.NETLINK_ROUTE, "NETLINK_ROUTE", Duration.ofSeconds(5))) {
			byte[] header = new byte[IFINFOMSG_SIZE];
			ByteBuffer.wrap(header).order(ByteOrder.nativeOrder()).putInt(4, 0x7ffffff0);
			NetlinkRequest request = NetlinkRequest.builder(RTM_GETLINK, "RTM_GETLINK of ifindex 2147483632")
				.familyHeader(header)
				.build();
			// rtnl_getlink (net/core/rtnetlink.c): no device of that index
			assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(() -> socket.exchange(request))
				.withMessage("RTM_GETLINK of ifindex 2147483632 failed: ENODEV (19) No such device")
				.satisfies((ex) -> assertThat(ex.errno()).isEqualTo(Errno.ENODEV));
			assertThat(socket.isClosed()).isFalse();
			assertThat(links(socket.dump(linkDump(), NetlinkBudget.DEFAULT))).isNotEmpty();
		}
	}

	@Test
	void openingAProtocolTheKernelLacksIsEprotonosupport() {
		// NETLINK_RDMA without ib_core, as on this machine, or another missing protocol
		int missing = 31;
		assertThatExceptionOfType(RdmaOperationException.class)
			.isThrownBy(() -> NetlinkSocket.open(missing, "NETLINK_31", Duration.ofSeconds(1)))
			.withMessage("socket(AF_NETLINK, SOCK_RAW, NETLINK_31) failed: EPROTONOSUPPORT (93) Protocol not "
					+ "supported: this kernel has no NETLINK_31 netlink");
	}

	static NetlinkRequest linkDump() {
		return NetlinkRequest.builder(RTM_GETLINK, "RTM_GETLINK").familyHeader(new byte[IFINFOMSG_SIZE]).build();
	}

	static List<Link> links(NetlinkDump dump) {
		List<Link> links = new ArrayList<>();
		for (NetlinkMessage message : dump.messages()) {
			assertThat(message.type()).isEqualTo(RTM_NEWLINK);
			assertThat(message.flags() & Netlink.NLM_F_MULTI).isNotZero();
			NetlinkAttributes attributes = message.attributes(IFINFOMSG_SIZE);
			links.add(new Link(message.payloadInt(4), attributes.require(IFLA_IFNAME, "IFLA_IFNAME").string(),
					attributes.require(IFLA_MTU, "IFLA_MTU").u32()));
		}
		return links;
	}

	private static List<Link> ipLinks(List<String> options) {
		List<String> command = new ArrayList<>(List.of("ip"));
		command.addAll(options);
		command.addAll(List.of("-o", "link", "show"));
		NativeBuild.Result result = NativeBuild.run(command, Duration.ofSeconds(30));
		assertThat(result.exitCode()).as("ip -o link (install iproute2): %s", result.output()).isZero();
		List<Link> links = new ArrayList<>();
		for (String line : result.output().split("\n")) {
			Matcher matcher = IP_LINK.matcher(line);
			assertThat(matcher.matches()).as("ip -o link line: %s", line).isTrue();
			links.add(new Link(Integer.parseInt(matcher.group(1)), matcher.group(2), Long.parseLong(matcher.group(4))));
		}
		return links;
	}

	private static void ip(String... arguments) {
		List<String> command = new ArrayList<>(List.of("ip"));
		command.addAll(List.of(arguments));
		NativeBuild.Result result = NativeBuild.run(command, Duration.ofSeconds(30));
		assertThat(result.exitCode()).as("%s (install iproute2): %s", command, result.output()).isZero();
	}

	/**
	 * Open a socket in the test's network namespace: {@code setns} moves only the calling
	 * thread, which moves back before returning; the socket stays in the namespace.
	 */
	private static <T> T inNamespace(Supplier<T> action) {
		Namespaces libc = Native.load("c", Namespaces.class);
		int original = libc.open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
		int target = libc.open("/run/netns/" + NAMESPACE, O_RDONLY | O_CLOEXEC);
		assertThat(original).isNotNegative();
		assertThat(target).as("/run/netns/%s", NAMESPACE).isNotNegative();
		try {
			assertThat(libc.setns(target, CLONE_NEWNET)).as("setns errno %d", Native.getLastError()).isZero();
			try {
				return action.get();
			}
			finally {
				assertThat(libc.setns(original, CLONE_NEWNET)).isZero();
			}
		}
		finally {
			libc.close(target);
			libc.close(original);
		}
	}

	private static final int O_RDONLY = 0;

	private static final int O_CLOEXEC = 0x80000;

	private static final int CLONE_NEWNET = 0x40000000;

	record Link(long index, String name, long mtu) {
	}

	interface Namespaces extends Library {

		int open(String path, int flags);

		int setns(int fd, int nstype);

		int close(int fd);

	}

}
