package io.github.rdmacounters.actuate.health;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.PortCountersSource;
import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.core.Presence;
import io.github.rdmacounters.core.ReadStall;
import io.github.rdmacounters.ethtool.HostNetdevStatistics;
import io.github.rdmacounters.ethtool.PauseStorm;

/**
 * {@link HealthIndicator} for a device of the host that the application reads port
 * counters from but does not open (no counter sets on it): up while its sysfs directory
 * is there, down once it is gone; every port with its state, and the ports and counter
 * files that vanished, as details. Reads the source's memoised snapshot, so it makes no
 * file read within the read cache time-to-live of a scrape.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public class PortCountersHealthIndicator extends AbstractHealthIndicator {

	private final PortCountersSource source;

	private final @Nullable HostNetdevStatistics ethtool;

	/**
	 * Create an indicator for a device's port counters.
	 * @param source the device's port counters
	 */
	public PortCountersHealthIndicator(PortCountersSource source) {
		this(source, null);
	}

	/**
	 * Create an indicator for a device's port counters that also reports a pause storm on
	 * a port's netdev.
	 * @param source the device's port counters
	 * @param ethtool the netdevs' driver statistics, or {@code null}
	 */
	public PortCountersHealthIndicator(PortCountersSource source, @Nullable HostNetdevStatistics ethtool) {
		super("RDMA port counters health check failed");
		this.source = source;
		this.ethtool = ethtool;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		PortCountersSnapshot snapshot = this.source.snapshot();
		builder.withDetail("device", snapshot.deviceName());
		describe(snapshot, builder, this.ethtool);
		ReadStall stall = snapshot.stall();
		if (stall != null) {
			builder.down().withDetail("reason", stalledReason(stall));
		}
		else if (snapshot.isPresent()) {
			builder.up();
		}
		else {
			builder.down()
				.withDetail("reason", "Device " + snapshot.deviceName() + " is gone: its sysfs directory vanished");
		}
	}

	/**
	 * Add the presence, identity and ports of a device's snapshot to a health builder.
	 * @param snapshot the snapshot
	 * @param builder the builder
	 * @param ethtool the netdevs' driver statistics, whose pause storms are added per
	 * port, or {@code null}
	 */
	static void describe(PortCountersSnapshot snapshot, Health.Builder builder,
			@Nullable HostNetdevStatistics ethtool) {
		builder.withDetail("present", snapshot.isPresent());
		ReadStall stall = snapshot.stall();
		if (stall != null) {
			builder.withDetail("stalled", stalled(stall));
		}
		if (!snapshot.identity().netdevs().isEmpty()) {
			builder.withDetail("netdevs", snapshot.identity().netdevs());
		}
		if (snapshot.identity().pciAddress() != null) {
			builder.withDetail("pciAddress", snapshot.identity().pciAddress());
		}
		Map<String, Object> ports = new LinkedHashMap<>();
		for (PortStatus port : snapshot.ports()) {
			Map<String, Object> detail = new LinkedHashMap<>();
			detail.put("present", port.presence() == Presence.PRESENT);
			if (port.link().state() != null) {
				detail.put("state", port.link().state().name());
			}
			if (!port.missing().isEmpty()) {
				detail.put("missingCounterFiles", port.missing());
			}
			if (!port.unreadable().isEmpty()) {
				detail.put("unreadableFiles", port.unreadable());
			}
			if (!port.refused().isEmpty()) {
				// read again only after a backoff: their errno, not "unreadable" alone
				detail.put("refusedFiles", port.refused());
			}
			if (ethtool != null) {
				addPauseStorms(ethtool, snapshot.deviceName(), port.port(), detail);
			}
			ports.put(Integer.toString(port.port()), detail);
		}
		builder.withDetail("ports", ports);
	}

	/**
	 * Return the details of a read past its deadline: the file or call and how long it
	 * has run.
	 * @param stall the stall
	 * @return the details
	 */
	static Map<String, Object> stalled(ReadStall stall) {
		Map<String, Object> detail = new LinkedHashMap<>();
		detail.put("in", stall.what());
		detail.put("runningMillis", stall.running().toMillis());
		detail.put("stalls", stall.stalls());
		return detail;
	}

	static String stalledReason(ReadStall stall) {
		return "Read of " + stall.what() + " has not returned after " + stall.running().toMillis()
				+ " ms; its values are NaN until it does";
	}

	/**
	 * A pause storm is a detail, the port stays UP: the fabric is congested, the
	 * application is not at fault, and taking it out of service would not help.
	 */
	private static void addPauseStorms(HostNetdevStatistics ethtool, String device, int port,
			Map<String, Object> detail) {
		Map<String, PauseStorm> storms = new LinkedHashMap<>();
		try {
			ethtool.port(device, port).forEach((netdev, statistics) -> {
				if (statistics.pauseStorm() != null) {
					storms.put(netdev, statistics.pauseStorm());
				}
			});
		}
		catch (RuntimeException ex) {
			detail.put("ethtoolError", String.valueOf(ex.getMessage()));
		}
		if (!storms.isEmpty()) {
			detail.put("pauseStorm", storms);
		}
	}

}
