package io.github.rdmacounters.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.RdmaException;
import io.github.rdmacounters.diagnosis.DiagnosisReport.NetlinkReport;
import io.github.rdmacounters.netlink.HwCounterStatus;
import io.github.rdmacounters.netlink.NldevDevice;
import io.github.rdmacounters.netlink.RdmaNetlink;

/**
 * Asks RDMA netlink which optional counters each port has and which are enabled
 * ({@code RDMA_NLDEV_CMD_STAT_GET_STATUS}, which needs no privilege); enables nothing.
 */
final class OptionalCountersCollector {

	private final @Nullable Supplier<RdmaNetlink> opener;

	private NetlinkReport report = new NetlinkReport(false, "not asked");

	private final Map<String, Map<Integer, OptionalCountersReport>> ports = new LinkedHashMap<>();

	/**
	 * Create a collector.
	 * @param opener opens a client, or {@code null} when the backend has no RDMA netlink
	 */
	OptionalCountersCollector(@Nullable Supplier<RdmaNetlink> opener) {
		this.opener = opener;
	}

	void collect(Map<String, List<Integer>> devicePorts) {
		if (this.opener == null) {
			this.report = new NetlinkReport(false, "the backend has no RDMA netlink");
			return;
		}
		try (RdmaNetlink netlink = this.opener.get()) {
			List<NldevDevice> devices = netlink.devices();
			this.report = new NetlinkReport(true, null);
			devicePorts.forEach((name, ports) -> {
				NldevDevice device = devices.stream().filter((d) -> d.name().equals(name)).findFirst().orElse(null);
				Map<Integer, OptionalCountersReport> byPort = new LinkedHashMap<>();
				for (int port : ports) {
					byPort.put(port,
							(device != null) ? port(netlink, device, port) : new OptionalCountersReport("failed",
									List.of(), List.of(), "RDMA netlink does not list " + name));
				}
				this.ports.put(name, byPort);
			});
		}
		catch (RdmaException | IllegalStateException ex) {
			this.report = new NetlinkReport(false, ex.getMessage());
		}
	}

	private static OptionalCountersReport port(RdmaNetlink netlink, NldevDevice device, int port) {
		try {
			List<String> supported = new ArrayList<>();
			List<String> enabled = new ArrayList<>();
			for (HwCounterStatus counter : netlink.counterStatus(device, port)) {
				if (counter.optional()) {
					supported.add(counter.name());
					if (counter.enabled()) {
						enabled.add(counter.name());
					}
				}
			}
			return new OptionalCountersReport("read", supported, enabled, null);
		}
		catch (RdmaException ex) {
			return new OptionalCountersReport("failed", List.of(), List.of(), ex.getMessage());
		}
	}

	NetlinkReport report() {
		return this.report;
	}

	OptionalCountersReport port(String device, int port) {
		Map<Integer, OptionalCountersReport> byPort = this.ports.get(device);
		OptionalCountersReport found = (byPort != null) ? byPort.get(port) : null;
		return (found != null) ? found : OptionalCountersReport.NOT_ASKED;
	}

}
