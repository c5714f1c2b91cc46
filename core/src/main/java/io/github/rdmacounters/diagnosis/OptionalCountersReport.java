package io.github.rdmacounters.diagnosis;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A port's optional counters as RDMA netlink reports them
 * ({@code RDMA_NLDEV_CMD_STAT_GET_STATUS}).
 *
 * @param status {@code read}, {@code failed} or {@code not-asked} (no RDMA netlink)
 * @param supported the optional counters the port has
 * @param enabled those enabled now
 * @param error why they could not be read, or {@code null}
 * @since 0.1.0
 */
public record OptionalCountersReport(String status, List<String> supported, List<String> enabled,
		@Nullable String error) {

	static final OptionalCountersReport NOT_ASKED = new OptionalCountersReport("not-asked", List.of(), List.of(), null);

	public OptionalCountersReport {
		supported = List.copyOf(supported);
		enabled = List.copyOf(enabled);
	}

}
