package io.github.rdmacounters.netlink;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.core.ReadCache;
import io.github.rdmacounters.core.ReadStalledException;

/**
 * The hardware counters of this process's queue pairs ({@link ProcessQueuePairs}) through
 * counter binding (Linux 5.3 and later): each read binds the process's queue pairs that
 * are not bound yet, then reads the counters ({@code RDMA_NLDEV_CMD_STAT_GET} dump) that
 * count only queue pairs of this process, summed by device, port and queue pair type.
 * <p>
 * How queue pairs are bound is {@link Binding}: by default manually, by queue pair number
 * ({@code RDMA_NLDEV_CMD_STAT_SET} with {@code RDMA_NLDEV_ATTR_RES_LQPN},
 * {@code rdma_counter_bind_qpn_alloc} and {@code rdma_counter_bind_qpn} in
 * {@code drivers/infiniband/core/counters.c}): the queue pairs of one type on one port
 * share one counter (hardware queue counters are few), or each has its own when
 * {@link Settings#perQueuePair()}. Binding needs {@code CAP_NET_ADMIN}; without it one
 * WARN names the capability and the commands an operator can run, and nothing is bound.
 * Auto mode ({@code rdma_counter_set_auto_mode}) is a port-wide setting that binds the
 * queue pairs of every process: it is only switched on when configured, only on a port
 * whose mode is none, and never switched off, as other processes may rely on it. Whatever
 * the binding, counters that others bound to this process's queue pairs are read too
 * (auto mode with the pid mask set by an operator).
 * <p>
 * A counter lives while queue pairs are bound to it: the kernel unbinds a queue pair it
 * destroys ({@code rdma_counter_unbind_qp} from {@code ib_destroy_qp_user}) and frees the
 * counter with its last one ({@code counter_release}). The values of a counter that is
 * gone are kept from its last read, so the sums only grow; what it counted after that
 * read is lost. {@link #close()} unbinds what this object bound; a queue pair that is
 * gone already needs nothing.
 * <p>
 * With a read deadline, a read runs in a reader thread, one at a time: while it is past
 * its deadline (the counter dump reads each counter with
 * {@code rdma_counter_query_stats}, a firmware command on mlx5), snapshots have no values
 * and are {@link Snapshot#unavailable() unavailable}, naming the request.
 * {@link #close()} does not wait for such a read past the deadline: a daemon thread
 * unbinds and closes once it has returned. Thread-safe.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public final class QueuePairCounters implements AutoCloseable {

	private static final Logger logger = System.getLogger(QueuePairCounters.class.getName());

	/**
	 * The type of a counter whose queue pairs have different types (auto mode by pid).
	 */
	public static final String MIXED = "MIXED";

	private final NldevOpener client;

	private final ProcessQueuePairs queuePairs;

	private final Settings settings;

	private final NetlinkBudget budget;

	private final Clock clock;

	private final ReadCache<Snapshot> cache;

	private final Consumer<String> warnings;

	private final Set<String> warned = new HashSet<>();

	/** What this object bound, to unbind at close. */
	private final Map<QueuePairKey, Bound> bound = new LinkedHashMap<>();

	/** The counter the queue pairs of a type share on a port, by device index. */
	private final Map<TypeKey, Long> shared = new HashMap<>();

	/** Queue pairs the kernel would not bind, not tried again while they exist. */
	private final Set<QueuePairKey> skipped = new HashSet<>();

	/** The last values of each counter of this process, by device index and id. */
	private final Map<CounterKey, Seen> lastSeen = new HashMap<>();

	/** The last values of the counters that are gone, by group. */
	private final Map<Group, Map<String, Long>> retired = new HashMap<>();

	/** Held by a read and by closing: the bindings are the read's. */
	private final ReentrantLock lock = new ReentrantLock();

	private final Duration readDeadline;

	private final AtomicBoolean closing = new AtomicBoolean();

	private boolean denied;

	/** Guarded by {@link #lock}. */
	private boolean closed;

	/**
	 * Create the counters; nothing is asked or bound until the first read. Warnings are
	 * logged at WARNING with {@link System.Logger}.
	 * @param opener opens the client, again after it failed to
	 * @param queuePairs this process's queue pairs
	 * @param settings how queue pairs are bound
	 * @param budget the most one device's counter dump may send
	 * @param readCacheTtl how long a snapshot is reused
	 * @param clock the clock of the read cache and of the snapshots
	 */
	public QueuePairCounters(Supplier<NldevClient> opener, ProcessQueuePairs queuePairs, Settings settings,
			NetlinkBudget budget, Duration readCacheTtl, Clock clock) {
		this(opener, queuePairs, settings, budget, readCacheTtl, clock,
				(message) -> logger.log(Level.WARNING, message));
	}

	/**
	 * Create the counters; nothing is asked or bound until the first read.
	 * @param opener opens the client, again after it failed to
	 * @param queuePairs this process's queue pairs
	 * @param settings how queue pairs are bound
	 * @param budget the most one device's counter dump may send
	 * @param readCacheTtl how long a snapshot is reused
	 * @param clock the clock of the read cache and of the snapshots
	 * @param warnings where each warning goes, once: the application's log
	 */
	public QueuePairCounters(Supplier<NldevClient> opener, ProcessQueuePairs queuePairs, Settings settings,
			NetlinkBudget budget, Duration readCacheTtl, Clock clock, Consumer<String> warnings) {
		this(opener, queuePairs, settings, budget, readCacheTtl, clock, warnings, ReadCache.NO_DEADLINE);
	}

	/**
	 * Create the counters whose callers wait at most a deadline for a read; nothing is
	 * asked or bound until the first read.
	 * @param opener opens the client, again after it failed to
	 * @param queuePairs this process's queue pairs
	 * @param settings how queue pairs are bound
	 * @param budget the most one device's counter dump may send
	 * @param readCacheTtl how long a snapshot is reused
	 * @param clock the clock of the read cache and of the snapshots
	 * @param warnings where each warning goes, once: the application's log
	 * @param readDeadline how long a caller waits for a read, and {@link #close()} for a
	 * read in flight; {@link ReadCache#NO_DEADLINE} reads on the caller's thread
	 */
	public QueuePairCounters(Supplier<NldevClient> opener, ProcessQueuePairs queuePairs, Settings settings,
			NetlinkBudget budget, Duration readCacheTtl, Clock clock, Consumer<String> warnings,
			Duration readDeadline) {
		this.readDeadline = Objects.requireNonNull(readDeadline, "readDeadline");
		this.client = new NldevOpener(Objects.requireNonNull(opener, "opener"), "RDMA netlink's queue pair counters");
		this.queuePairs = Objects.requireNonNull(queuePairs, "queuePairs");
		this.settings = Objects.requireNonNull(settings, "settings");
		this.budget = Objects.requireNonNull(budget, "budget");
		this.clock = Objects.requireNonNull(clock, "clock");
		this.warnings = Objects.requireNonNull(warnings, "warnings");
		this.cache = new ReadCache<>(readCacheTtl, clock, readDeadline);
	}

	/**
	 * Return how queue pairs are bound.
	 * @return the settings
	 */
	public Settings settings() {
		return this.settings;
	}

	/**
	 * Bind the queue pairs not bound yet and read the counters, at most once per
	 * time-to-live.
	 * @return the snapshot
	 */
	public Snapshot snapshot() {
		try {
			return this.cache.get(this::read);
		}
		catch (ReadStalledException ex) {
			return new Snapshot(Map.of(), Set.of(), Map.of(), "stalled: " + ex.getMessage(), this.clock.instant());
		}
	}

	/**
	 * Bind the queue pairs not bound yet and read the counters, with a read that began
	 * after this call, whatever the time-to-live: for a difference between two reads,
	 * where a reused value would be wrong.
	 * @return the snapshot
	 */
	public Snapshot freshSnapshot() {
		try {
			return this.cache.getFresh(this::read);
		}
		catch (ReadStalledException ex) {
			return new Snapshot(Map.of(), Set.of(), Map.of(), "stalled: " + ex.getMessage(), this.clock.instant());
		}
	}

	/**
	 * Return the read cache's record of the reads, for the self-metrics and the stall.
	 * @return the cache
	 */
	public ReadCache<Snapshot> reads() {
		return this.cache;
	}

	private Snapshot read() {
		// named until a request of its own is sent: a shared client may be busy
		ReadCache.reading("RDMA netlink (queue pair counters)");
		this.lock.lock();
		try {
			return readLocked();
		}
		finally {
			this.lock.unlock();
		}
	}

	private Snapshot readLocked() {
		Instant readAt = this.clock.instant();
		if (this.closed) {
			return new Snapshot(Map.of(), Set.of(), Map.of(), "RDMA netlink's queue pair counters are closed", readAt);
		}
		ProcessQueuePairs.Snapshot ours = this.queuePairs.snapshot();
		if (ours.unavailable() != null) {
			return new Snapshot(Map.of(), Set.of(), Map.of(), ours.unavailable(), readAt);
		}
		NldevClient current;
		List<NldevDevice> devices;
		try {
			current = this.client.get();
			devices = current.devices();
		}
		catch (RuntimeException ex) {
			return new Snapshot(Map.of(), Set.of(), Map.of(), ex.getMessage(), readAt);
		}
		forgetGone(ours, devices);
		Map<Group, Map<String, Long>> values = new HashMap<>();
		Map<String, String> failures = new TreeMap<>(ours.failures());
		Set<CounterKey> present = new HashSet<>();
		Set<Long> unread = new HashSet<>();
		Set<CounterBinding> bindings = new HashSet<>();
		for (NldevDevice device : devices) {
			List<NldevQueuePair> mine = ours.devices().getOrDefault(device.name(), List.of());
			if (mine.isEmpty()) {
				// the kernel frees a counter with its last queue pair: none is left
				continue;
			}
			Map<Long, NldevQueuePair> byNumber = new HashMap<>();
			mine.forEach((queuePair) -> byNumber.put(queuePair.lqpn(), queuePair));
			try {
				List<NldevQpCounter> dumped = current.queuePairCounters(device, this.budget);
				Set<Long> boundAlready = dumped.stream()
					.flatMap((counter) -> counter.lqpns().stream())
					.collect(Collectors.toSet());
				if (bindNew(current, device, mine, boundAlready)) {
					dumped = current.queuePairCounters(device, this.budget);
				}
				for (NldevQpCounter counter : dumped) {
					if (counter.lqpns().isEmpty() || !byNumber.keySet().containsAll(counter.lqpns())) {
						// another process's, or shared with one (auto mode without the
						// pid mask)
						continue;
					}
					bindings.add(new CounterBinding(device.name(), counter.port(), counter.id(),
							counter.lqpns().stream().sorted().toList()));
					Set<String> types = counter.lqpns()
						.stream()
						.map((lqpn) -> byNumber.get(lqpn).typeName())
						.collect(Collectors.toSet());
					String type = (types.size() == 1) ? types.iterator().next() : MIXED;
					Group group = new Group(device.name(), counter.port(), type, null);
					sum(values, group, counter.values());
					CounterKey key = new CounterKey(device.index(), counter.id());
					present.add(key);
					this.lastSeen.put(key, new Seen(group, counter.values()));
					if (this.settings.perQueuePair() && counter.lqpns().size() == 1) {
						values.put(new Group(device.name(), counter.port(), type, counter.lqpns().get(0)),
								counter.values());
					}
				}
			}
			catch (RdmaClosedException ex) {
				return new Snapshot(Map.of(), Set.of(), Map.of(), ex.getMessage(), readAt);
			}
			catch (RuntimeException ex) {
				failures.put(device.name(), ex.getMessage());
				unread.add(device.index());
			}
		}
		retireGone(present, unread);
		// a device that could not be read has no values, not its old counters' alone
		this.retired.forEach((group, last) -> {
			if (!failures.containsKey(group.device())) {
				sum(values, group, last);
			}
		});
		return new Snapshot(values, bindings, failures, null, readAt);
	}

	private static void sum(Map<Group, Map<String, Long>> values, Group group, Map<String, Long> add) {
		Map<String, Long> target = values.computeIfAbsent(group, (key) -> new LinkedHashMap<>());
		add.forEach((name, value) -> target.merge(name, value, Long::sum));
	}

	/** Forget the bindings and failures of queue pairs and devices that are gone. */
	private void forgetGone(ProcessQueuePairs.Snapshot ours, List<NldevDevice> devices) {
		Set<QueuePairKey> alive = new HashSet<>();
		for (NldevDevice device : devices) {
			for (NldevQueuePair queuePair : ours.devices().getOrDefault(device.name(), List.of())) {
				alive.add(new QueuePairKey(device.index(), queuePair.port(), queuePair.lqpn()));
			}
		}
		Set<String> failed = ours.failures().keySet();
		Set<Long> readable = devices.stream()
			.filter((device) -> !failed.contains(device.name()))
			.map(NldevDevice::index)
			.collect(Collectors.toSet());
		this.bound.keySet()
			.removeIf((key) -> readable.contains(key.device()) ? !alive.contains(key)
					: devices.stream().noneMatch((device) -> device.index() == key.device()));
		this.skipped.removeIf((key) -> !alive.contains(key));
		Set<Long> indexes = devices.stream().map(NldevDevice::index).collect(Collectors.toSet());
		this.shared.keySet().removeIf((key) -> !indexes.contains(key.device()));
	}

	/** Keep the last values of the counters that are gone: freed with their last QP. */
	private void retireGone(Set<CounterKey> present, Set<Long> unread) {
		for (Iterator<Map.Entry<CounterKey, Seen>> it = this.lastSeen.entrySet().iterator(); it.hasNext();) {
			Map.Entry<CounterKey, Seen> entry = it.next();
			if (!present.contains(entry.getKey()) && !unread.contains(entry.getKey().device())) {
				sum(this.retired, entry.getValue().group(), entry.getValue().values());
				it.remove();
			}
		}
	}

	/**
	 * Bind the queue pairs no counter holds yet; {@code true} if one was bound.
	 */
	private boolean bindNew(NldevClient client, NldevDevice device, List<NldevQueuePair> mine, Set<Long> boundAlready) {
		if (this.settings.binding() == Binding.NONE || this.denied) {
			return false;
		}
		boolean any = false;
		Map<Integer, List<NldevQueuePair>> byPort = new TreeMap<>();
		for (NldevQueuePair queuePair : mine) {
			// a queue pair before INIT has no port yet (fill_res_qp_entry)
			if (queuePair.port() > 0) {
				byPort.computeIfAbsent(queuePair.port(), (port) -> new ArrayList<>()).add(queuePair);
			}
		}
		for (Map.Entry<Integer, List<NldevQueuePair>> entry : byPort.entrySet()) {
			int port = entry.getKey();
			String link = device.name() + "/" + port;
			List<NldevQueuePair> unbound = entry.getValue()
				.stream()
				.filter((queuePair) -> !boundAlready.contains(queuePair.lqpn())
						&& !this.bound.containsKey(key(device, queuePair))
						&& !this.skipped.contains(key(device, queuePair)))
				.toList();
			if (unbound.isEmpty()) {
				continue;
			}
			NldevCounterMode mode = client.queuePairCounterMode(device, port);
			if (this.settings.binding() == Binding.AUTO) {
				switchOnAutoMode(client, device, port, mode);
				continue;
			}
			if (mode.isAuto()) {
				// rdma_counter_bind_qpn_alloc refuses (EINVAL) while the port is in auto
				// mode
				infoOnce("auto:" + link,
						"RDMA " + link + " is in auto mode (" + mode.describe() + "), set outside this application: "
								+ "the kernel binds its queue pairs, rdma-counters reads the counters that count only "
								+ "this process's");
				continue;
			}
			for (NldevQueuePair queuePair : unbound) {
				Boolean bound = bind(client, device, port, queuePair);
				if (bound == null) {
					return any;
				}
				any |= bound;
			}
		}
		return any;
	}

	/**
	 * Bind one queue pair: {@code true} if bound, {@code false} if not, {@code null} if
	 * binding is denied, so nothing else is tried.
	 */
	private @Nullable Boolean bind(NldevClient client, NldevDevice device, int port, NldevQueuePair queuePair) {
		QueuePairKey key = key(device, queuePair);
		TypeKey typeKey = new TypeKey(device.index(), port, queuePair.typeName());
		Long target = this.settings.perQueuePair() ? null : this.shared.get(typeKey);
		String link = device.name() + "/" + port;
		try {
			long id;
			try {
				id = client.bindQueuePair(device, port, queuePair.lqpn(), target);
			}
			catch (RdmaOperationException ex) {
				if (target == null || ex.errno() != Errno.ENOENT) {
					throw ex;
				}
				// the shared counter was freed with its last queue pair
				// (rdma_get_counter_by_id): start a new one
				this.shared.remove(typeKey);
				id = client.bindQueuePair(device, port, queuePair.lqpn(), null);
			}
			this.bound.put(key, new Bound(device, port, queuePair.lqpn(), id));
			if (!this.settings.perQueuePair()) {
				this.shared.put(typeKey, id);
			}
			return Boolean.TRUE;
		}
		catch (RdmaOperationException ex) {
			if (ex.errno() == Errno.EPERM) {
				this.denied = true;
				warnOnce("eperm", "Cannot bind the queue pairs of this process (pid " + this.queuePairs.pid()
						+ ") to hardware counters (" + this.settings.property()
						+ ".binding=manual): binding needs the CAP_NET_ADMIN capability, which this process does not "
						+ "have; the queue pairs are still counted by type and state. An operator can bind each "
						+ "one instead, e.g.: rdma statistic qp bind link " + link + " lqpn " + queuePair.lqpn()
						+ " ('rdma resource show qp link " + link + " pid " + this.queuePairs.pid()
						+ "' lists them), or bind every new one with: rdma statistic qp set link " + link
						+ " auto type,pid on");
				return null;
			}
			this.skipped.add(key);
			if (ex.errno() == Errno.ENOENT || ex.errno() == Errno.EINVAL) {
				// ENOENT: destroyed since the dump (rdma_counter_get_qp), or a raw packet
				// queue pair without CAP_NET_RAW; EINVAL: bound already
				// (__rdma_counter_bind_qp)
				logger.log(Level.DEBUG,
						() -> "Queue pair " + queuePair.lqpn() + " of " + link + " not bound: " + ex.getMessage());
			}
			else {
				warnOnce("bind:" + link, "Cannot bind queue pair " + queuePair.lqpn() + " of RDMA " + link
						+ " to a hardware counter: " + ex.getMessage() + "; it is counted by type and state only");
			}
			return Boolean.FALSE;
		}
	}

	private void switchOnAutoMode(NldevClient client, NldevDevice device, int port, NldevCounterMode mode) {
		String link = device.name() + "/" + port;
		String property = this.settings.property() + ".binding=auto";
		if (mode.isAuto()) {
			if ((mode.mask() & RdmaNldev.COUNTER_MASK_PID) == 0) {
				warnOnce("mask:" + link,
						"RDMA " + link + " is in auto mode (" + mode.describe() + ") without the pid mask, set outside "
								+ "this application: its counters mix the queue pairs of several processes and are "
								+ "not shown as this process's; " + property + " leaves the setting alone");
			}
			return;
		}
		if (mode.mode() == RdmaNldev.COUNTER_MODE_MANUAL) {
			// __counter_set_mode refuses auto mode while counters are bound (EBUSY)
			warnOnce("manual:" + link, property + " has no effect on RDMA " + link
					+ ": queue pairs are bound to counters manually there, and the kernel refuses auto mode until "
					+ "they are unbound (rdma statistic qp show link " + link + " lists them)");
			return;
		}
		int mask = RdmaNldev.COUNTER_MASK_QP_TYPE | RdmaNldev.COUNTER_MASK_PID;
		try {
			client.setQueuePairAutoMode(device, port, mask);
			logger.log(Level.INFO, "Switched RDMA " + link + " to counter auto mode type,pid (" + property
					+ "): the kernel binds every queue pair that reaches the port from now on, of every process, to "
					+ "a counter of its process and type. It stays on after this application exits; "
					+ "'rdma statistic qp set link " + link + " auto off' switches it off");
		}
		catch (RdmaOperationException ex) {
			if (ex.errno() == Errno.EPERM) {
				warnOnce("eperm-auto:" + link, "Cannot switch RDMA " + link + " to counter auto mode (" + property
						+ "): it needs the CAP_NET_ADMIN capability, which this process does not have; the queue "
						+ "pairs are still counted by type and state. An operator can switch it on instead with: "
						+ "rdma statistic qp set link " + link + " auto type,pid on");
			}
			else {
				warnOnce("auto-set:" + link,
						"Cannot switch RDMA " + link + " to counter auto mode (" + property + "): " + ex.getMessage());
			}
		}
	}

	private static QueuePairKey key(NldevDevice device, NldevQueuePair queuePair) {
		return new QueuePairKey(device.index(), queuePair.port(), queuePair.lqpn());
	}

	private void warnOnce(String key, String message) {
		if (this.warned.add(key)) {
			this.warnings.accept(message);
		}
		else {
			logger.log(Level.DEBUG, message);
		}
	}

	private void infoOnce(String key, String message) {
		if (this.warned.add(key)) {
			logger.log(Level.INFO, message);
		}
	}

	/**
	 * Unbind the queue pairs this object bound, then close the client; later snapshots
	 * say it is closed. A queue pair the application destroyed first was unbound by the
	 * kernel. With a read deadline, the unbinding runs in a daemon thread
	 * ({@code rdma-close-queue-pair-counters}) and this method waits for it at most that
	 * long: unbinding is a netlink request too, which waits behind a read in flight and
	 * on a device that does not answer. Past the deadline the thread goes on (after the
	 * read in flight, never beside it); if the JVM exits first, the kernel unbinds the
	 * queue pairs as it destroys them with the process.
	 */
	@Override
	public void close() {
		if (!this.closing.compareAndSet(false, true)) {
			return;
		}
		if (this.readDeadline.isZero()) {
			this.lock.lock();
			closeLocked();
			return;
		}
		Thread closer = new Thread(() -> {
			this.lock.lock();
			closeLocked();
		}, "rdma-close-queue-pair-counters");
		closer.setDaemon(true);
		closer.start();
		try {
			closer.join(Math.max(1, this.readDeadline.toMillis()));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	// Call with the lock held; releases it
	private void closeLocked() {
		List<Bound> toUnbind;
		try {
			this.closed = true;
			toUnbind = new ArrayList<>(this.bound.values());
			this.bound.clear();
		}
		finally {
			this.lock.unlock();
		}
		try {
			if (!toUnbind.isEmpty()) {
				unbindAll(this.client.get(), toUnbind);
			}
		}
		catch (RuntimeException ex) {
			logger.log(Level.DEBUG, () -> "Cannot unbind the queue pairs of this process: " + ex.getMessage());
		}
		finally {
			this.client.close();
		}
	}

	private void unbindAll(NldevClient client, List<Bound> toUnbind) {
		List<String> failed = new ArrayList<>();
		for (Bound binding : toUnbind) {
			try {
				client.unbindQueuePair(binding.device(), binding.port(), binding.lqpn(), binding.counterId());
			}
			catch (RdmaOperationException ex) {
				if (ex.errno() != Errno.ENOENT && ex.errno() != Errno.EINVAL) {
					failed.add(binding.device().name() + "/" + binding.port() + " lqpn " + binding.lqpn() + ": "
							+ ex.getMessage());
				}
				// ENOENT: destroyed, and unbound by the kernel; EINVAL: not bound to it
			}
		}
		if (!failed.isEmpty()) {
			this.warnings.accept("Cannot unbind queue pairs of this process from their counters at shutdown: " + failed
					+ "; the kernel unbinds them when they are destroyed");
		}
	}

	@Override
	public String toString() {
		return "QueuePairCounters " + this.settings;
	}

	/**
	 * How this process's queue pairs are bound to counters.
	 */
	public enum Binding {

		/**
		 * Bind each queue pair by its number ({@code rdma statistic qp bind}); needs
		 * {@code CAP_NET_ADMIN}.
		 */
		MANUAL,

		/**
		 * Switch the port to auto mode by type and pid ({@code rdma statistic qp set
		 * ... auto type,pid on}) if its mode is none; affects every process, and stays
		 * on.
		 */
		AUTO,

		/** Bind nothing; counters others bound to this process's queue pairs are read. */
		NONE

	}

	/**
	 * How this process's queue pairs are bound.
	 *
	 * @param binding how they are bound
	 * @param perQueuePair whether each queue pair has a counter of its own, shown with
	 * its number, instead of one per port and type (manual binding only)
	 * @param property the property prefix the settings come from, for messages, e.g.
	 * {@code rdma.queue-pairs.counters}
	 */
	public record Settings(Binding binding, boolean perQueuePair, String property) {

		/**
		 * Create settings.
		 * @param binding how they are bound
		 * @param perQueuePair whether each has a counter of its own
		 * @param property the property prefix
		 */
		public Settings {
			Objects.requireNonNull(binding, "binding");
			Objects.requireNonNull(property, "property");
		}

	}

	/**
	 * What a sum of counters is of: the queue pairs of a type on a port, or one queue
	 * pair.
	 *
	 * @param device the device name
	 * @param port the port
	 * @param type the queue pair type, e.g. {@code RC}, or {@link #MIXED}
	 * @param lqpn the queue pair, or {@code null} for every queue pair of the type
	 */
	public record Group(String device, int port, String type, @Nullable Long lqpn) {

		/**
		 * Return the group's key in a port's counters.
		 * @return the type, e.g. {@code RC}, or the type and queue pair, e.g.
		 * {@code RC/418}
		 */
		public String key() {
			return (this.lqpn != null) ? this.type + "/" + this.lqpn : this.type;
		}

	}

	/**
	 * The counters of this process's queue pairs, read together.
	 *
	 * @param values the values by group, then counter name: a port and type's always, a
	 * queue pair's too with {@link Settings#perQueuePair()}; read them as unsigned
	 * @param bindings the kernel counters of this process read, with their queue pairs
	 * @param failures why a device could not be read or bound, by device name
	 * @param unavailable why RDMA netlink could not be asked, or {@code null}
	 * @param readAt when the read started
	 */
	public record Snapshot(Map<Group, Map<String, Long>> values, Set<CounterBinding> bindings,
			Map<String, String> failures, @Nullable String unavailable, Instant readAt) {

		/**
		 * Create a snapshot.
		 * @param values the values
		 * @param bindings the counters read
		 * @param failures the failures
		 * @param unavailable why RDMA netlink could not be asked, or {@code null}
		 * @param readAt when the read started
		 */
		public Snapshot {
			Map<Group, Map<String, Long>> copy = new LinkedHashMap<>();
			values.entrySet()
				.stream()
				.sorted(Map.Entry.comparingByKey(Comparator.comparing(Group::device)
					.thenComparingInt(Group::port)
					.thenComparing(Group::type)
					.thenComparing((group) -> (group.lqpn() != null) ? group.lqpn() : -1L)))
				.forEach((entry) -> copy.put(entry.getKey(),
						java.util.Collections.unmodifiableMap(new LinkedHashMap<>(entry.getValue()))));
			values = java.util.Collections.unmodifiableMap(copy);
			bindings = Set.copyOf(bindings);
			failures = Map.copyOf(failures);
		}

		/**
		 * Return how many kernel counters of this process were read.
		 * @return the number
		 */
		public int counters() {
			return this.bindings.size();
		}

		/**
		 * Return the counters of a port.
		 * @param device the device name
		 * @param port the port
		 * @return the values by {@link Group#key()}, then counter name
		 */
		public Map<String, Map<String, Long>> port(String device, int port) {
			Map<String, Map<String, Long>> port0 = new LinkedHashMap<>();
			this.values.forEach((group, counters) -> {
				if (group.device().equals(device) && group.port() == port) {
					port0.put(group.key(), counters);
				}
			});
			return port0;
		}

	}

	/**
	 * A kernel counter of this process and the queue pairs bound to it when it was read.
	 *
	 * @param device the device name
	 * @param port the port
	 * @param id the counter's id on its device
	 * @param lqpns the queue pairs bound to it, sorted
	 */
	public record CounterBinding(String device, int port, long id, List<Long> lqpns) {

		/**
		 * Create a counter binding.
		 * @param device the device name
		 * @param port the port
		 * @param id the id
		 * @param lqpns the queue pairs
		 */
		public CounterBinding {
			lqpns = List.copyOf(lqpns);
		}

	}

	private record QueuePairKey(long device, int port, long lqpn) {
	}

	private record TypeKey(long device, int port, String type) {
	}

	private record CounterKey(long device, long id) {
	}

	private record Seen(Group group, Map<String, Long> values) {
	}

	private record Bound(NldevDevice device, int port, long lqpn, long counterId) {
	}

}
