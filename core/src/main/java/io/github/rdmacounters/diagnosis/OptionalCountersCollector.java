package io.github.rdmacounters.diagnosis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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

	/** The request being sent, for a report of no answer. */
	private volatile String asking = "RDMA netlink";

	private final Map<String, Map<Integer, OptionalCountersReport>> ports = new LinkedHashMap<>();

	/**
	 * Create a collector.
	 * @param opener opens a client, or {@code null} when the backend has no RDMA netlink
	 */
	OptionalCountersCollector(@Nullable Supplier<RdmaNetlink> opener) {
		this.opener = opener;
	}

	/**
	 * Ask RDMA netlink about the ports, waiting at most a time limit: a device that does
	 * not answer holds a request in the kernel
	 * ({@code nldev_stat_get_counter_status_doit} waits on the driver). Past the limit
	 * the request goes on in a daemon thread, which closes its socket when it returns,
	 * and the report says which request had no answer.
	 */
	void collect(Map<String, List<Integer>> devicePorts, Duration timeout) {
		Supplier<RdmaNetlink> given = this.opener;
		if (given == null) {
			this.report = new NetlinkReport(false, "the backend has no RDMA netlink");
			return;
		}
		CompletableFuture<Asked> future = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				future.complete(ask(given, devicePorts));
			}
			catch (RuntimeException | Error ex) {
				future.completeExceptionally(ex);
			}
		}, "rdma-diagnosis-netlink");
		thread.setDaemon(true);
		thread.start();
		try {
			Asked asked = future.get(Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS);
			this.report = asked.report();
			this.ports.putAll(asked.ports());
		}
		catch (TimeoutException ex) {
			this.report = new NetlinkReport(false, "no answer to " + this.asking + " within " + timeout.toMillis()
					+ " ms: the device does not answer the kernel");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.report = new NetlinkReport(false, "interrupted while asking RDMA netlink");
		}
		catch (ExecutionException ex) {
			this.report = new NetlinkReport(false, String.valueOf(ex.getCause()));
		}
	}

	private Asked ask(Supplier<RdmaNetlink> given, Map<String, List<Integer>> devicePorts) {
		Map<String, Map<Integer, OptionalCountersReport>> asked = new LinkedHashMap<>();
		this.asking = "RDMA_NLDEV_CMD_GET";
		try (RdmaNetlink netlink = given.get()) {
			List<NldevDevice> devices = netlink.devices();
			devicePorts.forEach((name, ports) -> {
				NldevDevice device = devices.stream().filter((d) -> d.name().equals(name)).findFirst().orElse(null);
				Map<Integer, OptionalCountersReport> byPort = new LinkedHashMap<>();
				for (int port : ports) {
					this.asking = "RDMA_NLDEV_CMD_STAT_GET_STATUS of " + name + " port " + port;
					byPort.put(port,
							(device != null) ? port(netlink, device, port) : new OptionalCountersReport("failed",
									List.of(), List.of(), "RDMA netlink does not list " + name));
				}
				asked.put(name, byPort);
			});
			return new Asked(new NetlinkReport(true, null), asked);
		}
		catch (RdmaException | IllegalStateException ex) {
			return new Asked(new NetlinkReport(false, ex.getMessage()), Map.of());
		}
	}

	private record Asked(NetlinkReport report, Map<String, Map<Integer, OptionalCountersReport>> ports) {
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
