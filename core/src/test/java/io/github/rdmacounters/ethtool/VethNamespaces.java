package io.github.rdmacounters.ethtool;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.sun.jna.Library;
import com.sun.jna.Native;

import io.github.rdmacounters.testsupport.NativeBuild;

/**
 * Two network namespaces of the test's own joined by a veth pair, with an address of a
 * private /30 on each end: traffic sent from end {@code a} to end {@code b} crosses the
 * pair and never leaves the two namespaces. Each namespace has a thread of its own
 * ({@code setns(CLONE_NEWNET)}), on which sockets are created inside it. IPv6 is off in
 * both, so that no neighbour discovery moves the counters behind a test's back. Closing
 * deletes both namespaces (and with them the pair).
 *
 * @author rdma-counters
 */
final class VethNamespaces implements AutoCloseable {

	static final String END_A = "rcveth0a";

	static final String END_B = "rcveth0b";

	static final String ADDRESS_A = "10.77.0.1";

	static final String ADDRESS_B = "10.77.0.2";

	static final String NEEDS = "This test creates network namespaces and a veth pair: it needs root (CAP_SYS_ADMIN "
			+ "for 'ip netns add', CAP_NET_ADMIN for the links) and Debian's iproute2, ethtool and "
			+ "prometheus-node-exporter (apt-get install -y iproute2 ethtool prometheus-node-exporter)";

	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);

	private final String namespaceA;

	private final String namespaceB;

	private final List<String> created = new ArrayList<>();

	private final ExecutorService threadA;

	private final ExecutorService threadB;

	private VethNamespaces(String prefix) {
		this.namespaceA = prefix + "-a";
		this.namespaceB = prefix + "-b";
		this.threadA = Executors.newSingleThreadExecutor((r) -> new Thread(r, "netns " + this.namespaceA));
		this.threadB = Executors.newSingleThreadExecutor((r) -> new Thread(r, "netns " + this.namespaceB));
	}

	/**
	 * Create the namespaces, the pair and the addresses.
	 * @return the namespaces
	 * @throws AssertionError if a command fails, saying what the test needs
	 */
	static VethNamespaces create() {
		for (String tool : List.of("/usr/sbin/ip", "/usr/sbin/ethtool", "/usr/bin/prometheus-node-exporter")) {
			if (!Files.isExecutable(Path.of(tool))) {
				throw new AssertionError(tool + " is missing. " + NEEDS);
			}
		}
		String prefix = "rdmacounters-" + ProcessHandle.current().pid() + "-"
				+ Integer.toHexString(ThreadLocalRandom.current().nextInt(0x10000));
		VethNamespaces namespaces = new VethNamespaces(prefix);
		try {
			namespaces.setUp();
			return namespaces;
		}
		catch (RuntimeException | Error ex) {
			namespaces.close();
			throw ex;
		}
	}

	private void setUp() {
		for (String namespace : List.of(this.namespaceA, this.namespaceB)) {
			ip("netns", "add", namespace);
			this.created.add(namespace);
			exec(namespace, "sysctl", "-q", "-w", "net.ipv6.conf.all.disable_ipv6=1",
					"net.ipv6.conf.default.disable_ipv6=1");
			ip("-n", namespace, "link", "set", "lo", "up");
		}
		ip("-n", this.namespaceA, "link", "add", END_A, "type", "veth", "peer", "name", END_B, "netns",
				this.namespaceB);
		ip("-n", this.namespaceA, "addr", "add", ADDRESS_A + "/30", "dev", END_A);
		ip("-n", this.namespaceB, "addr", "add", ADDRESS_B + "/30", "dev", END_B);
		ip("-n", this.namespaceA, "link", "set", END_A, "up");
		ip("-n", this.namespaceB, "link", "set", END_B, "up");
		enter(this.threadA, this.namespaceA);
		enter(this.threadB, this.namespaceB);
	}

	String namespaceB() {
		return this.namespaceB;
	}

	/**
	 * Attach an XDP program that passes every packet to end {@code b}: the veth then
	 * counts what it receives in {@code rx_queue_<n>_xdp_packets} and {@code _bytes}.
	 */
	void passXdpOnB() {
		Path program = NativeBuild.executable("xdp-pass/xdp_pass.c", "xdp-pass");
		exec(this.namespaceB, program.toString(), END_B);
	}

	/**
	 * Run a command in namespace {@code b}.
	 * @param command the command
	 * @return its output
	 */
	String execInB(String... command) {
		return exec(this.namespaceB, command);
	}

	/**
	 * Run a task on the thread that is in namespace {@code a}.
	 */
	<T> T inA(Callable<T> task) {
		return run(this.threadA, task);
	}

	/**
	 * Run a task on the thread that is in namespace {@code b}: a socket it creates is in
	 * that namespace.
	 */
	<T> T inB(Callable<T> task) {
		return run(this.threadB, task);
	}

	private static <T> T run(ExecutorService thread, Callable<T> task) {
		try {
			return thread.submit(task).get(60, TimeUnit.SECONDS);
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (ex.getCause() instanceof Error error) {
				throw error;
			}
			throw new IllegalStateException(ex.getCause());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		catch (TimeoutException ex) {
			throw new AssertionError("A task in the namespace did not finish within 60 s", ex);
		}
	}

	private static void enter(ExecutorService thread, String namespace) {
		run(thread, () -> {
			Setns libc = Native.load("c", Setns.class);
			int fd = libc.open("/run/netns/" + namespace, Setns.O_RDONLY | Setns.O_CLOEXEC);
			if (fd < 0) {
				throw new AssertionError("open /run/netns/" + namespace + " failed: errno " + Native.getLastError());
			}
			try {
				if (libc.setns(fd, Setns.CLONE_NEWNET) != 0) {
					throw new AssertionError(
							"setns(" + namespace + ") failed: errno " + Native.getLastError() + ". " + NEEDS);
				}
			}
			finally {
				libc.close(fd);
			}
			return null;
		});
	}

	private static String ip(String... arguments) {
		List<String> command = new ArrayList<>(List.of("ip"));
		command.addAll(List.of(arguments));
		return command(command);
	}

	private static String exec(String namespace, String... command) {
		List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
		full.addAll(List.of(command));
		return command(full);
	}

	private static String command(List<String> command) {
		NativeBuild.Result result = NativeBuild.run(command, COMMAND_TIMEOUT);
		if (result.exitCode() != 0) {
			throw new AssertionError(String.join(" ", command) + " failed with exit code " + result.exitCode() + ": "
					+ result.output().trim() + ". " + NEEDS);
		}
		return result.output();
	}

	/**
	 * Delete the namespaces this object created (the veth pair goes with them) and stop
	 * the threads; also after a failed set-up.
	 */
	@Override
	public void close() {
		this.threadA.shutdownNow();
		this.threadB.shutdownNow();
		List<String> failures = new ArrayList<>();
		for (String namespace : this.created) {
			NativeBuild.Result result = NativeBuild.run(List.of("ip", "netns", "del", namespace), COMMAND_TIMEOUT);
			if (result.exitCode() != 0) {
				failures.add(namespace + ": " + result.output().trim());
			}
		}
		this.created.clear();
		if (!failures.isEmpty()) {
			throw new AssertionError("Could not delete the test's network namespaces " + failures);
		}
	}

	/**
	 * The C library calls that move a thread into a network namespace.
	 */
	interface Setns extends Library {

		int O_RDONLY = 0;

		int O_CLOEXEC = 0x80000;

		int CLONE_NEWNET = 0x40000000;

		int open(String path, int flags);

		int setns(int fd, int nstype);

		int close(int fd);

	}

}
