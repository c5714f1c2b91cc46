package io.github.rdmacounters.autoconfigure.netlink;

import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.bind.DefaultValue;

import io.github.rdmacounters.autoconfigure.RdmaProperties;

/**
 * Optional counters of the ports, read and enabled over RDMA netlink
 * ({@code rdma.optional-counters}). The tag of {@code enable} comes first: the
 * configuration processor would read it from the start of the tag of {@code enabled}.
 *
 * @param enable Comma-separated list of optional counters to enable on every port, e.g.
 * cc_rx_ce_pkts,cc_rx_cnp_pkts; those another tool enabled stay enabled. Needs
 * CAP_NET_ADMIN.
 * @param enabled Whether the optional counters of every port are read over RDMA netlink
 * and shown as meters and in the rdma endpoint.
 * @param devices Optional counters to enable on the ports of a device, instead of enable,
 * by device name, e.g. mlx5_0.
 * @since 0.1.0
 * @author rdma-counters
 */
public record RdmaOptionalCountersProperties(@DefaultValue("true") boolean enabled, @DefaultValue List<String> enable,
		@DefaultValue Map<String, Device> devices) {

	/**
	 * Prefix of the optional counters' properties.
	 */
	public static final String PREFIX = RdmaProperties.PREFIX + ".optional-counters";

	/**
	 * Optional counters of one device.
	 *
	 * @param enable Comma-separated list of optional counters to enable on every port of
	 * the device.
	 */
	public record Device(@DefaultValue List<String> enable) {

	}

}
