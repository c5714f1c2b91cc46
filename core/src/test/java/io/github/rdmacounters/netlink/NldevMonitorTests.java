package io.github.rdmacounters.netlink;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.Presence;
import io.github.rdmacounters.sysfs.FileSystemSysfsTree;
import io.github.rdmacounters.sysfs.SysfsFixtures;
import io.github.rdmacounters.sysfs.SysfsHostPortCountersSource;
import io.github.rdmacounters.testsupport.LogCapture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * RDMA netlink's monitor against the fake kernel: the events it multicasts when a test
 * adds, removes or renames a device or attaches a netdev reach the listener through the
 * production socket code, the host's device discovery follows them without a read, and
 * where the kernel cannot give events one INFO line says so.
 *
 * @author rdma-counters
 */
class NldevMonitorTests {

	private final FakeNldev fake = FakeNldev.get();

	private final BlockingQueue<NldevMonitorEvent> events = new LinkedBlockingQueue<>();

	private final List<String> info = new CopyOnWriteArrayList<>();

	private @Nullable NldevMonitor monitor;

	@BeforeEach
	void setUp() {
		this.fake.reset();
	}

	@AfterEach
	void tearDown() {
		if (this.monitor != null) {
			this.monitor.close();
		}
	}

	private NldevMonitor start(NldevMonitor.Listener listener) {
		NldevMonitor started = NldevMonitor.start(this.fake::connectForEvents, listener, this.info::add,
				Clock.systemUTC());
		assertThat(started).as("the monitor, not: %s", this.info).isNotNull();
		this.monitor = started;
		return started;
	}

	private NldevMonitorEvent next() throws InterruptedException {
		NldevMonitorEvent event = this.events.poll(10, TimeUnit.SECONDS);
		assertThat(event).as("an event within 10 s").isNotNull();
		return event;
	}

	@Test
	void eachChangeOfTheFakeKernelReachesTheListener() throws InterruptedException {
		start(this.events::add);
		int index = this.fake.addDevice("mlx5_0", 1, 1, "28.39.1002", "roce");
		NldevMonitorEvent registered = next();
		assertThat(registered.type()).isEqualTo(NldevMonitorEvent.Type.REGISTER);
		assertThat(registered.deviceIndex()).isEqualTo(index);
		assertThat(registered.deviceName()).isEqualTo("mlx5_0");
		this.fake.attachNetdev(index, 1, 7, "eth2");
		NldevMonitorEvent attached = next();
		assertThat(attached.type()).isEqualTo(NldevMonitorEvent.Type.NETDEV_ATTACH);
		assertThat(attached.port()).isEqualTo(1);
		assertThat(attached.netdevIndex()).isEqualTo(7);
		assertThat(attached.netdevName()).isEqualTo("eth2");
		assertThat(attached).hasToString("RDMA_NETDEV_ATTACH_EVENT of RDMA device mlx5_0 (kernel index " + index
				+ ") port 1 netdev eth2 (ifindex 7)");
		this.fake.renameNetdev(index, 1, "myeth2");
		NldevMonitorEvent netdevRenamed = next();
		assertThat(netdevRenamed.type()).isEqualTo(NldevMonitorEvent.Type.NETDEV_RENAME);
		// fill_mon_netdev_rename names the netdev only
		assertThat(netdevRenamed.deviceName()).isNull();
		assertThat(netdevRenamed.netdevName()).isEqualTo("myeth2");
		this.fake.renameDevice(index, "rocep8s0f0");
		NldevMonitorEvent renamed = next();
		assertThat(renamed.type()).isEqualTo(NldevMonitorEvent.Type.RENAME);
		assertThat(renamed.deviceName()).isEqualTo("rocep8s0f0");
		this.fake.attachNetdev(index, 1, 0, null);
		NldevMonitorEvent detached = next();
		assertThat(detached.type()).isEqualTo(NldevMonitorEvent.Type.NETDEV_DETACH);
		assertThat(detached.netdevIndex()).isNull();
		this.fake.removeDevice(index);
		NldevMonitorEvent unregistered = next();
		assertThat(unregistered.type()).isEqualTo(NldevMonitorEvent.Type.UNREGISTER);
		assertThat(unregistered.deviceName()).isEqualTo("rocep8s0f0");
		assertThat(this.info).isEmpty();
	}

