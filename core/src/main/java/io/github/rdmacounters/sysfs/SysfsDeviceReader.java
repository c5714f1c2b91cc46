package io.github.rdmacounters.sysfs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.DeviceIdentity;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.PortLink;
import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.core.Presence;
import io.github.rdmacounters.core.ReadCache;

/**
 * Reads one device directory of a {@link SysfsTree} into a {@link PortCountersSnapshot}
 * and remembers what it has seen, so that a port directory or counter file that vanishes
 * is reported as gone or missing instead of being left out silently. Not thread-safe: its
 * owner reads through a {@link ReadCache}, which never runs two reads at once.
 * <p>
 * The counter files of a port are listed once per registration of the device, as the
 * tree's {@link SysfsTree#directoryKey(String) directory key} of the device tells it (one
 * {@code stat} per read instead of three listings per port): the kernel creates them with
 * the port and removes them only with the device. A port is listed again when one of its
 * files could not be found, and on every read while files are missing from it, so a file
 * that comes back is read again. The {@code ports} directory is listed on every read.
 * <p>
 * A counter file whose read the kernel refuses with {@code EINVAL}, {@code EIO},
 * {@code EACCES} or {@code EPERM} is read again only after a backoff of
 * {@link #REFUSED_FIRST_BACKOFF}, doubled after each refusal up to
 * {@link #REFUSED_MAX_BACKOFF}, measured by the time the snapshots are stamped with;
 * meanwhile it is unreadable (no value, never the last one, counted as an unreadable
 * read) and {@linkplain PortStatus#refused() refused} with its errno. On an NVIDIA DGX
 * host whose Fabric Manager restricts a physical function, every read of its PPCNT-backed
 * counters is an {@code ACCESS_REG} firmware command that fails and is logged by the
 * kernel ({@code mlx5_cmd_out_err: ACCESS_REG(0x805) ... err(-22)}): reading it at every
 * scrape floods the kernel log. A file that answers again is read normally from then on.
 *
 * @author rdma-counters
 */
final class SysfsDeviceReader {

	/** A PCI address as the kernel names PCI devices: domain:bus:device.function. */
	private static final Pattern PCI_ADDRESS = Pattern.compile("\\p{XDigit}{4,}:\\p{XDigit}{2}:\\p{XDigit}{2}\\.[0-7]");

	/** The wait before a counter file that refused its read is read again. */
	static final Duration REFUSED_FIRST_BACKOFF = Duration.ofMinutes(1);

	/** The longest wait before a counter file that keeps refusing is read again. */
	static final Duration REFUSED_MAX_BACKOFF = Duration.ofMinutes(30);

	/** The errnos of a read that the kernel refuses rather than fails for now. */
	private static final int[] REFUSING = { Errno.EINVAL, Errno.EIO, Errno.EACCES, Errno.EPERM };

	private final String deviceName;

	private final SysfsTree tree;

	/** The counter files that refused their read, by path. */
	private final Map<String, Refusal> refusals = new HashMap<>();

	private final Predicate<String> counterFilter;

	private final AtomicLong unreadableReads;

	private final Set<Integer> knownPorts = new TreeSet<>();

	private final Map<Integer, Set<String>> knownCounters = new HashMap<>();

	/**
	 * Whether a file name is read as a counter, by name: the filter is asked once per
	 * name, not on every snapshot (a filter of 20 globs makes 20 matchers per name).
	 */
	private final Map<String, Boolean> counted = new HashMap<>();

	/**
	 * The counted files of each port, by port, group by group in the order of
	 * {@link SysfsPortCountersSource#GROUPS}, as listed while the device had
	 * {@link #listedKey}: their paths are made once per listing, not per read.
	 */
	private final Map<Integer, List<CounterFile>> listings = new HashMap<>();

	private @Nullable Object listedKey;

	/** The identity read when the device was last found; cleared when it goes. */
	private @Nullable DeviceIdentity identity;

	private DeviceIdentity lastIdentity = DeviceIdentity.UNKNOWN;

	private boolean everPresent;

	SysfsDeviceReader(String deviceName, SysfsTree tree, Predicate<String> counterFilter, AtomicLong unreadableReads) {
		this.deviceName = deviceName;
		this.tree = tree;
		this.counterFilter = counterFilter;
		this.unreadableReads = unreadableReads;
	}

