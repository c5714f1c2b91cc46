package io.github.rdmacounters.diagnosis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.RdmaException;
import io.github.rdmacounters.ethtool.StatisticsReader;

/**
 * Reads the ethtool statistics of each network interface once
 * ({@code ETHTOOL_GSSET_INFO}, {@code ETHTOOL_GSTRINGS}, {@code ETHTOOL_GSTATS}, which
 * {@code dev_ethtool} lets anyone run) to tell whether they are reachable.
 */
final class EthtoolCollector {

	private final @Nullable Supplier<StatisticsReader> opener;

	private @Nullable StatisticsReader reader;

	private @Nullable String openFailure;

	private final Duration timeout;

	/** The netdev whose read did not return in time: the reader is busy with it. */
	private @Nullable String stuck;

	/**
	 * Create a collector.
	 * @param opener opens a reader, or {@code null} when there is none
	 * @param timeout how long one netdev's read may take ({@code ETHTOOL_GSTATS} of mlx5
	 * reaches the firmware); past it the read goes on in a daemon thread and no other
	 * netdev is read
	 */
	EthtoolCollector(@Nullable Supplier<StatisticsReader> opener, Duration timeout) {
		this.opener = opener;
		this.timeout = timeout;
	}

	List<EthtoolReport> collect(List<String> netdevs) {
		List<EthtoolReport> reports = new ArrayList<>();
		for (String netdev : netdevs) {
			reports.add(read(netdev));
		}
		return reports;
	}

	private EthtoolReport read(String netdev) {
		StatisticsReader current = reader();
		if (current == null) {
			return new EthtoolReport(netdev, false, 0, this.openFailure);
		}
		if (this.stuck != null) {
			return new EthtoolReport(netdev, false, 0,
					"not read: the ethtool read of " + this.stuck + " has not returned");
		}
		CompletableFuture<EthtoolReport> future = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				future.complete(readNow(current, netdev));
			}
			catch (RuntimeException | Error ex) {
				future.completeExceptionally(ex);
			}
		}, "rdma-diagnosis-ethtool");
		thread.setDaemon(true);
		thread.start();
		try {
			return future.get(Math.max(1, this.timeout.toMillis()), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			this.stuck = netdev;
			return new EthtoolReport(netdev, false, 0, "no answer to ioctl(SIOCETHTOOL) on " + netdev + " within "
					+ this.timeout.toMillis() + " ms: the driver or its firmware does not answer");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return new EthtoolReport(netdev, false, 0, "interrupted");
		}
		catch (ExecutionException ex) {
			return new EthtoolReport(netdev, false, 0, String.valueOf(ex.getCause()));
		}
	}

	private static EthtoolReport readNow(StatisticsReader reader, String netdev) {
		try {
			return new EthtoolReport(netdev, true, reader.read(netdev).size(), null);
		}
		catch (RdmaException | IllegalArgumentException ex) {
			return new EthtoolReport(netdev, false, 0, ex.getMessage());
		}
	}

	private @Nullable StatisticsReader reader() {
		if (this.reader == null && this.openFailure == null) {
			if (this.opener == null) {
				this.openFailure = "the backend has no ethtool statistics";
				return null;
			}
			try {
				this.reader = this.opener.get();
			}
			catch (RdmaException | LinkageError ex) {
				this.openFailure = "cannot open an ethtool socket: " + ex.getMessage();
			}
		}
		return this.reader;
	}

	void close() {
		if (this.reader instanceof AutoCloseable closeable) {
			try {
				closeable.close();
			}
			catch (Exception ex) {
				// a reader that fails to close has nothing more to report
			}
		}
	}

}