	@Test
	void linuxSixTwelveSendsNoRenameEvents() throws InterruptedException {
		this.fake.monitorLevel(1);
		start(this.events::add);
		int index = this.fake.addDevice("mlx5_0", 1, 1, "", "roce");
		assertThat(next().type()).isEqualTo(NldevMonitorEvent.Type.REGISTER);
		this.fake.renameDevice(index, "rocep8s0f0");
		this.fake.removeDevice(index);
		NldevMonitorEvent following = next();
		assertThat(following.type()).isEqualTo(NldevMonitorEvent.Type.UNREGISTER);
		assertThat(following.deviceName()).isEqualTo("rocep8s0f0");
	}

	@Test
	void kernelWithoutMonitorLogsOneInfoLineAndKeepsNoSocket() {
		this.fake.monitorLevel(0);
		assertStartFailsClosingItsSocket("RDMA devices are discovered at each read",
				"no RDMA netlink monitor (RDMA_NLDEV_CMD_MONITOR, Linux 6.12 and later)");
	}

	@Test
	void refusedJoinLogsOneInfoLineAndKeepsNoSocket() {
		this.fake.inject("join");
		assertStartFailsClosingItsSocket("RDMA devices are discovered at each read", "refused with EPERM",
				"NETLINK_ADD_MEMBERSHIP");
	}

	/**
	 * Start a monitor that does not start: one INFO line with the given texts, and the
	 * one socket it opened closed, on both sides.
	 */
	private void assertStartFailsClosingItsSocket(String... info) {
		// its connection named by inode: the fake is shared with the threads other tests
		// left, which open and close connections meanwhile, so its count of open
		// connections could fall though this socket leaked, or never fall back
		List<Long> inodes = new ArrayList<>();
		List<Boolean> servedAtOpen = new ArrayList<>();
		List<NetlinkSocket> opened = new ArrayList<>();
		NldevMonitor started = NldevMonitor.start(() -> {
			NetlinkSocket socket = this.fake.connectForEvents(inodes::add);
			servedAtOpen.add(this.fake.serves(inodes.get(0)));
			opened.add(socket);
			return socket;
		}, this.events::add, this.info::add, Clock.systemUTC());
		assertThat(started).isNull();
		assertThat(this.info).singleElement().asString().contains(info);
		assertThat(opened).singleElement().satisfies((socket) -> assertThat(socket.isClosed()).isTrue());
		// named while open: the fake names 64 connections at most, and one it does not
		// name would read as closed
		assertThat(servedAtOpen).as("the fake served the socket once opened").containsExactly(true);
		long own = inodes.get(0);
		// the fake's server side sees the close too
		await().atMost(Duration.ofSeconds(10)).until(() -> !this.fake.serves(own));
	}

	@Test
	void noRdmaNetlinkLogsOneInfoLine() {
		NldevMonitor started = NldevMonitor.start(() -> {
			throw new io.github.rdmacounters.core.RdmaOperationException("socket(AF_NETLINK, SOCK_RAW, NETLINK_RDMA)",
					io.github.rdmacounters.core.Errno.EPROTONOSUPPORT);
		}, this.events::add, this.info::add, Clock.systemUTC());
		assertThat(started).isNull();
		assertThat(this.info).singleElement().asString().contains("RDMA netlink cannot be opened for its monitor");
	}