	String deviceName() {
		return this.deviceName;
	}

	/**
	 * Return whether a read has found the device directory.
	 * @return {@code true} once the device was found
	 */
	boolean everPresent() {
		return this.everPresent;
	}

	/**
	 * Read the device, or report it gone if its directory cannot be listed.
	 * @param readAt the time to stamp the snapshot with
	 * @return the snapshot
	 */
	PortCountersSnapshot read(Instant readAt) {
		String base = this.deviceName + "/";
		Object key = this.tree.directoryKey(this.deviceName);
		if (key == null || !key.equals(this.listedKey)) {
			if (key != null && this.listedKey != null) {
				// registered again between two reads: its identity may have changed too
				this.identity = null;
				this.tree.release(this.deviceName);
			}
			this.listings.clear();
			this.refusals.clear();
			this.listedKey = key;
		}
		Set<Integer> present;
		try {
			ReadCache.reading(base + "ports");
			present = ports(this.tree.list(base + "ports"));
		}
		catch (IOException | UncheckedIOException ex) {
			// no ports directory: is the device itself gone?
			try {
				this.tree.list(this.deviceName);
			}
			catch (IOException | UncheckedIOException gone) {
				return gone(readAt);
			}
			present = Set.of();
		}
		this.everPresent = true;
		DeviceIdentity identity = this.identity;
		if (identity == null) {
			identity = readIdentity(present);
			this.identity = identity;
			this.lastIdentity = identity;
		}
		List<String> ignored = new ArrayList<>();
		String firmware = readText(base + "fw_ver", ignored);
		String boardId = readText(base + "board_id", ignored);
		String hcaType = readText(base + "hca_type", ignored);
		String nodeGuid = readText(base + "node_guid", ignored);
		Set<Integer> all = new TreeSet<>(this.knownPorts);
		all.addAll(present);
		List<PortStatus> ports = new ArrayList<>(all.size());
		for (int port : all) {
			if (present.contains(port)) {
				ports.add(readPort(base + "ports/" + port + "/", port, readAt));
			}
			else {
				this.listings.remove(port);
				this.tree.release(base + "ports/" + port);
				ports.add(PortStatus.gone(port));
			}
		}
		this.knownPorts.addAll(present);
		return new PortCountersSnapshot(this.deviceName, firmware, boardId, hcaType, nodeGuid, ports, readAt,
				Presence.PRESENT, identity);
	}

	/**
	 * Return the snapshot of the device while its directory is not there: every port it
	 * had, gone, and the identity it had. The identity is read again when it comes back
	 * (a driver reload may bring it back on another function).
	 * @param readAt the time to stamp the snapshot with
	 * @return the snapshot
	 */
	PortCountersSnapshot gone(Instant readAt) {
		if (this.listedKey != null || this.identity != null) {
			this.tree.release(this.deviceName);
		}
		this.identity = null;
		this.listings.clear();
		this.refusals.clear();
		this.listedKey = null;
		List<PortStatus> ports = new ArrayList<>(this.knownPorts.size());
		for (int port : this.knownPorts) {
			ports.add(PortStatus.gone(port));
		}
		return new PortCountersSnapshot(this.deviceName, null, null, null, null, ports, readAt, Presence.GONE,
				this.lastIdentity);
	}

	/**
	 * Read the identity from the {@code device} link: the PCI address is the name of the
	 * directory it resolves to, as the kernel names PCI devices
	 * ({@code pci_setup_device}: {@code "%04x:%02x:%02x.%d"}); {@code physfn} exists only
	 * in the directory of a virtual function ({@code pci_iov_sysfs_link} in
	 * {@code drivers/pci/iov.c}). A device with several ports names the netdev of each
	 * RoCE port as the netdev of its GID 0, the default GID the RoCE GID cache adds for
	 * the port's netdev ({@code show_port_gid_attr_ndev} in
	 * {@code drivers/infiniband/core/sysfs.c}, since Linux 4.5).
	 */
	private DeviceIdentity readIdentity(Set<Integer> ports) {
		String device = this.deviceName + "/device";
		String resolved = this.tree.resolvedName(device);
		if (resolved == null) {
			return DeviceIdentity.UNKNOWN;
		}
		String pciAddress = PCI_ADDRESS.matcher(resolved).matches() ? resolved : null;
		List<String> netdevs = listOrEmpty(device + "/net");
		String physicalFunction = this.tree.resolvedName(device + "/physfn");
		Map<String, Integer> netdevPorts = new HashMap<>();
		if (ports.size() > 1 && !netdevs.isEmpty()) {
			for (int port : ports) {
				String netdev = readGidNetdev(port);
				if (netdev != null && netdevs.contains(netdev)) {
					netdevPorts.putIfAbsent(netdev, port);
				}
			}
		}
		return new DeviceIdentity(netdevs, pciAddress, physicalFunction != null, physicalFunction, netdevPorts);
	}

