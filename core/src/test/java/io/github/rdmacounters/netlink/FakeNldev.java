package io.github.rdmacounters.netlink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.LongConsumer;

import com.sun.jna.Library;
import com.sun.jna.Native;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.testsupport.NativeBuild;

/**
 * The fake RDMA netlink kernel of the tests: compiles {@code netlink/fake_nldev.c} (a
 * test resource) with {@code gcc} against the installed {@code <rdma/rdma_netlink.h>},
 * loads it once per JVM and drives it. {@link #client()} gives an {@link RdmaNetlink}
 * whose sockets are socketpair ends the fake serves, so the production send and receive
 * code runs unchanged.
 * <p>
 * The fake is process-wide state: call {@link #reset()} before each test.
 *
 * @author rdma-counters
 */
public final class FakeNldev {

	private static volatile @Nullable FakeNldev instance;

	private final Control control;

	private final com.sun.jna.Function restrack;

	private @Nullable Path socketPath;

	private FakeNldev(Path library) {
		this.control = Native.load(library.toString(), Control.class);
		this.restrack = com.sun.jna.NativeLibrary.getInstance(library.toString()).getFunction("fake_nldev_restrack");
	}

	public static FakeNldev get() {
		FakeNldev current = instance;
		if (current == null) {
			synchronized (FakeNldev.class) {
				current = instance;
				if (current == null) {
					current = new FakeNldev(NativeBuild.sharedLibrary("netlink/fake_nldev.c", "fakenldev"));
					instance = current;
				}
			}
		}
		return current;
	}

	/**
	 * Return the fake kernel's resource tracker, for
	 * {@code FakeVerbs#connectResourceTracker}: QPs created through the fake libibverbs
	 * are then listed with this process's pid.
	 * @return the function {@code fake_nldev_restrack}
	 */
	public com.sun.jna.Pointer resourceTracker() {
		return this.restrack;
	}

	public void reset() {
		this.control.fake_nldev_reset();
	}

	public int addDevice(String name, int ports, long nodeGuid, String firmware, String protocol) {
		int index = this.control.fake_nldev_add_device(name, ports, nodeGuid, firmware, protocol);
		check(index >= 0, "add device " + name);
		return index;
	}

	public void removeDevice(int index) {
		check(this.control.fake_nldev_remove_device(index) == 0, "remove device " + index);
	}

	public void addCounter(int device, int port, String name, long value) {
		check(this.control.fake_nldev_add_counter(device, port, name, 0, 1, value) >= 0, "add counter " + name);
	}

	public void addOptionalCounter(int device, int port, String name, boolean enabled, long value) {
		check(this.control.fake_nldev_add_counter(device, port, name, 1, enabled ? 1 : 0, value) >= 0,
				"add optional counter " + name);
	}

	public void setCounter(int device, int port, String name, long value) {
		check(this.control.fake_nldev_set_counter(device, port, name, value) == 0, "set counter " + name);
	}

	public boolean counterEnabled(int device, int port, String name) {
		int enabled = this.control.fake_nldev_counter_enabled(device, port, name);
		check(enabled >= 0, "find counter " + name);
		return enabled == 1;
	}

	public void addQueuePairs(int device, int port, int count, int firstLqpn, int type, int state, long pid) {
		check(this.control.fake_nldev_add_qps(device, port, count, firstLqpn, type, state, (int) pid, null) == 0,
				"add queue pairs");
	}

	public void addKernelQueuePair(int device, int port, int lqpn, int type, String owner) {
		check(this.control.fake_nldev_add_qps(device, port, 1, lqpn, type, 3, 0, owner) == 0, "add queue pair");
	}

	/**
	 * Decide whether the peers of connections made from now on have CAP_NET_ADMIN.
	 * @param has {@code true} or {@code false}, or {@code null} to read it from the
	 * peer's credentials as the kernel does
	 */
	public void capNetAdmin(@Nullable Boolean has) {
		this.control.fake_nldev_set_cap_net_admin((has == null) ? -1 : (has ? 1 : 0));
	}

	public void dumpSize(int bytes) {
		this.control.fake_nldev_set_dump_size(bytes);
	}

	public void inject(String fault) {
		check(this.control.fake_nldev_inject(fault) == 0, "inject " + fault);
	}

	public long count(String what) {
		long count = this.control.fake_nldev_count(what);
		check(count >= 0, "count " + what);
		return count;
	}

