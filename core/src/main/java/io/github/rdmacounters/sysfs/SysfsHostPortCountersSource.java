package io.github.rdmacounters.sysfs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.HostPortCountersSnapshot;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.Presence;
import io.github.rdmacounters.core.ReadCache;
import io.github.rdmacounters.core.ReadStall;
import io.github.rdmacounters.core.ReadStalledException;

/**
 * Port counters of every device under a sysfs root ({@code /sys/class/infiniband}): each
 * read lists the root, so a device that appears (hotplug, driver reload) is in the next
 * snapshot, and a device seen before whose directory is gone is reported
 * {@link Presence#GONE} with its ports, without counters, until it reappears. Each device
 * is read the way {@link SysfsPortCountersSource} reads one (ports that vanish are gone,
 * counter files that vanish are missing, identity and counter directories read once per
 * registration of the device).
 * <p>
 * A device filter (names and globs, see {@link NameFilter}) chooses the devices; a
 * counter filter chooses the counter files read, by file name. Snapshots are memoised for
 * the read cache time-to-live with single flight, as {@link SysfsPortCountersSource}
 * does: one scrape of every device's meters, endpoint calls and health checks within it
 * read the tree once.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public final class SysfsHostPortCountersSource implements HostPortCountersSource, AutoCloseable {

	private final SysfsTree tree;

	private final Predicate<String> deviceFilter;

	private final Predicate<String> counterFilter;

	private final Clock clock;

	private final ReadCache<HostPortCountersSnapshot> cache;

	/** The devices seen so far, by name; touched only by reads, which never overlap. */
	private final Map<String, SysfsDeviceReader> readers = new TreeMap<>();

	private final AtomicLong snapshots = new AtomicLong();

	/** The last snapshot read, whose devices a stalled snapshot shows without values. */
	private volatile @Nullable HostPortCountersSnapshot lastRead;

	private final AtomicLong unreadableReads = new AtomicLong();

	/** The tree this source made, closed with it. */
	private final @Nullable FileSystemSysfsTree ownTree;

	/**
	 * Create a source over a tree.
	 * @param tree the tree whose root holds one directory per device
	 * @param deviceFilter which devices are read, by name
	 * @param counterFilter which counter files are read, by file name (e.g.
	 * {@code port_rcv_data}, {@code out_of_buffer})
	 * @param readCacheTtl how long a snapshot is reused; {@link Duration#ZERO} reads
	 * every time
	 * @param clock the clock that stamps snapshots and measures their age (the system
	 * clock ages them by {@link System#nanoTime()})
	 */
	public SysfsHostPortCountersSource(SysfsTree tree, Predicate<String> deviceFilter, Predicate<String> counterFilter,
			Duration readCacheTtl, Clock clock) {
		this(tree, deviceFilter, counterFilter, readCacheTtl, clock, ReadCache.NO_DEADLINE, null);
	}

	/**
	 * Create a source over a tree whose snapshots are read in a reader thread, which no
	 * caller waits for longer than the deadline: a snapshot not read by then has every
	 * device of the last one without values, and names the file the read is stuck in
	 * ({@link HostPortCountersSnapshot#stall()}).
	 * @param tree the tree whose root holds one directory per device
	 * @param deviceFilter which devices are read, by name
	 * @param counterFilter which counter files are read, by file name
	 * @param readCacheTtl how long a snapshot is reused
	 * @param clock the clock that stamps snapshots and measures their age
	 * @param readDeadline how long a caller waits for a snapshot;
	 * {@link ReadCache#NO_DEADLINE} reads on the caller's thread
	 */
	public SysfsHostPortCountersSource(SysfsTree tree, Predicate<String> deviceFilter, Predicate<String> counterFilter,
			Duration readCacheTtl, Clock clock, Duration readDeadline) {
		this(tree, deviceFilter, counterFilter, readCacheTtl, clock, readDeadline, null);
	}

	private SysfsHostPortCountersSource(SysfsTree tree, Predicate<String> deviceFilter, Predicate<String> counterFilter,
			Duration readCacheTtl, Clock clock, Duration readDeadline, @Nullable FileSystemSysfsTree ownTree) {
		this.cache = new ReadCache<>(readCacheTtl, clock, readDeadline);
		this.tree = tree;
		this.ownTree = ownTree;
		this.deviceFilter = deviceFilter;
		this.counterFilter = counterFilter;
		this.clock = clock;
	}

	/**
	 * Create a source over the file system whose snapshots are stamped by the system
	 * clock and aged by {@link System#nanoTime()}. On sysfs the files read at every
	 * snapshot are kept open until {@link #close()} (see
	 * {@link FileSystemSysfsTree#keepsFilesOpen()}).
	 * @param root the directory holding the device directories, usually
	 * {@link FileSystemSysfsTree#DEFAULT_ROOT}
	 * @param deviceFilter which devices are read, e.g.
	 * {@code NameFilter.of(List.of("mlx5_*"), List.of("mlx5_9"))}
	 * @param counterFilter which counter files are read, e.g. {@link NameFilter#all()}
	 * @param readCacheTtl how long a snapshot is reused
	 * @return the source
	 */
	public static SysfsHostPortCountersSource of(Path root, Predicate<String> deviceFilter,
			Predicate<String> counterFilter, Duration readCacheTtl) {
		return of(root, deviceFilter, counterFilter, readCacheTtl, ReadCache.NO_DEADLINE);
	}

	/**
	 * Create a source over the file system as
	 * {@link #of(Path, Predicate, Predicate, Duration)} does, whose snapshots no caller
	 * waits for longer than the deadline.
	 * @param root the directory holding the device directories
	 * @param deviceFilter which devices are read
	 * @param counterFilter which counter files are read
	 * @param readCacheTtl how long a snapshot is reused
	 * @param readDeadline how long a caller waits for a snapshot
	 * @return the source
	 */
	public static SysfsHostPortCountersSource of(Path root, Predicate<String> deviceFilter,
			Predicate<String> counterFilter, Duration readCacheTtl, Duration readDeadline) {
		FileSystemSysfsTree tree = new FileSystemSysfsTree(root);
		return new SysfsHostPortCountersSource(tree, deviceFilter, counterFilter, readCacheTtl, Clock.systemUTC(),
				readDeadline, tree);
	}

	/**
	 * Close the files the tree made by {@link #of} keeps open; a snapshot read after this
	 * opens every file, and a tree given to the constructor is left to its owner.
	 */
	@Override
	public void close() {
		if (this.ownTree != null) {
			this.ownTree.close();
		}
	}

	/**
	 * Return the tree the files are read from.
	 * @return the tree
	 */
	public SysfsTree tree() {
		return this.tree;
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
	 * Return how many file reads failed so far, over all snapshots and devices.
	 * @return the number of unreadable files met
	 */
	public long unreadableReads() {
		return this.unreadableReads.get();
	}

	/**
	 * Return the snapshot; while a read is past its deadline, the devices of the last
	 * snapshot read, present and without values (NaN), marked with the stall.
	 */
	@Override
	public HostPortCountersSnapshot snapshot() {
		try {
			return this.cache.get(this::readNow);
		}
		catch (ReadStalledException ex) {
			return stalled(ex.stall());
		}
	}

	private HostPortCountersSnapshot stalled(ReadStall stall) {
		HostPortCountersSnapshot last = this.lastRead;
		Instant now = this.clock.instant();
		if (last == null) {
			return new HostPortCountersSnapshot(List.of(), now, stall);
		}
		List<PortCountersSnapshot> devices = new ArrayList<>(last.devices().size());
		for (PortCountersSnapshot device : last.devices()) {
			devices.add(device.stalled(stall, now));
		}
		return new HostPortCountersSnapshot(devices, now, stall);
	}

	/**
	 * Return the read cache's record of the reads of this source, for the self-metrics.
	 * @return the cache
	 */
	public ReadCache<HostPortCountersSnapshot> reads() {
		return this.cache;
	}

	/**
	 * Before the first snapshot, answer as that snapshot would, from directory listings
	 * alone: no device was seen yet, so a device is shown if the root lists it, the
	 * filter takes it and its directory can be listed ({@link SysfsDeviceReader#read}).
	 */
	@Override
	public Set<String> deviceNames() {
		if (this.snapshots.get() > 0) {
			return HostPortCountersSource.super.deviceNames();
		}
		Set<String> names = new TreeSet<>();
		for (String name : listRoot()) {
			if (this.deviceFilter.test(name) && (listable(name + "/ports") || listable(name))) {
				names.add(name);
			}
		}
		return names;
	}

	private boolean listable(String path) {
		try {
			this.tree.list(path);
			return true;
		}
		catch (IOException | UncheckedIOException ex) {
			return false;
		}
	}

	@Override
	public void invalidate() {
		this.cache.invalidate();
	}

	private HostPortCountersSnapshot readNow() {
		this.snapshots.incrementAndGet();
		Instant readAt = this.clock.instant();
		Set<String> listed = new TreeSet<>();
		for (String name : listRoot()) {
			if (this.deviceFilter.test(name)) {
				listed.add(name);
			}
		}
		Set<String> names = new TreeSet<>(this.readers.keySet());
		names.addAll(listed);
		List<PortCountersSnapshot> devices = new ArrayList<>(names.size());
		for (String name : names) {
			SysfsDeviceReader reader = this.readers.get(name);
			if (reader == null) {
				reader = new SysfsDeviceReader(name, this.tree, this.counterFilter, this.unreadableReads);
			}
			PortCountersSnapshot device = listed.contains(name) ? reader.read(readAt) : reader.gone(readAt);
			if (!reader.everPresent()) {
				// listed but never readable as a directory: not a device
				this.readers.remove(name);
				continue;
			}
			this.readers.put(name, reader);
			devices.add(device);
		}
		HostPortCountersSnapshot snapshot = new HostPortCountersSnapshot(devices, readAt);
		this.lastRead = snapshot;
		return snapshot;
	}

	/**
	 * List the root; a root that cannot be listed (no RDMA stack loaded) has no devices,
	 * so every device seen before is gone.
	 */
	private List<String> listRoot() {
		try {
			return this.tree.list("");
		}
		catch (IOException | UncheckedIOException ex) {
			return List.of();
		}
	}

	@Override
	public String toString() {
		return "SysfsHostPortCountersSource " + this.tree.describe() + " devices " + this.deviceFilter;
	}

}
