package io.github.rdmacounters.sysfs;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.PortCountersSource;
import io.github.rdmacounters.core.PortStatus;

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
 * A file that cannot be read (write-only, a read handler failing with {@code EINVAL} or
 * {@code EOPNOTSUPP}, {@code N/A (no PMA)}, not a number, vanished between listing and
 * reading) is skipped, listed in {@link PortStatus#unreadable()} and counted in
 * {@link #unreadableReads()}; it never sinks the other files. When a counter name occurs
 * in two groups the first group ({@code counters}, then {@code counters_ext}, then
 * {@code hw_counters}) keeps the plain name and the later one is keyed
 * {@code <group>/<name>}. Files that are settings rather than counters
 * ({@link #NON_COUNTERS}) are skipped.
 *
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

	private final long ttlNanos;

	private final Clock clock;

	private final LongSupplier nanoTime;

	private final Object readLock = new Object();

	private final AtomicLong snapshots = new AtomicLong();

	private final AtomicLong unreadableReads = new AtomicLong();

	private volatile @Nullable Cached cached;

	/** The read in flight, guarded by {@link #readLock}. */
	private @Nullable CompletableFuture<PortCountersSnapshot> inFlight;

	/**
	 * Create a source over a tree.
	 * @param deviceName the device name, the directory under the tree root
	 * @param tree the tree
	 * @param readCacheTtl how long a snapshot is reused; {@link Duration#ZERO} reads
	 * every time
	 * @param clock the clock that stamps snapshots and measures their age (a fixed clock
	 * never lets a snapshot expire)
	 */
	public SysfsPortCountersSource(String deviceName, SysfsTree tree, Duration readCacheTtl, Clock clock) {
		this(deviceName, tree, readCacheTtl, clock, () -> epochNanos(clock));
	}

	private SysfsPortCountersSource(String deviceName, SysfsTree tree, Duration readCacheTtl, Clock clock,
			LongSupplier nanoTime) {
		if (readCacheTtl.isNegative()) {
			throw new IllegalArgumentException("Read cache time-to-live must not be negative, but was " + readCacheTtl);
		}
		this.deviceName = deviceName;
		this.tree = tree;
		this.ttlNanos = toNanos(readCacheTtl);
		this.clock = clock;
		this.nanoTime = nanoTime;
	}

	private static long toNanos(Duration duration) {
		try {
			return duration.toNanos();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE;
		}
	}

	private static long epochNanos(Clock clock) {
		Instant now = clock.instant();
		return now.getEpochSecond() * 1_000_000_000L + now.getNano();
	}

	/**
	 * Create a source over the file system whose snapshots are stamped by the system
	 * clock and aged by {@link System#nanoTime()}, so a change of the wall clock does not
	 * keep a snapshot alive.
	 * @param deviceName the device name
	 * @param root the directory holding the device directories, usually
	 * {@link FileSystemSysfsTree#DEFAULT_ROOT}
	 * @param readCacheTtl how long a snapshot is reused
	 * @return the source
	 */
	public static SysfsPortCountersSource of(String deviceName, Path root, Duration readCacheTtl) {
		return new SysfsPortCountersSource(deviceName, new FileSystemSysfsTree(root), readCacheTtl, Clock.systemUTC(),
				System::nanoTime);
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
	 * ones).
	 * @return the number of snapshots read
	 */
	public long snapshotsRead() {
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
		Cached current = this.cached;
		if (current != null && isFresh(current)) {
			return current.snapshot();
		}
		CompletableFuture<PortCountersSnapshot> flight;
		boolean leader = false;
		synchronized (this.readLock) {
			current = this.cached;
			if (current != null && isFresh(current)) {
				return current.snapshot();
			}
			flight = this.inFlight;
			if (flight == null) {
				flight = new CompletableFuture<>();
				this.inFlight = flight;
				leader = true;
			}
		}
		return leader ? lead(flight) : follow(flight);
	}

	private PortCountersSnapshot lead(CompletableFuture<PortCountersSnapshot> flight) {
		PortCountersSnapshot read;
		try {
			read = readNow();
		}
		catch (RuntimeException | Error ex) {
			finish(null);
			flight.completeExceptionally(ex);
			throw ex;
		}
		finish(new Cached(read, this.nanoTime.getAsLong()));
		flight.complete(read);
		return read;
	}

	private void finish(@Nullable Cached read) {
		synchronized (this.readLock) {
			if (read != null) {
				this.cached = read;
			}
			this.inFlight = null;
		}
	}

	private static PortCountersSnapshot follow(CompletableFuture<PortCountersSnapshot> flight) {
		try {
			return flight.join();
		}
		catch (CompletionException ex) {
			if (ex.getCause() instanceof RuntimeException failure) {
				throw failure;
			}
			if (ex.getCause() instanceof Error error) {
				throw error;
			}
			throw ex;
		}
	}

	private boolean isFresh(Cached current) {
		if (this.ttlNanos == 0) {
			return false;
		}
		long age = this.nanoTime.getAsLong() - current.readAtNanos();
		return age >= 0 && age < this.ttlNanos;
	}

	private PortCountersSnapshot readNow() {
		this.snapshots.incrementAndGet();
		String base = this.deviceName + "/";
		List<String> ignored = new ArrayList<>();
		String firmware = readText(base + "fw_ver", ignored);
		String boardId = readText(base + "board_id", ignored);
		String hcaType = readText(base + "hca_type", ignored);
		String nodeGuid = readText(base + "node_guid", ignored);
		List<PortStatus> ports = new ArrayList<>();
		for (int port : listPorts(base + "ports")) {
			ports.add(readPort(base + "ports/" + port + "/", port));
		}
		Instant readAt = this.clock.instant();
		return new PortCountersSnapshot(this.deviceName, firmware, boardId, hcaType, nodeGuid, List.copyOf(ports),
				readAt);
	}

	private List<Integer> listPorts(String path) {
		List<Integer> ports = new ArrayList<>();
		for (String name : listOrEmpty(path)) {
			try {
				ports.add(Integer.parseInt(name));
			}
			catch (NumberFormatException ex) {
				// not a port directory
			}
		}
		Collections.sort(ports);
		return ports;
	}

	private List<String> listOrEmpty(String path) {
		try {
			return this.tree.list(path);
		}
		catch (IOException ex) {
			return List.of();
		}
	}

	private PortStatus readPort(String base, int port) {
		List<String> unreadable = new ArrayList<>();
		String state = SysfsValues.stripNumber(readText(base + "state", unreadable));
		String physicalState = SysfsValues.stripNumber(readText(base + "phys_state", unreadable));
		String rate = readText(base + "rate", unreadable);
		String linkLayer = readText(base + "link_layer", unreadable);
		Map<String, Long> counters = new LinkedHashMap<>();
		Map<String, String> groups = new LinkedHashMap<>();
		for (String group : GROUPS) {
			for (String name : listOrEmpty(base + group)) {
				if (NON_COUNTERS.contains(name)) {
					continue;
				}
				String path = base + group + "/" + name;
				Long value = readCounter(path);
				if (value == null) {
					unreadable.add(group + "/" + name);
					this.unreadableReads.incrementAndGet();
					continue;
				}
				if (WORD_COUNTERS.contains(name)) {
					value = wordsToBytes(value);
				}
				String key = counters.containsKey(name) ? group + "/" + name : name;
				counters.put(key, value);
				groups.put(key, group);
			}
		}
		List<String> relativeUnreadable = unreadable.stream()
			.map((path) -> path.startsWith(base) ? path.substring(base.length()) : path)
			.toList();
		return new PortStatus(port, state, physicalState, rate, linkLayer, Collections.unmodifiableMap(counters),
				Collections.unmodifiableMap(groups), relativeUnreadable);
	}

	private @Nullable String readText(String path, List<String> unreadable) {
		try {
			String text = this.tree.read(path).trim();
			if (!text.isEmpty() && !text.startsWith("N/A")) {
				return text;
			}
		}
		catch (IOException ex) {
			// listed as unreadable below
		}
		catch (RuntimeException ex) {
			// a tree that fails in another way is treated as an unreadable file
		}
		unreadable.add(path);
		this.unreadableReads.incrementAndGet();
		return null;
	}

	private @Nullable Long readCounter(String path) {
		String text;
		try {
			text = this.tree.read(path).trim();
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
		return SysfsValues.parseCounter(text);
	}

	private static long wordsToBytes(long words) {
		return (words > Long.MAX_VALUE / 4) ? Long.MAX_VALUE : words * 4;
	}

	@Override
	public String toString() {
		return "SysfsPortCountersSource " + this.deviceName + " in " + this.tree.describe();
	}

	/**
	 * A snapshot and the {@code nanoTime} it was read at, published together.
	 *
	 * @param snapshot the snapshot
	 * @param readAtNanos when it was read
	 */
	private record Cached(PortCountersSnapshot snapshot, long readAtNanos) {
	}

}
