package io.github.rdmacounters.netlink;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.core.ReadCache;
import io.github.rdmacounters.core.ReadStalledException;

/**
 * The queue pairs of one process, e.g. this JVM's, on every device RDMA netlink shows: an
 * {@code RDMA_NLDEV_CMD_RES_QP_GET} dump of each device within a budget, filtered by pid,
 * through a {@link ReadCache}. Whatever creates them (UCX, libfabric, DiSNI, the
 * application's own verbs, this library's raw packet queue pairs) the kernel's resource
 * tracker records the creating process ({@code rdma_restrack_add} in
 * {@code drivers/infiniband/core/restrack.c}) and {@code fill_res_qp_entry} in
 * {@code nldev.c} reports its pid as the reader's pid namespace sees it, hiding resources
 * of processes the reader cannot see ({@code rdma_is_visible_in_pid_ns}). With a read
 * deadline, a read runs in a reader thread, one at a time; while it is past its deadline,
 * snapshots have no queue pairs and are {@link Snapshot#unavailable() unavailable},
 * naming the request. Thread-safe.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public final class ProcessQueuePairs implements AutoCloseable {

	private final NldevOpener client;

	private final long pid;

	private final NetlinkBudget budget;

	private final Clock clock;

	private final ReadCache<Snapshot> cache;

	/**
	 * Create the queue pairs of a process; nothing is asked until the first read.
	 * @param opener opens the client, again after it failed to
	 * @param pid the process, e.g. {@code ProcessHandle.current().pid()}
	 * @param budget the most one device's dump may send
	 * @param readCacheTtl how long a snapshot is reused
	 * @param clock the clock of the read cache and of the snapshots
	 */
	public ProcessQueuePairs(Supplier<NldevClient> opener, long pid, NetlinkBudget budget, Duration readCacheTtl,
			Clock clock) {
		this(opener, pid, budget, readCacheTtl, clock, ReadCache.NO_DEADLINE);
	}

	/**
	 * Create the queue pairs of a process whose callers wait at most a deadline for a
	 * read; nothing is asked until the first read.
	 * @param opener opens the client, again after it failed to
	 * @param pid the process, e.g. {@code ProcessHandle.current().pid()}
	 * @param budget the most one device's dump may send
	 * @param readCacheTtl how long a snapshot is reused
	 * @param clock the clock of the read cache and of the snapshots
	 * @param readDeadline how long a caller waits for a read;
	 * {@link ReadCache#NO_DEADLINE} reads on the caller's thread
	 */
	public ProcessQueuePairs(Supplier<NldevClient> opener, long pid, NetlinkBudget budget, Duration readCacheTtl,
			Clock clock, Duration readDeadline) {
		this.client = new NldevOpener(Objects.requireNonNull(opener, "opener"), "RDMA netlink's queue pairs");
		this.pid = pid;
		this.budget = Objects.requireNonNull(budget, "budget");
		this.clock = Objects.requireNonNull(clock, "clock");
		this.cache = new ReadCache<>(readCacheTtl, clock, readDeadline);
	}

	/**
	 * Return the process.
	 * @return its pid
	 */
	public long pid() {
		return this.pid;
	}

	/**
	 * Return the process's queue pairs, read at most once per time-to-live.
	 * @return the snapshot
	 */
	public Snapshot snapshot() {
		try {
			return this.cache.get(this::read);
		}
		catch (ReadStalledException ex) {
			return new Snapshot(Map.of(), Map.of(), "stalled: " + ex.getMessage(), this.clock.instant());
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
		ReadCache.reading("RDMA netlink (queue pairs)");
		Instant readAt = this.clock.instant();
		NldevClient current;
		List<NldevDevice> devices;
		try {
			current = this.client.get();
			devices = current.devices();
		}
		catch (RuntimeException ex) {
			return unavailable(ex, readAt);
		}
		Map<String, List<NldevQueuePair>> ours = new TreeMap<>();
		Map<String, String> failures = new TreeMap<>();
		for (NldevDevice device : devices) {
			try {
				ours.put(device.name(),
						current.queuePairs(device, this.budget)
							.stream()
							.filter((queuePair) -> queuePair.pid() != null && queuePair.pid() == this.pid)
							.toList());
			}
			catch (RdmaClosedException ex) {
				// closed by the application's shutdown while it read
				return unavailable(ex, readAt);
			}
			catch (RuntimeException ex) {
				failures.put(device.name(), ex.getMessage());
			}
		}
		return new Snapshot(ours, failures, null, readAt);
	}

	private static Snapshot unavailable(RuntimeException ex, Instant readAt) {
		return new Snapshot(Map.of(), Map.of(), ex.getMessage(), readAt);
	}

	/**
	 * Close the client; later snapshots say it is closed.
	 */
	@Override
	public void close() {
		this.client.close();
	}

	/**
	 * The queue pairs of the process, read together.
	 *
	 * @param devices the process's queue pairs on each device, by device name
	 * @param failures why a device's dump failed, by device name
	 * @param unavailable why RDMA netlink could not be asked, or {@code null}
	 * @param readAt when the read started
	 */
	public record Snapshot(Map<String, List<NldevQueuePair>> devices, Map<String, String> failures,
			@Nullable String unavailable, Instant readAt) {

		/**
		 * Create a snapshot.
		 * @param devices the queue pairs by device
		 * @param failures the failures by device
		 * @param unavailable why RDMA netlink could not be asked, or {@code null}
		 * @param readAt when the read started
		 */
		public Snapshot {
			devices = Map.copyOf(devices);
			failures = Map.copyOf(failures);
		}

		/**
		 * Count the queue pairs of a device's port by type and state.
		 * @param device the device name
		 * @param port the port, or 0 for queue pairs without one yet
		 * @return the counts by {@code TYPE/STATE}, e.g. {@code RC/RTS}, sorted
		 */
		public Map<String, Integer> counts(String device, int port) {
			Map<String, Integer> counts = new TreeMap<>();
			for (NldevQueuePair queuePair : this.devices.getOrDefault(device, List.of())) {
				if (queuePair.port() == port) {
					counts.merge(queuePair.typeName() + "/" + queuePair.stateName(), 1, Integer::sum);
				}
			}
			return counts;
		}

		/**
		 * Return the queue pairs in the error state ({@code IB_QPS_ERR}).
		 * @return {@code device/lqpn} of each, e.g. {@code mlx5_0/418}
		 */
		public List<String> inError() {
			List<String> errors = new ArrayList<>();
			this.devices.forEach((device, queuePairs) -> queuePairs.stream()
				.filter((queuePair) -> "ERR".equals(queuePair.stateName()))
				.forEach((queuePair) -> errors.add(device + "/" + queuePair.lqpn())));
			errors.sort(null);
			return errors;
		}

	}

}