	/**
	 * Return the path of a {@code SOCK_SEQPACKET} socket the fake serves, for the shim's
	 * {@code FAKE_NLDEV_SOCKET}; the fake starts listening on first use.
	 * @return the path
	 */
	synchronized Path socketPath() {
		Path path = this.socketPath;
		if (path == null) {
			try {
				Path directory = Files.createTempDirectory("fake-nldev-");
				path = directory.resolve("nldev.sock");
				// the fake listens until the JVM ends: its socket and directory go then
				// (deleteOnExit deletes in reverse order, the socket first)
				directory.toFile().deleteOnExit();
				path.toFile().deleteOnExit();
			}
			catch (IOException ex) {
				throw new IllegalStateException("Cannot create a directory for the fake's socket", ex);
			}
			check(this.control.fake_nldev_listen(path.toString()) == 0, "listen on " + path);
			this.socketPath = path;
		}
		return path;
	}

	/**
	 * Open a socket to the fake the way production code would take an already-open one.
	 * @return the socket; its port id is this process's pid, as the fake's is
	 */
	NetlinkSocket connect() {
		return connect(Duration.ofSeconds(10));
	}

	NetlinkSocket connect(Duration timeout) {
		return connect(timeout, (inode) -> {
		});
	}

	/**
	 * Open a socket to the fake, telling its inode, which names its connection in
	 * {@link #serves(long)} (its descriptor's number may be another socket's once it is
	 * closed).
	 * @param timeout the socket's receive timeout
	 * @param inodes told the socket's inode
	 * @return the socket
	 */
	NetlinkSocket connect(Duration timeout, LongConsumer inodes) {
		int fd = this.control.fake_nldev_connect();
		check(fd >= 0, "connect");
		inodes.accept(inode(fd));
		return NetlinkSocket.attach(fd, (int) ProcessHandle.current().pid(), "NETLINK_RDMA", timeout);
	}

	/**
	 * Return whether the fake still serves the connection of a socket: it stops when the
	 * socket is closed.
	 * @param inode the socket's inode
	 * @return {@code true} while the connection is open
	 */
	boolean serves(long inode) {
		return this.control.fake_nldev_serving(inode) == 1;
	}

	private static long inode(int fd) {
		try {
			// "socket:[<inode>]"
			String link = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
			return Long.parseLong(link.substring(link.indexOf('[') + 1, link.length() - 1));
		}
		catch (IOException | RuntimeException ex) {
			throw new IllegalStateException("Cannot read the inode of descriptor " + fd + " in /proc/self/fd", ex);
		}
	}

	public RdmaNetlink client() {
		return new RdmaNetlink(() -> connect());
	}

	/**
	 * Choose which kernel the fake is for RDMA netlink's monitor.
	 * @param level 0: before Linux 6.12 (no monitor), 1: 6.12, 2: 6.13 and later (the
	 * default, with the rename events)
	 */
	public void monitorLevel(int level) {
		this.control.fake_nldev_set_monitor(level);
	}

	/**
	 * Open a socket to the fake whose multicast joins the fake decides, as the kernel's
	 * {@code netlink_setsockopt} would.
	 * @return the socket
	 */
	public NetlinkSocket connectForEvents() {
		return connectForEvents((inode) -> {
		});
	}

	/**
	 * Open a socket for events, telling its inode, as
	 * {@link #connect(Duration, LongConsumer)} does.
	 * @param inodes told the socket's inode
	 * @return the socket
	 */
	NetlinkSocket connectForEvents(LongConsumer inodes) {
		int fd = this.control.fake_nldev_connect();
		check(fd >= 0, "connect");
		inodes.accept(inode(fd));
		return NetlinkSocket.attach(fd, (int) ProcessHandle.current().pid(), "NETLINK_RDMA", Duration.ofSeconds(10),
				(group) -> this.control.fake_nldev_join(fd, group));
	}

	public void renameDevice(int index, String name) {
		check(this.control.fake_nldev_rename_device(index, name) == 0, "rename device " + index);
	}

	public void attachNetdev(int index, int port, int ifindex, @Nullable String name) {
		check(this.control.fake_nldev_set_netdev(index, port, ifindex, name) == 0, "set the netdev of " + index);
	}

	public void renameNetdev(int index, int port, String name) {
		check(this.control.fake_nldev_rename_netdev(index, port, name) == 0, "rename the netdev of " + index);
	}

	/**
	 * Multicast raw bytes to the monitor's group, e.g. a malformed message.
	 * @param message the datagram
	 */
	public void notifyRaw(byte[] message) {
		this.control.fake_nldev_notify_raw(message, message.length);
	}

