package io.github.rdmacounters.autoconfigure.netlink;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.rdmacounters.autoconfigure.RdmaProperties;

/**
 * Optional counters of the ports, read and enabled over RDMA netlink
 * ({@code rdma.optional-counters}).
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public class RdmaOptionalCountersProperties {

	/**
	 * Prefix of the optional counters' properties.
	 */
	public static final String PREFIX = RdmaProperties.PREFIX + ".optional-counters";

	/**
	 * Whether the optional counters of every port are read over RDMA netlink and shown as
	 * meters and in the rdma endpoint.
	 */
	private boolean enabled = true;

	/**
	 * Comma-separated list of optional counters to enable on every port, e.g.
	 * cc_rx_ce_pkts,cc_rx_cnp_pkts; those another tool enabled stay enabled. Needs
	 * CAP_NET_ADMIN.
	 */
	private final List<String> enable = new ArrayList<>();

	/**
	 * Optional counters to enable on the ports of a device, instead of enable, by device
	 * name, e.g. mlx5_0.
	 */
	private final Map<String, Device> devices = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public List<String> getEnable() {
		return this.enable;
	}

	public Map<String, Device> getDevices() {
		return this.devices;
	}

	/**
	 * Optional counters of one device.
	 */
	public static class Device {

		/**
		 * Comma-separated list of optional counters to enable on every port of the
		 * device.
		 */
		private final List<String> enable = new ArrayList<>();

		public List<String> getEnable() {
			return this.enable;
		}

	}

}
