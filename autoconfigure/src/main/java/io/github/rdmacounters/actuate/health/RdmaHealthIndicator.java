package io.github.rdmacounters.actuate.health;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterSetReading;
import io.github.rdmacounters.core.DeviceEventTracker;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.core.PortCountersSource;
import io.github.rdmacounters.core.PortEventState;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.ethtool.HostNetdevStatistics;

/**
 * {@link HealthIndicator} for one managed RDMA device: up when the device is open, its
 * port is active and every counter set could be read; down with the reason otherwise. The
 * port state comes from the device's last PORT_ACTIVE or PORT_ERR event for one read
 * cache time-to-live after it (no query: a link that drops shows at once), from
 * {@code ibv_query_port} otherwise, through the device's query cache (one query per port
 * and time-to-live, shared with the endpoint), so a query after the time-to-live corrects
 * a state an event set; a device that failed ({@code DEVICE_FATAL}, {@code ENODEV},
 * {@code EIO}) is down with that reason until it is reopened. An unavailable device is
 * down with the device's reason, and still lists its counter sets. Counter sets are read
 * through their memoised {@link CounterSet#read()}, so a health check within the read
 * cache time-to-live of a scrape causes no extra device read. The port counters' snapshot
 * adds the ports found, gone ports and vanished counter files.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public class RdmaHealthIndicator extends AbstractHealthIndicator {

	private final ManagedDevice device;

	private final @Nullable HostNetdevStatistics ethtool;

	/**
	 * Create an indicator for a device. Its port is asked through the device's query
	 * cache: a device opened by {@link io.github.rdmacounters.core.ManagedDeviceFactory}
	 * reuses a port query for the read cache time-to-live, so that frequent health
	 * requests (a load balancer, a readiness probe) and the endpoint reach the device
	 * once per time-to-live.
	 * @param device the managed device
	 */
	public RdmaHealthIndicator(ManagedDevice device) {
		this(device, null);
	}

	/**
	 * Create an indicator for a device that also reports a pause storm on a port's
	 * netdev.
	 * @param device the managed device
	 * @param ethtool the netdevs' driver statistics, or {@code null}
	 */
	public RdmaHealthIndicator(ManagedDevice device, @Nullable HostNetdevStatistics ethtool) {
		super("RDMA health check failed");
		this.device = device;
		this.ethtool = ethtool;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		builder.withDetail("backend", this.device.backend()).withDetail("device", this.device.name());
		RdmaDevice opened = this.device.openedDevice().orElse(null);
		if (opened == null || !this.device.isAvailable()) {
			RuntimeException cause = this.device.unavailabilityCause();
			String reason = (cause != null) ? "Device unavailable: " + cause.getMessage()
					: "Device " + this.device.name() + " is closed";
			builder.down().withDetail("reason", reason);
			if (cause != null && !this.device.counterSets().isEmpty()) {
				Map<String, Object> sets = new LinkedHashMap<>();
				for (CounterSet set : this.device.counterSets()) {
					sets.put(set.name(), checkSet(set, new ArrayList<>()));
				}
				builder.withDetail("counterSets", sets);
			}
			return;
		}
		List<String> problems = new ArrayList<>();
		DeviceEventTracker events = this.device.events();
		String failure = (events != null) ? events.failure() : null;
		if (failure != null) {
			problems.add("Device failed (" + failure + "); it is reopened when it is present again");
		}
		else {
			Map<String, Object> ports = new LinkedHashMap<>();
			for (int port : this.device.ports()) {
				Map<String, Object> detail = new LinkedHashMap<>();
				if (!checkPortFromEvents(port, detail, problems)) {
					checkPort(opened, port, detail, problems);
				}
				ports.put(Integer.toString(port), detail);
			}
			builder.withDetail("portStates", ports);
		}
		checkPortCounters(builder);
		Map<String, Object> sets = new LinkedHashMap<>();
		for (CounterSet set : this.device.counterSets()) {
			sets.put(set.name(), checkSet(set, problems));
		}
		builder.withDetail("counterSets", sets);
		if (problems.isEmpty()) {
			builder.up();
		}
		else {
			builder.down().withDetail("reason", String.join("; ", problems));
		}
	}

	/**
	 * Report the port state the last PORT_ACTIVE or PORT_ERR set, with no query, while it
	 * stands for the port's state (younger than the read cache time-to-live, no query
	 * since).
	 * @return whether an event had set it
	 */
	private boolean checkPortFromEvents(int port, Map<String, Object> detail, List<String> problems) {
		PortEventState state = this.device.portEventState(port);
		if (state == null) {
			return false;
		}
		detail.put("state", state.state().name());
		detail.put("changedAt", state.changedAt().toString());
		detail.put("source", state.event().verbsName());
		if (!state.isActive()) {
			problems.add("Port " + port + " is " + state.state() + " (" + state.event().verbsName() + " at "
					+ state.changedAt() + ")");
		}
		return true;
	}

	private void checkPort(RdmaDevice opened, int number, Map<String, Object> detail, List<String> problems) {
		try {
			PortAttributes port = opened.queryPort(number);
			detail.put("state", port.state().name());
			detail.put("physicalState", port.physicalStateName());
			if (port.state() != PortState.ACTIVE && port.state() != PortState.ACTIVE_DEFER) {
				problems.add("Port " + number + " is " + port.state() + " (physical state " + port.physicalStateName()
						+ ")");
			}
		}
		catch (RuntimeException ex) {
			problems.add("Port " + number + " could not be queried: " + ex.getMessage());
		}
	}

	private void checkPortCounters(Health.Builder builder) {
		PortCountersSource source = this.device.portCounters();
		if (source == null) {
			return;
		}
		try {
			PortCountersHealthIndicator.describe(source.snapshot(), builder, this.ethtool);
		}
		catch (RuntimeException ex) {
			builder.withDetail("portCountersError", String.valueOf(ex.getMessage()));
		}
	}

	private Map<String, Object> checkSet(CounterSet set, List<String> problems) {
		CounterSetReading reading = set.read();
		Map<String, Object> status = new LinkedHashMap<>();
		status.put("status", reading.isSuccess() ? "UP" : "DOWN");
		status.put("readAt", reading.readAt().toString());
		status.put("failedReads", reading.failedReads());
		RuntimeException failure = reading.failure();
		if (failure != null) {
			status.put("error", String.valueOf(failure.getMessage()));
			problems.add("Counter set '" + set.name() + "' could not be read: " + failure.getMessage());
		}
		return status;
	}

}