	/**
	 * Model Linux 6.15 and later, where a manual bind binds the port's enabled optional
	 * counters to the queue pair too.
	 * @param on whether it does
	 */
	public void bindOptionalCounters(boolean on) {
		this.control.fake_nldev_set_bind_opcnt(on ? 1 : 0);
	}

	/**
	 * Count traffic of a queue pair: in the port's counter, and in the counter it is
	 * bound to if any.
	 */
	public void queuePairTraffic(int device, long lqpn, String counter, long delta) {
		check(this.control.fake_nldev_qp_traffic(device, (int) lqpn, counter, delta) == 0,
				"count " + counter + " of QP " + lqpn);
	}

	/**
	 * Return the counter a queue pair is bound to.
	 * @return its id, 0 if none
	 */
	public long queuePairCounter(int device, long lqpn) {
		long id = this.control.fake_nldev_qp_counter(device, (int) lqpn);
		check(id >= 0, "find QP " + lqpn);
		return id;
	}

	/**
	 * Return a port's counter mode ({@code RDMA_COUNTER_MODE_*}) and, in auto mode, its
	 * mask, as {@code mode | mask << 8}.
	 */
	public int counterMode(int device, int port) {
		int mode = this.control.fake_nldev_port_counter_mode(device, port);
		check(mode >= 0, "find port " + port);
		return mode;
	}

	/**
	 * Return how many counters queue pairs of the device are bound to.
	 */
	public int queuePairCounters(int device) {
		int count = this.control.fake_nldev_qp_counters(device);
		check(count >= 0, "find device " + device);
		return count;
	}

	/**
	 * Create, modify or destroy a queue pair of this process, as the fake libibverbs
	 * reports them ({@code fake_nldev_restrack}).
	 */
	public void restrack(String device, long lqpn, int type, int state, int port, boolean alive) {
		this.restrack.invokeVoid(new Object[] { device, (int) lqpn, type, state, port, alive ? 1 : 0 });
	}

	/**
	 * Hold every request of an op until {@link #release()}, as the kernel does while the
	 * device does not answer (a firmware command in {@code mlx5_cmd_exec}).
	 * @param command {@code get}, {@code stat_get}, {@code stat_get_status},
	 * {@code stat_set}, {@code stat_del}, {@code res_qp_get}, {@code sys_get} or
	 * {@code all}
	 */
	public void hold(String command) {
		check(this.control.fake_nldev_hold(command) == 0, "hold " + command);
	}

	/**
	 * Let every held request go on, and hold no more.
	 */
	public void release() {
		this.control.fake_nldev_release();
	}

	/**
	 * Return how many requests wait in a hold now.
	 * @return the number
	 */
	public int held() {
		return this.control.fake_nldev_held();
	}

	private static void check(boolean ok, String what) {
		if (!ok) {
			throw new IllegalStateException("The fake RDMA netlink kernel could not " + what);
		}
	}

	/**
	 * The control API of {@code fake_nldev.c}.
	 */
	interface Control extends Library {

		void fake_nldev_reset();

		int fake_nldev_add_device(String name, int ports, long nodeGuid, String firmware, String protocol);

		int fake_nldev_remove_device(int index);

		int fake_nldev_add_counter(int device, int port, String name, int optional, int enabled, long value);

		int fake_nldev_set_counter(int device, int port, String name, long value);

		int fake_nldev_counter_enabled(int device, int port, String name);

		int fake_nldev_add_qps(int device, int port, int count, int firstLqpn, int type, int state, int pid,
				@Nullable String kernelName);

		void fake_nldev_set_cap_net_admin(int mode);

		void fake_nldev_set_dump_size(int size);

		int fake_nldev_inject(String fault);

		long fake_nldev_count(String what);

		int fake_nldev_serving(long clientInode);

		int fake_nldev_connect();

		int fake_nldev_listen(String path);

		void fake_nldev_set_monitor(int level);

		int fake_nldev_join(int clientFd, int group);

		int fake_nldev_rename_device(int index, String name);

		int fake_nldev_set_netdev(int index, int port, int ifindex, @Nullable String name);

		int fake_nldev_rename_netdev(int index, int port, String name);

		void fake_nldev_notify_raw(byte[] data, int length);

		void fake_nldev_set_bind_opcnt(int on);

		int fake_nldev_qp_traffic(int device, int lqpn, String counter, long delta);

		long fake_nldev_qp_counter(int device, int lqpn);

		int fake_nldev_port_counter_mode(int device, int port);

		int fake_nldev_qp_counters(int device);

		int fake_nldev_hold(String command);

		void fake_nldev_release();

		int fake_nldev_held();

	}

}
