package io.github.rdmacounters.sysfs;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.PortCountersSource;
import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.core.ReadCache;

/**
 * Port counters and device information of one device, read from a {@link SysfsTree}:
 * {@code <dev>/fw_ver}, {@code board_id}, {@code hca_type}, {@code node_guid}, and for
 * each port {@code ports/<n>/state}, {@code phys_state}, {@code rate}, {@code link_layer}
 * and every file in {@code counters/}, {@code counters_ext/} and {@code hw_counters/}.
 * <p>
 * Each file is read once per snapshot, and a snapshot is reused for the cache
 * time-to-live: however many meters, endpoint calls and health checks ask within it, the
 * files are read once. Callers that ask while a read is in flight wait for it and share
 * its snapshot (single flight), whatever the time-to-live. The data counters
 * ({@code port_rcv_data}, {@code port_xmit_data} and their 64-bit {@code counters_ext}
 * variants) count 4-byte words; the snapshot reports bytes.
 * <p>
 * A device directory that vanishes (hot unplug, driver unload) gives a snapshot
 * {@link io.github.rdmacounters.core.Presence#GONE GONE} that lists the ports it had,
 * gone, without counters; a port directory that vanishes is listed as gone; a counter
 * file read in an earlier snapshot that is no longer there is listed in
 * {@link PortStatus#missing()} and has no value. {@link PortCountersSnapshot#identity()}
 * (network interfaces, PCI address, SR-IOV virtual function) is read once each time the
 * device is found.
 * <p>
 * A file that cannot be read (write-only, a read handler failing with {@code EINVAL} or
 * {@code EOPNOTSUPP}, {@code N/A (no PMA)}, not a number, vanished between listing and
 * reading) is skipped, listed in {@link PortStatus#unreadable()} and counted in
 * {@link #unreadableReads()}; it never sinks the other files. When a counter name occurs
 * in two groups the first group ({@code counters}, then {@code counters_ext}, then
 * {@code hw_counters}) keeps the plain name and the later one is keyed
 * {@code <group>/<name>}. Files that are settings rather than counters
 * ({@link #NON_COUNTERS}) are skipped.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public final class SysfsPortCountersSource implements PortCountersSource {

	/**
	 * The counter directories of a port, in the order they are read.
	 */
	public static final List<String> GROUPS = List.of("counters", "counters_ext", "hw_counters");

	/**
	 * The counters that count 4-byte words; reported in bytes.
	 */
	public static final Set<String> WORD_COUNTERS = Set.of("port_rcv_data", "port_xmit_data", "port_rcv_data_64",
			"port_xmit_data_64");

	/**
	 * Files in the counter directories that are not counters: mlx5's
	 * {@code hw_counters/lifespan} is the provider's counter cache lifespan in
	 * milliseconds, a writable setting.
	 */
	public static final Set<String> NON_COUNTERS = Set.of("lifespan");

	private final String deviceName;

	private final SysfsTree tree;

	private final Clock clock;

	private final ReadCache<PortCountersSnapshot> cache;

	private final SysfsDeviceReader reader;

	private final AtomicLong snapshots = new AtomicLong();

	private final AtomicLong unreadableReads = new AtomicLong();

	/**
	 * Create a source over a tree.
	 * @param deviceName the device name, the directory under the tree root
	 * @param tree the tree
	 * @param readCacheTtl how long a snapshot is reused; {@link Duration#ZERO} reads
	 * every time
	 * @param clock the clock that stamps snapshots and measures their age (a fixed clock
	 * never lets a snapshot expire; the system clock ages them by
	 * {@link System#nanoTime()})
	 */
	public SysfsPortCountersSource(String deviceName, SysfsTree tree, Duration readCacheTtl, Clock clock) {
		this.cache = new ReadCache<>(readCacheTtl, clock);
		this.deviceName = deviceName;
		this.tree = tree;
		this.clock = clock;
		this.reader = new SysfsDeviceReader(deviceName, tree, (name) -> true, this.unreadableReads);
	}

	/**
	 * Create a source over the file system whose snapshots are stamped by the system
	 * clock and aged by {@link System#nanoTime()}, so a change of the wall clock does not
	 * keep a snapshot alive. Nothing closes such a source, so it keeps no file open
	 * (unlike {@link SysfsHostPortCountersSource#of}).
	 * @param deviceName the device name
	 * @param root the directory holding the device directories, usually
	 * {@link FileSystemSysfsTree#DEFAULT_ROOT}
	 * @param readCacheTtl how long a snapshot is reused
	 * @return the source
	 */
	public static SysfsPortCountersSource of(String deviceName, Path root, Duration readCacheTtl) {
		return new SysfsPortCountersSource(deviceName, new FileSystemSysfsTree(root, false), readCacheTtl,
				Clock.systemUTC());
	}

	@Override
	public String deviceName() {
		return this.deviceName;
	}

	/**
	 * Return the tree the files are read from.
	 * @return the tree
	 */
	public SysfsTree tree() {
		return this.tree;
	}

	/**
	 * Return whether the device directory exists in the tree.
	 * @return {@code true} if it can be listed
	 */
	public boolean exists() {
		try {
			this.tree.list(this.deviceName);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * Return how many snapshots were read from the tree so far (not counting reused
	 * ones). For the tests of this package.
	 * @return the number of snapshots read
	 */
	long snapshotsRead() {
		return this.snapshots.get();
	}

	/**
	 * Return how many file reads failed so far, over all snapshots.
	 * @return the number of unreadable files met
	 */
	public long unreadableReads() {
		return this.unreadableReads.get();
	}

	@Override
	public PortCountersSnapshot snapshot() {
		return this.cache.get(this::readNow);
	}

	private PortCountersSnapshot readNow() {
		this.snapshots.incrementAndGet();
		return this.reader.read(this.clock.instant());
	}

	@Override
	public String toString() {
		return "SysfsPortCountersSource " + this.deviceName + " in " + this.tree.describe();
	}

}