	/** The netdev of a port's GID 0; an InfiniBand port has none (EINVAL). */
	private @Nullable String readGidNetdev(int port) {
		try {
			String netdev = this.tree.read(this.deviceName + "/ports/" + port + "/gid_attrs/ndevs/0").trim();
			return netdev.isEmpty() ? null : netdev;
		}
		catch (IOException | UncheckedIOException ex) {
			return null;
		}
	}

	private static Set<Integer> ports(List<String> names) {
		Set<Integer> ports = new TreeSet<>();
		for (String name : names) {
			try {
				ports.add(Integer.parseInt(name));
			}
			catch (NumberFormatException ex) {
				// not a port directory
			}
		}
		return ports;
	}

	private List<String> listOrEmpty(String path) {
		try {
			return this.tree.list(path);
		}
		catch (IOException | UncheckedIOException ex) {
			return List.of();
		}
	}

	private PortStatus readPort(String base, int port, Instant readAt) {
		List<String> unreadable = new ArrayList<>();
		String state = readText(base + "state", unreadable);
		String physicalState = readText(base + "phys_state", unreadable);
		String rate = readText(base + "rate", unreadable);
		String linkLayer = readText(base + "link_layer", unreadable);
		Map<String, Long> counters = new LinkedHashMap<>();
		Map<String, String> groups = new LinkedHashMap<>();
		Map<String, String> refused = new LinkedHashMap<>();
		Set<String> listed = new LinkedHashSet<>();
		boolean kept = this.listings.containsKey(port);
		boolean vanished = false;
		for (CounterFile counterFile : listing(base, port)) {
			String group = counterFile.group();
			String name = counterFile.name();
			String file = counterFile.file();
			String path = counterFile.path();
			// most hosts have no refusing file: no lookup per file and read then
			Refusal refusal = this.refusals.isEmpty() ? null : this.refusals.remove(path);
			if (refusal != null && refusal.waits(readAt)) {
				this.refusals.put(path, refusal);
				listed.add(file);
				unreadable.add(path);
				refused.put(file, Errno.name(refusal.errno()));
				this.unreadableReads.incrementAndGet();
				continue;
			}
			Long value;
			try {
				ReadCache.reading(path);
				value = this.tree.readCounter(path);
			}
			catch (NoSuchFileException ex) {
				// gone since it was listed: the port is listed again at the next read; a
				// file of a kept listing was read before, so it is reported missing
				vanished = true;
				if (kept) {
					continue;
				}
				value = null;
			}
			catch (IOException ex) {
				int errno = refusedErrno(ex);
				if (errno != 0) {
					Duration backoff = (refusal != null) ? refusal.backoff().multipliedBy(2) : REFUSED_FIRST_BACKOFF;
					backoff = (backoff.compareTo(REFUSED_MAX_BACKOFF) > 0) ? REFUSED_MAX_BACKOFF : backoff;
					this.refusals.put(path, new Refusal(errno, backoff, readAt.plus(backoff)));
					refused.put(file, Errno.name(errno));
				}
				value = null;
			}
			catch (RuntimeException ex) {
				value = null;
			}
			listed.add(file);
			if (value != null && SysfsPortCountersSource.WORD_COUNTERS.contains(name)) {
				value = wordsToBytes(value);
			}
			if (value == null) {
				unreadable.add(path);
				this.unreadableReads.incrementAndGet();
				continue;
			}
			String key = counters.containsKey(name) ? file : name;
			counters.put(key, value);
			groups.put(key, group);
		}
		List<String> missing = missing(port, listed);
		if (vanished || !missing.isEmpty()) {
			this.listings.remove(port);
		}
		List<String> relativeUnreadable = unreadable.isEmpty() ? List.of()
				: unreadable.stream()
					.map((path) -> path.startsWith(base) ? path.substring(base.length()) : path)
					.toList();
		return new PortStatus(port, PortLink.parse(state, physicalState, rate, linkLayer),
				Collections.unmodifiableMap(counters), Collections.unmodifiableMap(groups), relativeUnreadable, missing,
				Presence.PRESENT, refused.isEmpty() ? Map.of() : Collections.unmodifiableMap(refused));
	}

