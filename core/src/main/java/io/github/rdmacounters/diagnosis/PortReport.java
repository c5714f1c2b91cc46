package io.github.rdmacounters.diagnosis;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One port: its link, its counter files and the verdicts.
 *
 * @param port the port number
 * @param linkLayer {@code InfiniBand} or {@code Ethernet}, or {@code null} if unreadable
 * @param state e.g. {@code ACTIVE}, or {@code null}
 * @param physicalState e.g. {@code LinkUp}, or {@code null}
 * @param rate e.g. {@code 100 Gb/sec (4X EDR)}, or {@code null}
 * @param gidTypes the GID types in the port's GID table (e.g. {@code RoCE v2})
 * @param roce whether RoCE is enabled: an Ethernet port with RoCE GIDs
 * @param counterFiles how the counter files read
 * @param optionalCounters the optional counters from RDMA netlink
 * @param probe the steps of {@code --probe}, empty without it
 * @param flowCounters whether flow counters work on the port
 * @param portCounters whether port counters work on the port
 * @since 0.1.0
 */
public record PortReport(int port, @Nullable String linkLayer, @Nullable String state, @Nullable String physicalState,
		@Nullable String rate, List<String> gidTypes, boolean roce, CounterFilesReport counterFiles,
		OptionalCountersReport optionalCounters, List<ProbeStep> probe, Verdict flowCounters, Verdict portCounters) {

	public PortReport {
		gidTypes = List.copyOf(gidTypes);
		probe = List.copyOf(probe);
	}

}
