package io.github.rdmacounters.sysfs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.rdmacounters.core.DeviceIdentity;
import io.github.rdmacounters.core.HostPortCountersSnapshot;
import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.core.PhysicalPortState;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.PortCountersSource;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.core.Presence;
import io.github.rdmacounters.testsupport.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SysfsHostPortCountersSource} on a host of four kinds of devices and a
 * virtual function ({@link HostSysfs#fourKinds(Path)}).
 */
class SysfsHostPortCountersSourceTests {

	private static final List<String> ALL_DEVICES = List.of("bnxt_re0", "irdma0", "mlx5_0", "mlx5_1", "mlx5_2");

	private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T08:00:00Z"));

	@TempDir
	Path temp;

	private HostSysfs host;

	@BeforeEach
	void buildHost() {
		this.host = HostSysfs.fourKinds(this.temp);
	}

	private SysfsHostPortCountersSource source(Duration ttl) {
		return source(new FileSystemSysfsTree(this.host.root()), NameFilter.all(), NameFilter.all(), ttl);
	}

	private SysfsHostPortCountersSource source(SysfsTree tree, Predicate<String> devices, Predicate<String> counters,
			Duration ttl) {
		return new SysfsHostPortCountersSource(tree, devices, counters, ttl, this.clock);
	}

	@Test
	void everyDeviceOfTheHostIsReportedWithItsPortsCountersAndTypedLink() {
		HostPortCountersSnapshot snapshot = source(Duration.ZERO).snapshot();
		assertThat(snapshot.presentDevices()).containsExactlyElementsOf(ALL_DEVICES);
		assertThat(snapshot.goneDevices()).isEmpty();
		assertThat(snapshot.readAt()).isEqualTo(Instant.parse("2026-12-01T08:00:00Z"));
		PortStatus infiniBand = snapshot.device("mlx5_0").port(1);
		assertThat(infiniBand.link().state()).isEqualTo(PortState.ACTIVE);
		assertThat(infiniBand.link().physicalState()).isEqualTo(PhysicalPortState.LINK_UP);
		assertThat(infiniBand.link().linkLayer()).isEqualTo(LinkLayer.INFINIBAND);
		assertThat(infiniBand.link().rate().bitsPerSecond()).isEqualTo(200e9);
		assertThat(infiniBand.counters()).hasSize(21 + 18).containsEntry("port_rcv_data", 10_000_000_000L);
		PortCountersSnapshot roce = snapshot.device("mlx5_1");
		assertThat(roce.ports()).extracting(PortStatus::port).containsExactly(1, 2);
		assertThat(roce.port(1).link().linkLayer()).isEqualTo(LinkLayer.ETHERNET);
		assertThat(roce.port(1).counters()).containsEntry("np_cnp_sent", 42L);
		assertThat(roce.port(2).link().state()).isEqualTo(PortState.DOWN);
		assertThat(roce.port(2).link().physicalState()).isEqualTo(PhysicalPortState.DISABLED);
		assertThat(snapshot.device("mlx5_2").ports()).extracting(PortStatus::port).containsExactly(1);
		PortStatus iwarp = snapshot.device("irdma0").port(1);
		assertThat(iwarp.unreadable()).hasSize(21);
		assertThat(iwarp.counters()).hasSize(30).containsEntry("tcpRetransSegs", 12L);
		PortStatus broadcom = snapshot.device("bnxt_re0").port(1);
		assertThat(broadcom.counters()).hasSize(29).doesNotContainKey("port_rcv_data");
		assertThat(broadcom.groups().values()).containsOnly("hw_counters");
		for (PortCountersSnapshot device : snapshot.devices()) {
			assertThat(device.presence()).isEqualTo(Presence.PRESENT);
			assertThat(device.ports()).allSatisfy((port) -> {
				assertThat(port.isPresent()).isTrue();
				assertThat(port.missing()).isEmpty();
			});
		}
	}

	@Test
	void eachDeviceReportsItsNetdevPciAddressAndWhetherItIsAVirtualFunction() {
		HostPortCountersSnapshot snapshot = source(Duration.ZERO).snapshot();
		assertThat(snapshot.device("mlx5_0").identity())
			.isEqualTo(new DeviceIdentity(List.of("ib0"), "0000:08:00.0", false, null));
		assertThat(snapshot.device("mlx5_1").identity())
			.isEqualTo(new DeviceIdentity(List.of("ens1f0np0"), "0000:41:00.0", false, null));
		assertThat(snapshot.device("mlx5_2").identity())
			.isEqualTo(new DeviceIdentity(List.of("ens1f0v0"), "0000:41:00.2", true, "0000:41:00.0"));
		assertThat(snapshot.device("irdma0").identity().netdevs()).containsExactly("ens2f0");
		assertThat(snapshot.device("bnxt_re0").identity().pciAddress()).isEqualTo("0000:3b:00.0");
	}

	@Test
	void identityIsReadOnceWhileTheDeviceStays() throws IOException {
		CountingTree tree = new CountingTree(new FileSystemSysfsTree(this.host.root()));
		SysfsHostPortCountersSource source = source(tree, NameFilter.all(), NameFilter.all(), Duration.ZERO);
		source.snapshot();
		Files.createDirectories(this.host.file("mlx5_0", "device/net/ib1"));
		HostPortCountersSnapshot second = source.snapshot();
		assertThat(tree.resolved.get("mlx5_0/device")).hasValue(1);
		assertThat(tree.lists.get("mlx5_0/device/net")).hasValue(1);
		assertThat(second.device("mlx5_0").identity().netdevs()).containsExactly("ib0");
		assertThat(source.snapshotsRead()).isEqualTo(2);
	}

	@Test
	void aDeletedDeviceDirectoryIsReportedGoneWithItsPortsAndTheOtherDevicesAreUnchanged() {
		SysfsHostPortCountersSource source = source(Duration.ZERO);
		HostPortCountersSnapshot before = source.snapshot();
		this.host.removeDevice("mlx5_1");
		HostPortCountersSnapshot after = source.snapshot();
		assertThat(after.goneDevices()).containsExactly("mlx5_1");
		assertThat(after.presentDevices()).containsExactly("bnxt_re0", "irdma0", "mlx5_0", "mlx5_2");
		PortCountersSnapshot gone = after.device("mlx5_1");
		assertThat(gone.presence()).isEqualTo(Presence.GONE);
		assertThat(gone.firmwareVersion()).isNull();
		assertThat(gone.identity().pciAddress()).isEqualTo("0000:41:00.0");
		assertThat(gone.ports()).extracting(PortStatus::port).containsExactly(1, 2);
		assertThat(gone.ports()).allSatisfy((port) -> {
			assertThat(port.presence()).isEqualTo(Presence.GONE);
			assertThat(port.counters()).isEmpty();
			assertThat(port.state()).isNull();
		});
		assertThat(source.device("mlx5_1").snapshot().isPresent()).isFalse();
		for (String name : List.of("bnxt_re0", "irdma0", "mlx5_0", "mlx5_2")) {
			assertThat(after.device(name).ports()).isEqualTo(before.device(name).ports());
			assertThat(after.device(name).identity()).isEqualTo(before.device(name).identity());
		}
		assertThat(source.snapshot().goneDevices()).containsExactly("mlx5_1");
	}

	@Test
	void filesKeptOpenAreClosedWhenTheirDeviceGoesAndTheDeviceIsReadAnewWhenItComesBack() {
		FileSystemSysfsTree tree = new FileSystemSysfsTree(this.host.root(), true);
		SysfsHostPortCountersSource source = source(tree, NameFilter.of(List.of("mlx5_0"), List.of()), NameFilter.all(),
				Duration.ZERO);
		source.snapshot();
		source.snapshot();
		int kept = tree.keptFiles();
		assertThat(kept).as("4 device files, per port 4 state files and the counters").isGreaterThan(4 + 2 * 4);
		this.host.removeDevice("mlx5_0");
		assertThat(source.snapshot().goneDevices()).containsExactly("mlx5_0");
		assertThat(tree.keptFiles()).isZero();
		this.host.addDevice("mlx5-infiniband", "mlx5_0", "mlx5_0", "0000:09:00.0", "ibp9s0", null);
		PortCountersSnapshot back = source.snapshot().device("mlx5_0");
		assertThat(back.port(1).counters()).containsEntry("port_rcv_data", 10_000_000_000L);
		assertThat(source.snapshot().device("mlx5_0").port(1).counters()).containsEntry("port_rcv_data",
				10_000_000_000L);
		assertThat(tree.keptFiles()).isEqualTo(kept);
		source.close();
		assertThat(tree.keptFiles()).as("a tree given to the source is its owner's to close").isEqualTo(kept);
		tree.close();
		assertThat(tree.keptFiles()).isZero();
	}

	@Test
	void aDeviceLinkLeftDanglingIsReportedGone() {
		SysfsHostPortCountersSource source = source(Duration.ZERO);
		source.snapshot();
		HostSysfs.delete(this.host.deviceDirectory("irdma0"));
		HostPortCountersSnapshot after = source.snapshot();
		assertThat(after.goneDevices()).containsExactly("irdma0");
		assertThat(after.device("irdma0").port(1).isPresent()).isFalse();
	}

	@Test
	void aDeletedPortDirectoryIsReportedGoneAndTheOtherPortIsUnchanged() {
		SysfsHostPortCountersSource source = source(Duration.ZERO);
		PortCountersSnapshot before = source.snapshot().device("mlx5_1");
		this.host.deletePort("mlx5_1", 2);
		PortCountersSnapshot after = source.snapshot().device("mlx5_1");
		assertThat(after.isPresent()).isTrue();
		assertThat(after.port(2).presence()).isEqualTo(Presence.GONE);
		assertThat(after.port(2).counters()).isEmpty();
		assertThat(after.port(1)).isEqualTo(before.port(1));
	}

	@Test
	void aDeletedCounterFileIsReportedMissingInsteadOfKeepingItsValueUntilItComesBack() throws IOException {
		SysfsHostPortCountersSource source = source(Duration.ZERO);
		HostPortCountersSnapshot before = source.snapshot();
		Path outOfBuffer = this.host.file("mlx5_1", "ports/1/hw_counters/out_of_buffer");
		String content = Files.readString(outOfBuffer);
		Files.delete(outOfBuffer);
		Files.delete(this.host.file("mlx5_1", "ports/1/counters/symbol_error"));
		HostPortCountersSnapshot after = source.snapshot();
		PortStatus port = after.device("mlx5_1").port(1);
		assertThat(port.missing()).containsExactly("counters/symbol_error", "hw_counters/out_of_buffer");
		assertThat(port.counters()).doesNotContainKeys("out_of_buffer", "symbol_error").containsKey("port_rcv_data");
		assertThat(port.unreadable()).isEmpty();
		assertThat(after.device("mlx5_1").port(2).missing()).isEmpty();
		assertThat(after.device("mlx5_2").ports()).isEqualTo(before.device("mlx5_2").ports());
		Files.writeString(outOfBuffer, content);
		PortStatus restored = source.snapshot().device("mlx5_1").port(1);
		assertThat(restored.missing()).containsExactly("counters/symbol_error");
		assertThat(restored.counters()).containsKey("out_of_buffer");
	}

	@Test
	void aDeviceAddedLaterAppearsAtTheFirstReadAfterTheCachedSnapshotExpires() {
		SysfsHostPortCountersSource source = source(Duration.ofSeconds(5));
		assertThat(source.snapshot().presentDevices()).containsExactlyElementsOf(ALL_DEVICES);
		this.host.addDevice("mlx4-counters-ext", "mlx4_0", "mlx4_0", "0000:81:00.0", "ib1", null);
		assertThat(source.snapshot().device("mlx4_0")).isNull();
		this.clock.advance(Duration.ofSeconds(5));
		HostPortCountersSnapshot later = source.snapshot();
		assertThat(later.presentDevices()).containsExactly("bnxt_re0", "irdma0", "mlx4_0", "mlx5_0", "mlx5_1",
				"mlx5_2");
		assertThat(later.device("mlx4_0").port(1).counters()).containsKey("port_rcv_data_64");
		assertThat(later.device("mlx4_0").identity().netdevs()).containsExactly("ib1");
		assertThat(source.snapshotsRead()).isEqualTo(2);
	}

	@Test
	void aDeviceThatComesBackAfterADriverReloadIsPresentWithItsNewIdentity() {
		SysfsHostPortCountersSource source = source(Duration.ZERO);
		source.snapshot();
		this.host.removeDevice("mlx5_0");
		assertThat(source.snapshot().goneDevices()).containsExactly("mlx5_0");
		this.host.addDevice("mlx5-infiniband", "mlx5_0", "mlx5_0", "0000:09:00.0", "ibp9s0", null);
		PortCountersSnapshot back = source.snapshot().device("mlx5_0");
		assertThat(back.isPresent()).isTrue();
		assertThat(back.identity()).isEqualTo(new DeviceIdentity(List.of("ibp9s0"), "0000:09:00.0", false, null));
		assertThat(back.port(1).missing()).isEmpty();
		assertThat(back.port(1).counters()).containsEntry("port_rcv_data", 10_000_000_000L);
	}

	@Test
	void counterDirectoriesAreListedOncePerRegistrationAndEveryFileIsReadEachTime() {
		CountingTree tree = new CountingTree(new FileSystemSysfsTree(this.host.root()));
		SysfsHostPortCountersSource source = source(tree, NameFilter.all(), NameFilter.all(), Duration.ZERO);
		for (int i = 0; i < 3; i++) {
			assertThat(source.snapshot().device("mlx5_0").port(1).counters()).containsKey("port_rcv_data");
		}
		assertThat(tree.lists.get("mlx5_0/ports/1/counters")).hasValue(1);
		assertThat(tree.lists.get("mlx5_0/ports/1/hw_counters")).hasValue(1);
		assertThat(tree.lists.get("mlx5_0/ports")).hasValue(3);
		assertThat(tree.reads.get("mlx5_0/ports/1/counters/port_rcv_data")).hasValue(3);
		assertThat(tree.reads.get("mlx5_0/ports/1/state")).hasValue(3);
		this.host.removeDevice("mlx5_0");
		source.snapshot();
		this.host.addDevice("mlx5-infiniband", "mlx5_0", "mlx5_0", "0000:09:00.0", "ibp9s0", null);
		assertThat(source.snapshot().device("mlx5_0").port(1).counters()).containsKey("port_rcv_data");
		assertThat(tree.lists.get("mlx5_0/ports/1/counters")).hasValue(2);
	}

	@Test
	void aDriverReloadBetweenTwoReadsIsSeenByTheNewRegistrationsIdentityAndFiles() throws IOException {
		SysfsHostPortCountersSource source = source(Duration.ZERO);
		PortCountersSnapshot before = source.snapshot().device("mlx5_1");
		assertThat(before.port(1).counters()).containsKey("np_cnp_sent");
		// registered again in a new directory before the old one goes, as a reload that
		// falls between two scrapes looks to the reader
		Files.move(this.host.root().resolve("mlx5_1"), this.host.root().resolve("mlx5_1-old"));
		this.host.addDevice("mlx5-infiniband", "mlx5_0", "mlx5_1", "0000:0a:00.0", "ibp10s0", null);
		this.host.removeDevice("mlx5_1-old");
		PortCountersSnapshot after = source.snapshot().device("mlx5_1");
		assertThat(after.isPresent()).isTrue();
		assertThat(after.identity().pciAddress()).isEqualTo("0000:0a:00.0");
		assertThat(after.port(1).counters()).doesNotContainKey("np_cnp_sent").containsKey("out_of_buffer");
		assertThat(after.port(1).missing()).contains("hw_counters/np_cnp_sent");
	}

	@Test
	void deviceFilterTakesNamesAndGlobsAndExcludedDevicesAreNotRead() {
		CountingTree tree = new CountingTree(new FileSystemSysfsTree(this.host.root()));
		SysfsHostPortCountersSource source = source(tree, NameFilter.of(List.of("mlx5_*", "irdma0"), List.of("mlx5_2")),
				NameFilter.all(), Duration.ZERO);
		assertThat(source.snapshot().presentDevices()).containsExactly("irdma0", "mlx5_0", "mlx5_1");
		assertThat(tree.reads.keySet()).noneMatch((path) -> path.startsWith("mlx5_2/") || path.startsWith("bnxt_re0/"));
		assertThat(tree.lists.keySet()).noneMatch((path) -> path.startsWith("mlx5_2") || path.startsWith("bnxt_re0"));
	}

	@Test
	void counterFilterChoosesWhichCounterFilesAreRead() {
		CountingTree tree = new CountingTree(new FileSystemSysfsTree(this.host.root()));
		SysfsHostPortCountersSource source = source(tree, NameFilter.all(),
				NameFilter.of(List.of("port_*_data", "out_of_buffer"), List.of()), Duration.ZERO);
		PortStatus port = source.snapshot().device("mlx5_1").port(1);
		assertThat(port.counters()).containsOnlyKeys("port_rcv_data", "port_xmit_data", "out_of_buffer");
		assertThat(tree.reads).doesNotContainKey("mlx5_1/ports/1/counters/symbol_error")
			.containsKey("mlx5_1/ports/1/counters/port_rcv_data")
			.containsKey("mlx5_1/ports/1/state");
	}

	@Test
	void oneReadServesEveryDeviceViewWithinTheTimeToLive() {
		SysfsHostPortCountersSource source = source(Duration.ofSeconds(5));
		PortCountersSource infiniBand = source.device("mlx5_0");
		PortCountersSource roce = source.device("mlx5_1");
		assertThat(infiniBand.deviceName()).isEqualTo("mlx5_0");
		assertThat(infiniBand.snapshot().port(1).isActive()).isTrue();
		assertThat(roce.snapshot().port(2).isActive()).isFalse();
		assertThat(source.snapshot().devices()).hasSize(5);
		assertThat(source.snapshotsRead()).isEqualTo(1);
		PortCountersSnapshot unknown = source.device("mlx5_9").snapshot();
		assertThat(unknown.presence()).isEqualTo(Presence.GONE);
		assertThat(unknown.ports()).isEmpty();
		assertThat(source.snapshotsRead()).isEqualTo(1);
	}

	@Test
	void deviceNamesAreThoseOfTheSnapshotAndReadNoFileBeforeTheFirst() throws IOException {
		Files.writeString(this.host.root().resolve("not_a_device"), "");
		CountingTree tree = new CountingTree(new FileSystemSysfsTree(this.host.root()));
		SysfsHostPortCountersSource source = source(tree, NameFilter.of(List.of(), List.of("mlx5_2")), NameFilter.all(),
				Duration.ZERO);
		assertThat(source.deviceNames()).containsExactly("bnxt_re0", "irdma0", "mlx5_0", "mlx5_1");
		assertThat(tree.reads).isEmpty();
		assertThat(source.snapshotsRead()).isZero();
		assertThat(source.snapshot().devices()).extracting(PortCountersSnapshot::deviceName)
			.containsExactly("bnxt_re0", "irdma0", "mlx5_0", "mlx5_1");
		// a device seen before and gone is still shown, as GONE
		this.host.removeDevice("irdma0");
		assertThat(source.deviceNames()).containsExactly("bnxt_re0", "irdma0", "mlx5_0", "mlx5_1");
		assertThat(source.snapshot().device("irdma0").presence()).isEqualTo(Presence.GONE);
	}

	@Test
	void aMissingRootHasNoDevicesAndARemovedRootReportsEveryDeviceGone() {
		SysfsHostPortCountersSource missing = source(new FileSystemSysfsTree(this.temp.resolve("nothing")),
				NameFilter.all(), NameFilter.all(), Duration.ZERO);
		assertThat(missing.snapshot().devices()).isEmpty();
		SysfsHostPortCountersSource source = source(Duration.ZERO);
		source.snapshot();
		HostSysfs.delete(this.host.root());
		HostPortCountersSnapshot after = source.snapshot();
		assertThat(after.presentDevices()).isEmpty();
		assertThat(after.goneDevices()).containsExactlyElementsOf(ALL_DEVICES);
	}

	@Test
	void aFileInTheRootIsNotADevice() throws IOException {
		Files.writeString(this.host.root().resolve("README"), "not a device\n");
		HostPortCountersSnapshot snapshot = source(Duration.ZERO).snapshot();
		assertThat(snapshot.device("README")).isNull();
		assertThat(snapshot.presentDevices()).containsExactlyElementsOf(ALL_DEVICES);
	}

	/**
	 * A tree that counts the reads, listings and link resolutions of each path.
	 */
	static final class CountingTree implements SysfsTree {

		final Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();

		final Map<String, AtomicInteger> lists = new ConcurrentHashMap<>();

		final Map<String, AtomicInteger> resolved = new ConcurrentHashMap<>();

		private final SysfsTree delegate;

		CountingTree(SysfsTree delegate) {
			this.delegate = delegate;
		}

		@Override
		public List<String> list(String path) throws IOException {
			this.lists.computeIfAbsent(path, (key) -> new AtomicInteger()).incrementAndGet();
			return this.delegate.list(path);
		}

		@Override
		public String read(String path) throws IOException {
			this.reads.computeIfAbsent(path, (key) -> new AtomicInteger()).incrementAndGet();
			return this.delegate.read(path);
		}

		@Override
		public @Nullable String resolvedName(String path) {
			this.resolved.computeIfAbsent(path, (key) -> new AtomicInteger()).incrementAndGet();
			return this.delegate.resolvedName(path);
		}

		@Override
		public @Nullable Object directoryKey(String path) {
			return this.delegate.directoryKey(path);
		}

		@Override
		public String describe() {
			return "counting " + this.delegate.describe();
		}

	}

}
