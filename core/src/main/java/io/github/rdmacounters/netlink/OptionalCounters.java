package io.github.rdmacounters.netlink;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.core.ReadCache;
import io.github.rdmacounters.core.ReadStalledException;

/**
 * The optional counters of every port RDMA netlink shows (Linux 5.16 and later): which
 * are supported and enabled, their values through a {@link ReadCache} like the port
 * counters, and enabling the ones the application asked for.
 * <p>
 * Optional counters do not survive a driver reload, a reboot or a rebind (mlx5 implements
 * them with flow-steering counters it creates when one is enabled,
 * {@code mlx5_ib_modify_stat} in {@code drivers/infiniband/hw/mlx5/counters.c}). The ones
 * asked for are enabled by {@link #applyAll()} at startup, by {@link #reapply(String)}
 * after a device was reopened, and at the first read that finds a device under a kernel
 * index not seen before: the kernel gives a device a new index each time it registers it
 * ({@code assign_name} in {@code drivers/infiniband/core/device.c}), so a hot-plugged or
 * reloaded device is one. Enabling keeps what another tool enabled
 * ({@link NldevClient#enableOptionalCounters}). Without {@code CAP_NET_ADMIN}, a name the
 * port does not have, or any other failure, one WARN per port says what to do and nothing
 * fails.
 * <p>
 * With a read deadline, a read runs in a reader thread: an RDMA netlink request waits
 * while the device does not answer ({@code nldev_stat_get_doit} reads the counters with
 * {@code ib_dev->ops.get_hw_stats}, a firmware command on mlx5). While a read is past its
 * deadline, snapshots have no ports and are {@link OptionalCountersSnapshot#unavailable()
 * unavailable}, naming the request; one read at a time. Thread-safe.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public final class OptionalCounters implements AutoCloseable {

	private static final Logger logger = System.getLogger(OptionalCounters.class.getName());

	private final NldevOpener client;

	private final Settings settings;

	private final Clock clock;

	private final ReadCache<OptionalCountersSnapshot> cache;

	/** The kernel index each device had when the counters were last applied to it. */
	private final Map<String, Long> applied = new ConcurrentHashMap<>();

	private final Set<String> warned = ConcurrentHashMap.newKeySet();

	private final Consumer<String> warnings;

	private final Duration readDeadline;

	/**
	 * Create the optional counters; nothing is asked until the first call. Warnings are
	 * logged at WARNING with {@link System.Logger}.
	 * @param opener opens the client, again after it failed to
	 * @param settings which optional counters to enable
	 * @param readCacheTtl how long a snapshot is reused
	 * @param clock the clock of the read cache and of the snapshots
	 */
	public OptionalCounters(Supplier<NldevClient> opener, Settings settings, Duration readCacheTtl, Clock clock) {
		this(opener, settings, readCacheTtl, clock, (message) -> logger.log(Level.WARNING, message));
	}

	/**
	 * Create the optional counters; nothing is asked until the first call.
	 * @param opener opens the client, again after it failed to
	 * @param settings which optional counters to enable
	 * @param readCacheTtl how long a snapshot is reused
	 * @param clock the clock of the read cache and of the snapshots
	 * @param warnings where each warning goes, once: the application's log
	 */
	public OptionalCounters(Supplier<NldevClient> opener, Settings settings, Duration readCacheTtl, Clock clock,
			Consumer<String> warnings) {
		this(opener, settings, readCacheTtl, clock, warnings, ReadCache.NO_DEADLINE);
	}

	/**
	 * Create the optional counters whose callers wait at most a deadline for a read;
	 * nothing is asked until the first call.
	 * @param opener opens the client, again after it failed to
	 * @param settings which optional counters to enable
	 * @param readCacheTtl how long a snapshot is reused
	 * @param clock the clock of the read cache and of the snapshots
	 * @param warnings where each warning goes, once: the application's log
	 * @param readDeadline how long a caller waits for a read;
	 * {@link ReadCache#NO_DEADLINE} reads on the caller's thread
	 */
	public OptionalCounters(Supplier<NldevClient> opener, Settings settings, Duration readCacheTtl, Clock clock,
			Consumer<String> warnings, Duration readDeadline) {
		this.readDeadline = Objects.requireNonNull(readDeadline, "readDeadline");
		this.warnings = Objects.requireNonNull(warnings, "warnings");
		this.client = new NldevOpener(Objects.requireNonNull(opener, "opener"), "RDMA netlink's optional counters");
		this.settings = Objects.requireNonNull(settings, "settings");
		this.clock = Objects.requireNonNull(clock, "clock");
		this.cache = new ReadCache<>(readCacheTtl, clock, readDeadline);
	}

	/**
	 * Return which optional counters are enabled on which device.
	 * @return the settings
	 */
	public Settings settings() {
		return this.settings;
	}

	/**
	 * Return the optional counters of every port, read at most once per time-to-live.
	 * @return the snapshot
	 */
	public OptionalCountersSnapshot snapshot() {
		try {
			return this.cache.get(this::read);
		}
		catch (ReadStalledException ex) {
			return new OptionalCountersSnapshot(List.of(), Map.of(), "stalled: " + ex.getMessage(),
					this.clock.instant());
		}
	}

	/**
	 * Return the read cache's record of the reads, for the self-metrics and the stall.
	 * @return the cache
	 */
	public ReadCache<OptionalCountersSnapshot> reads() {
		return this.cache;
	}

	/**
	 * Enable the configured optional counters on every device, and warn once about a
	 * configured device this network namespace does not have. With a read deadline, in a
	 * daemon thread that the caller (startup) waits for at most the deadline: past it,
	 * enabling goes on in the background once RDMA netlink answers.
	 */
	public void applyAll() {
		if (this.settings.isEmpty()) {
			return;
		}
		bounded("rdma-optional-counters-apply", this::applyAllNow);
	}

	private void applyAllNow() {
		List<NldevDevice> devices;
		try {
			NldevClient current = this.client.get();
			devices = current.devices();
			for (NldevDevice device : devices) {
				applyTo(current, device);
			}
		}
		catch (RdmaClosedException ex) {
			// closed by the application's shutdown before RDMA netlink answered
			return;
		}
		catch (RuntimeException ex) {
			warnOnce("unavailable", "Cannot enable the optional counters of " + this.settings.property()
					+ ": RDMA netlink cannot be asked (" + ex.getMessage() + "); the application goes on without them");
			return;
		}
		finally {
			this.cache.invalidate();
		}
		List<String> present = devices.stream().map(NldevDevice::name).toList();
		for (String name : this.settings.devices().keySet()) {
			if (!present.contains(name)) {
				warnOnce("absent:" + name,
						this.settings.propertyOf(name) + " names RDMA device '" + name
								+ "', which this network namespace does not have (it has " + present
								+ "); its optional counters are enabled if it appears, check the name");
			}
		}
	}

	/**
	 * Enable the configured optional counters of a device again, e.g. after it was reset.
	 * With a read deadline, the caller (the device's event thread) waits at most that
	 * long, as {@link #applyAll()}.
	 * @param deviceName the device name
	 */
	public void reapply(String deviceName) {
		if (this.settings.forDevice(deviceName).isEmpty()) {
			return;
		}
		bounded("rdma-optional-counters-reapply", () -> reapplyNow(deviceName));
	}

	/**
	 * Run a task that sends RDMA netlink requests; with a read deadline in a daemon
	 * thread, waiting for it at most the deadline.
	 */
	private void bounded(String name, Runnable task) {
		if (this.readDeadline.isZero()) {
			task.run();
			return;
		}
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		thread.start();
		try {
			thread.join(Math.max(1, this.readDeadline.toMillis()));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (thread.isAlive()) {
			warnOnce("late:" + name, "RDMA netlink has not answered within the read deadline ("
					+ this.readDeadline.toMillis() + " ms) while enabling the optional counters of "
					+ this.settings.property()
					+ "; they are enabled in the background once it answers, and read as unavailable until then");
		}
	}

	private void reapplyNow(String deviceName) {
		try {
			NldevClient current = this.client.get();
			for (NldevDevice device : current.devices()) {
				if (device.name().equals(deviceName)) {
					applyTo(current, device);
				}
			}
		}
		catch (RdmaClosedException ex) {
			// the application is shutting down
		}
		catch (RuntimeException ex) {
			warnOnce("reapply:" + deviceName, "Cannot enable the optional counters of RDMA device " + deviceName
					+ " again after it was reopened: " + ex.getMessage());
		}
		finally {
			this.cache.invalidate();
		}
	}

	private OptionalCountersSnapshot read() {
		// named until a request of its own is sent: a shared client may be busy
		ReadCache.reading("RDMA netlink (optional counters)");
		Instant readAt = this.clock.instant();
		List<NldevDevice> devices;
		NldevClient current;
		try {
			current = this.client.get();
			devices = current.devices();
		}
		catch (RuntimeException ex) {
			return unavailable(ex, readAt);
		}
		List<PortOptionalCounters> ports = new ArrayList<>();
		Map<String, String> failures = new TreeMap<>();
		for (NldevDevice device : devices) {
			if (!Objects.equals(this.applied.get(device.name()), device.index())) {
				// a device registered since the last look: hotplug, driver reload
				applyTo(current, device);
			}
			for (int port = 1; port <= device.ports(); port++) {
				try {
					PortOptionalCounters counters = readPort(current, device, port);
					if (counters != null) {
						ports.add(counters);
					}
				}
				catch (RdmaClosedException ex) {
					// closed by the application's shutdown while it read
					return unavailable(ex, readAt);
				}
				catch (RuntimeException ex) {
					failures.put(device.name() + "/" + port, ex.getMessage());
				}
			}
		}
		return new OptionalCountersSnapshot(ports, failures, null, readAt);
	}

	private static OptionalCountersSnapshot unavailable(RuntimeException ex, Instant readAt) {
		return new OptionalCountersSnapshot(List.of(), Map.of(), ex.getMessage(), readAt);
	}

	private static @Nullable PortOptionalCounters readPort(NldevClient client, NldevDevice device, int port) {
		List<HwCounterStatus> optional = client.counterStatus(device, port)
			.stream()
			.filter(HwCounterStatus::optional)
			.toList();
		if (optional.isEmpty()) {
			return null;
		}
		Map<String, Long> values = optional.stream().anyMatch(HwCounterStatus::enabled)
				? client.portCounters(device, port) : Map.of();
		Map<String, OptionalCounter> counters = new LinkedHashMap<>();
		for (HwCounterStatus status : optional) {
			Long value = status.enabled() ? values.get(status.name()) : null;
			counters.put(status.name(), new OptionalCounter(status.name(), status.enabled() && value != null, value));
		}
		return new PortOptionalCounters(device.name(), port, counters);
	}

	private void applyTo(NldevClient client, NldevDevice device) {
		this.applied.put(device.name(), device.index());
		List<String> wanted = this.settings.forDevice(device.name());
		if (wanted.isEmpty()) {
			return;
		}
		String property = this.settings.propertyOf(device.name());
		for (int port = 1; port <= device.ports(); port++) {
			String link = device.name() + "/" + port;
			String where = device.name() + " port " + port;
			List<HwCounterStatus> status;
			try {
				status = client.counterStatus(device, port);
			}
			catch (RuntimeException ex) {
				warnOnce("status:" + link,
						"Cannot enable the optional counters " + wanted + " of " + where + " (" + property
								+ "): their status cannot be read (" + ex.getMessage()
								+ "); the port has no hardware counters, or the kernel is older than 5.16");
				continue;
			}
			Set<String> optional = new LinkedHashSet<>();
			Set<String> enabled = new LinkedHashSet<>();
			for (HwCounterStatus counter : status) {
				if (counter.optional()) {
					optional.add(counter.name());
					if (counter.enabled()) {
						enabled.add(counter.name());
					}
				}
			}
			if (optional.isEmpty() && !this.settings.devices().containsKey(device.name())) {
				// the global list asks where there are optional counters: not here
				logger.log(Level.DEBUG, "RDMA " + where + " has no optional counters; " + property + " skips it");
				continue;
			}
			List<String> unknown = wanted.stream().filter((name) -> !optional.contains(name)).toList();
			if (!unknown.isEmpty()) {
				warnOnce("unknown:" + link,
						property + " names " + unknown + ", which " + where + " does not have as optional counters"
								+ " (it has " + optional + ", as 'rdma statistic mode supported link " + link
								+ "' lists them); correct the names");
			}
			List<String> valid = wanted.stream().filter(optional::contains).distinct().toList();
			if (valid.isEmpty()) {
				continue;
			}
			try {
				List<String> added = client.enableOptionalCounters(device, port, valid);
				if (!added.isEmpty()) {
					logger.log(Level.INFO, "Enabled the optional counters " + added + " of RDMA " + where + " ("
							+ property + ")" + (enabled.isEmpty() ? "" : "; kept " + enabled + " enabled"));
				}
			}
			catch (RdmaOperationException ex) {
				Set<String> all = new LinkedHashSet<>(enabled);
				all.addAll(valid);
				if (ex.errno() == Errno.EPERM) {
					warnOnce("eperm:" + link, "Cannot enable the optional counters " + valid + " of RDMA " + where
							+ " (" + property + "): setting them needs the CAP_NET_ADMIN capability, which this "
							+ "process does not have; the application goes on without them. An operator can enable "
							+ "them instead with: rdma statistic set link " + link + " optional-counters "
							+ String.join(",", all));
				}
				else {
					warnOnce("set:" + link, "Cannot enable the optional counters " + valid + " of RDMA " + where + " ("
							+ property + "): " + ex.getMessage() + "; the application goes on without them");
				}
			}
			catch (RuntimeException ex) {
				warnOnce("set:" + link, "Cannot enable the optional counters " + valid + " of RDMA " + where + " ("
						+ property + "): " + ex.getMessage() + "; the application goes on without them");
			}
		}
	}

	private void warnOnce(String key, String message) {
		if (this.warned.add(key)) {
			this.warnings.accept(message);
		}
		else {
			logger.log(Level.DEBUG, message);
		}
	}

	/**
	 * Close the client; later snapshots say it is closed.
	 */
	@Override
	public void close() {
		this.client.close();
	}

	@Override
	public String toString() {
		return "OptionalCounters " + this.settings;
	}

	/**
	 * Which optional counters to enable.
	 *
	 * @param enable the optional counters to enable on every device
	 * @param devices the optional counters to enable on a device, instead of
	 * {@code enable}, by device name
	 * @param property the property prefix the settings come from, for messages, e.g.
	 * {@code rdma.optional-counters}
	 */
	public record Settings(List<String> enable, Map<String, List<String>> devices, String property) {

		/**
		 * Create settings; blank names are dropped.
		 * @param enable the counters for every device
		 * @param devices the counters by device
		 * @param property the property prefix
		 */
		public Settings {
			enable = names(enable);
			Map<String, List<String>> copy = new LinkedHashMap<>();
			devices.forEach((device, names) -> copy.put(device, names(names)));
			devices = java.util.Collections.unmodifiableMap(copy);
		}

		/**
		 * Return settings that enable nothing.
		 * @param property the property prefix
		 * @return the settings
		 */
		public static Settings none(String property) {
			return new Settings(List.of(), Map.of(), property);
		}

		private static List<String> names(List<String> names) {
			return names.stream().map(String::trim).filter((name) -> !name.isEmpty()).distinct().toList();
		}

		/**
		 * Return whether nothing is to be enabled anywhere.
		 * @return {@code true} if nothing is
		 */
		public boolean isEmpty() {
			return this.enable.isEmpty() && this.devices.values().stream().allMatch(List::isEmpty);
		}

		/**
		 * Return the optional counters to enable on a device.
		 * @param device the device name
		 * @return the names, possibly empty
		 */
		public List<String> forDevice(String device) {
			List<String> own = this.devices.get(device);
			return (own != null) ? own : this.enable;
		}

		/**
		 * Return the property a device's list comes from.
		 * @param device the device name
		 * @return e.g. {@code rdma.optional-counters.enable}
		 */
		public String propertyOf(String device) {
			return this.property + (this.devices.containsKey(device) ? ".devices." + device : "") + ".enable";
		}

	}

}