	@Test
	void closeWhileTheThreadWaitsStopsItAndClosesTheSocketOnce() {
		// its connection named by inode: a count of the fake's open connections moves
		// with the threads other tests left
		List<Long> inodes = new CopyOnWriteArrayList<>();
		NldevMonitor started = NldevMonitor.start(() -> this.fake.connectForEvents(inodes::add), this.events::add,
				this.info::add, Clock.systemUTC());
		assertThat(started).as("the monitor, not: %s", this.info).isNotNull();
		this.monitor = started;
		assertThat(inodes).hasSize(1);
		long own = inodes.get(0);
		assertThat(this.fake.serves(own)).isTrue();
		assertThat(started.isRunning()).isTrue();
		assertThat(threadAlive()).isTrue();
		long before = System.nanoTime();
		started.close();
		long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - before);
		assertThat(started.isRunning()).isFalse();
		assertThat(threadAlive()).isFalse();
		// the eventfd ends the wait, not the poll's timeout
		assertThat(tookMillis).isLessThan(NldevMonitor.POLL_TIMEOUT_MILLIS * 10L);
		await().atMost(Duration.ofSeconds(10)).until(() -> !this.fake.serves(own));
		List<Long> others = new ArrayList<>();
		try (NetlinkSocket other = this.fake.connect(Duration.ofSeconds(10), others::add)) {
			// a second close must not close the descriptor number the first freed
			started.close();
			assertThat(other.isClosed()).isFalse();
			assertThat(this.fake.serves(others.get(0))).isTrue();
		}
		// no event reaches a closed monitor
		this.fake.addDevice("mlx5_0", 1, 1, "", "roce");
		assertThat(this.fake.count("events")).isZero();
	}

	@Test
	void closeWaitsForABusyListenerOnlyUntilItsDeadlineAndNothingIsDeliveredAfter() throws InterruptedException {
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		List<Long> inodes = new CopyOnWriteArrayList<>();
		try (LogCapture log = LogCapture.of(NldevMonitor.class)) {
			// stalled as MonitorEventActions is while a sysfs file stalls
			NldevMonitor started = NldevMonitor.start(() -> this.fake.connectForEvents(inodes::add), (event) -> {
				this.events.add(event);
				entered.countDown();
				try {
					release.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}, this.info::add, Clock.systemUTC(), Duration.ofMillis(300));
			assertThat(started).as("the monitor, not: %s", this.info).isNotNull();
			this.monitor = started;
			this.fake.addDevice("mlx5_0", 1, 1, "", "roce");
			assertThat(entered.await(10, TimeUnit.SECONDS)).as("the listener entered within 10 s").isTrue();
			this.fake.addDevice("mlx5_1", 1, 1, "", "roce");
			long before = System.nanoTime();
			started.close();
			long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - before);
			assertThat(tookMillis).as("close waited for its deadline, not for the listener").isBetween(250L, 5_000L);
			assertThat(threadAlive()).as("the thread, still in the listener").isTrue();
			assertThat(log.messages(Level.WARNING)).singleElement()
				.satisfies((line) -> assertThat(line).contains("still in its listener 300 ms after close"));
			// the socket is closed at once: the thread is in no call on it
			await().atMost(Duration.ofSeconds(10)).until(() -> !this.fake.serves(inodes.get(0)));
			release.countDown();
			await().atMost(Duration.ofSeconds(10)).until(() -> !threadAlive());
			assertThat(this.events).as("only the event the listener had when the monitor closed")
				.singleElement()
				.satisfies((event) -> assertThat(event.deviceName()).isEqualTo("mlx5_0"));
			started.close();
			assertThat(log.messages(Level.WARNING)).hasSize(1);
		}
		finally {
			release.countDown();
		}
	}

	@Test
	void malformedAndUnknownMessagesAreSkippedWithADebugLine() throws InterruptedException {
		List<String> debug = new CopyOnWriteArrayList<>();
		Logger logger = Logger.getLogger(NldevMonitor.class.getName());
		Level level = logger.getLevel();
		Handler handler = new Handler() {

			@Override
			public void publish(LogRecord record) {
				if (record.getLevel().intValue() <= Level.FINE.intValue()) {
					debug.add(record.getMessage());
				}
			}

			@Override
			public void flush() {
			}

			@Override
			public void close() {
			}

		};
		logger.setLevel(Level.ALL);
		logger.addHandler(handler);
		try {
			start(this.events::add);
			// an event type this library does not know (a newer kernel's)
			this.fake.notifyRaw(message(RdmaNldev.type(NldevMonitor.CMD_MONITOR), 77, true));
			// no RDMA_NLDEV_ATTR_EVENT_TYPE
			this.fake.notifyRaw(message(RdmaNldev.type(NldevMonitor.CMD_MONITOR), 0, false));
			// another command's message
			this.fake.notifyRaw(message(RdmaNldev.type(RdmaNldev.CMD_GET), 0, true));
			// an attribute whose length runs past the message
			byte[] broken = message(RdmaNldev.type(NldevMonitor.CMD_MONITOR), 0, true);
			ByteBuffer.wrap(broken).order(ByteOrder.nativeOrder()).putShort(16, (short) 200);
			this.fake.notifyRaw(broken);
			this.fake.addDevice("mlx5_0", 1, 1, "", "roce");
			NldevMonitorEvent event = next();
			assertThat(event.type()).isEqualTo(NldevMonitorEvent.Type.REGISTER);
			assertThat(this.events).isEmpty();
			assertThat(debug).anySatisfy((line) -> assertThat(line).contains("unknown type 77"))
				.anySatisfy((line) -> assertThat(line).contains("without RDMA_NLDEV_ATTR_EVENT_TYPE"))
				.anySatisfy((line) -> assertThat(line).contains("Skipped a netlink message of type"))
				.anySatisfy((line) -> assertThat(line).contains("Skipped a malformed RDMA monitor event"));
			assertThat(this.monitor.isRunning()).isTrue();
		}
		finally {
			logger.removeHandler(handler);
			logger.setLevel(level);
		}
	}

	@Test
	void registeredDeviceIsDiscoveredWithoutARead(@TempDir Path temp) throws Exception {
		Path root = SysfsFixtures.copy("mlx5-roce", temp.resolve("root"));
		try (SysfsHostPortCountersSource host = new SysfsHostPortCountersSource(new FileSystemSysfsTree(root),
				NameFilter.all(), NameFilter.all(), Duration.ofHours(1), Clock.systemUTC())) {
			assertThat(names(host)).containsExactly("mlx5_1");
			start(new MonitorEventActions(host, null, List::of));
			// the driver adds the sysfs directory, then registers: the event follows
			// KOBJ_ADD
			Path other = SysfsFixtures.copy("mlx5-roce", temp.resolve("other"));
			Files.move(other.resolve("mlx5_1"), root.resolve("mlx5_2"));
			assertThat(names(host)).as("cached for an hour without the event").containsExactly("mlx5_1");
			int index = this.fake.addDevice("mlx5_2", 1, 2, "", "roce");
			await().atMost(Duration.ofSeconds(10)).until(() -> names(host).contains("mlx5_2"));
			// unregistered: the next read lists the devices again
			deleteTree(root.resolve("mlx5_2"));
			this.fake.removeDevice(index);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> host.snapshot().device("mlx5_2").presence() == Presence.GONE);
		}
	}

	private static List<String> names(SysfsHostPortCountersSource host) {
		List<String> names = new ArrayList<>();
		for (PortCountersSnapshot device : host.snapshot().devices()) {
			if (device.presence() != Presence.GONE) {
				names.add(device.deviceName());
			}
		}
		return names;
	}

	private static void deleteTree(Path path) throws java.io.IOException {
		try (var paths = Files.walk(path)) {
			for (Path each : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
				Files.delete(each);
			}
		}
	}

	private static boolean threadAlive() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.anyMatch((thread) -> thread.getName().equals(NldevMonitor.THREAD_NAME) && thread.isAlive());
	}

	/** A notification with one u32 device index, then the event type if asked. */
	private static byte[] message(int type, int eventType, boolean withEventType) {
		int length = 16 + 8 + (withEventType ? 8 : 0);
		ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.nativeOrder());
		buffer.putInt(length).putShort((short) type).putShort((short) 0).putInt(0).putInt(0);
		buffer.putShort((short) 8).putShort((short) RdmaNldev.ATTR_DEV_INDEX).putInt(3);
		if (withEventType) {
			buffer.putShort((short) 5).putShort((short) NldevMonitor.ATTR_EVENT_TYPE).put((byte) eventType);
			buffer.put(new byte[3]);
		}
		return buffer.array();
	}

}
