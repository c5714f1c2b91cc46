package io.github.rdmacounters.diagnosis;

import java.util.ArrayList;
import java.util.List;
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

	/**
	 * Create a collector.
	 * @param opener opens a reader, or {@code null} when there is none
	 */
	EthtoolCollector(@Nullable Supplier<StatisticsReader> opener) {
		this.opener = opener;
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
		try {
			return new EthtoolReport(netdev, true, current.read(netdev).size(), null);
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