	/**
	 * Return the errno of a read the kernel refused ({@code EINVAL}, {@code EIO},
	 * {@code EACCES}, {@code EPERM}), as the JDK reports it: its message is glibc's
	 * {@code strerror} text, or an {@link AccessDeniedException} for {@code EACCES}.
	 * @param ex the failure of the read
	 * @return the errno, or 0 for another failure
	 */
	static int refusedErrno(IOException ex) {
		if (ex instanceof AccessDeniedException) {
			return Errno.EACCES;
		}
		String reason = (ex instanceof FileSystemException fileSystem) ? fileSystem.getReason() : ex.getMessage();
		if (reason == null) {
			return 0;
		}
		for (int errno : REFUSING) {
			String message = Errno.message(errno);
			if (reason.equals(message) || reason.endsWith(": " + message)) {
				return errno;
			}
		}
		return 0;
	}

	/**
	 * Return the counted files of a port, listed now or kept from an earlier read of the
	 * same registration.
	 */
	private List<CounterFile> listing(String base, int port) {
		List<CounterFile> listing = this.listings.get(port);
		if (listing != null) {
			return listing;
		}
		listing = new ArrayList<>();
		for (String group : SysfsPortCountersSource.GROUPS) {
			for (String name : listOrEmpty(base + group)) {
				if (counted(name)) {
					String file = group + "/" + name;
					listing.add(new CounterFile(group, name, file, base + file));
				}
			}
		}
		if (this.listedKey != null) {
			this.listings.put(port, listing);
		}
		return listing;
	}

	private boolean counted(String name) {
		Boolean counted = this.counted.get(name);
		if (counted == null) {
			counted = !SysfsPortCountersSource.NON_COUNTERS.contains(name) && this.counterFilter.test(name);
			this.counted.put(name, counted);
		}
		return counted;
	}

	/**
	 * Return the counter files read in an earlier snapshot of the port that are no longer
	 * listed, and remember the ones listed now.
	 */
	private List<String> missing(int port, Set<String> listed) {
		Set<String> known = this.knownCounters.computeIfAbsent(port, (key) -> new LinkedHashSet<>());
		List<String> missing = new ArrayList<>();
		for (String file : known) {
			if (!listed.contains(file)) {
				missing.add(file);
			}
		}
		known.addAll(listed);
		return missing;
	}

	private @Nullable String readText(String path, List<String> unreadable) {
		try {
			ReadCache.reading(path);
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

	/**
	 * Convert 4-byte words to bytes as an unsigned 64-bit number, or {@code null} for a
	 * count of 2<sup>62</sup> words or more (16 EiB), whose bytes 64 bits cannot hold:
	 * the file is then unreadable (NaN, named), neither exact nor clamped.
	 */
	private static @Nullable Long wordsToBytes(long words) {
		return ((words >>> 62) != 0) ? null : words << 2;
	}

	/**
	 * A counted file of a port's listing.
	 *
	 * @param group its group directory, e.g. {@code counters}
	 * @param name its name
	 * @param file its path in the port, e.g. {@code counters/port_rcv_data}
	 * @param path its path in the tree
	 */
	private record CounterFile(String group, String name, String file, String path) {

	}

	/**
	 * A counter file that refused its read.
	 *
	 * @param errno why
	 * @param backoff the wait before it is read again
	 * @param nextRead when it is read again
	 */
	private record Refusal(int errno, Duration backoff, Instant nextRead) {

		/**
		 * Return whether a read at this time waits: before the next read, and not after a
		 * clock that went back by more than the backoff.
		 */
		boolean waits(Instant now) {
			return now.isBefore(this.nextRead) && !now.isBefore(this.nextRead.minus(this.backoff));
		}

	}

}
