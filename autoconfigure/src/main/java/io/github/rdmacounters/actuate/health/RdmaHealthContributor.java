package io.github.rdmacounters.actuate.health;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;

import io.github.rdmacounters.core.HostPortCountersSnapshot;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.core.ReadStall;
import io.github.rdmacounters.ethtool.HostNetdevStatistics;

/**
 * The {@code rdma} health component: one contributor per device, so that
 * {@code /actuator/health/rdma/mlx5_3} shows one device. A managed device (one the
 * application opened for counter sets) gets an {@link RdmaHealthIndicator}; every other
 * device of the host that port counters are read from gets a
 * {@link PortCountersHealthIndicator}. The host's devices are listed from its memoised
 * snapshot at each request, so a device that appears later has a contributor and one that
 * vanished is reported down.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public class RdmaHealthContributor implements CompositeHealthContributor {

	private final RdmaRegistry registry;

	private final @Nullable HostPortCountersSource host;

	private final @Nullable HostNetdevStatistics ethtool;

	private final Map<String, HealthContributor> contributors = new ConcurrentHashMap<>();

	/**
	 * Create the composite.
	 * @param registry the managed devices
	 * @param host the host's port counters, or {@code null} if they are not read
	 */
	public RdmaHealthContributor(RdmaRegistry registry, @Nullable HostPortCountersSource host) {
		this(registry, host, null);
	}

	/**
	 * Create the composite, whose ports also report a pause storm on their netdev.
	 * @param registry the managed devices
	 * @param host the host's port counters, or {@code null} if they are not read
	 * @param ethtool the netdevs' driver statistics, or {@code null}
	 */
	public RdmaHealthContributor(RdmaRegistry registry, @Nullable HostPortCountersSource host,
			@Nullable HostNetdevStatistics ethtool) {
		this.registry = registry;
		this.host = host;
		this.ethtool = ethtool;
	}

	/**
	 * The one entry of a host without RDMA devices: UNKNOWN, since nothing is wrong with
	 * the application, rather than no {@code rdma} component at all.
	 */
	static final String NO_DEVICES = "devices";

	private static final HealthIndicator NO_DEVICES_INDICATOR = () -> Health.unknown()
		.withDetail("reason", "No RDMA device on this host: none in sysfs and no counter set configured")
		.build();

	@Override
	public @Nullable HealthContributor getContributor(String name) {
		Set<String> names = names();
		if (names.isEmpty()) {
			return NO_DEVICES.equals(name) ? NO_DEVICES_INDICATOR : null;
		}
		return names.contains(name) ? contributor(name) : null;
	}

	@Override
	public Stream<Entry> stream() {
		Set<String> names = names();
		if (names.isEmpty()) {
			return Stream.of(new Entry(NO_DEVICES, NO_DEVICES_INDICATOR));
		}
		return names.stream().map((name) -> new Entry(name, contributor(name)));
	}

	/**
	 * The one entry of the host's port counters while their first read has not returned
	 * within its deadline: no device is known yet, and the stall is not "no device".
	 */
	static final String PORT_COUNTERS = "portCounters";

	private HealthContributor contributor(String name) {
		return this.contributors.computeIfAbsent(name, (key) -> {
			HostPortCountersSource host = this.host;
			if (PORT_COUNTERS.equals(key) && host != null) {
				return (HealthIndicator) () -> {
					ReadStall stall = host.snapshot().stall();
					return (stall != null) ? Health.down()
						.withDetail("reason", PortCountersHealthIndicator.stalledReason(stall))
						.withDetail("stalled", PortCountersHealthIndicator.stalled(stall))
						.build() : Health.up().build();
				};
			}
			ManagedDevice managed = this.registry.device(key);
			if (managed != null) {
				return new RdmaHealthIndicator(managed, this.ethtool);
			}
			HostPortCountersSource source = this.host;
			if (source == null) {
				throw new IllegalStateException("No RDMA device " + key);
			}
			return new PortCountersHealthIndicator(source.device(key), this.ethtool);
		});
	}

	private Set<String> names() {
		Set<String> names = new TreeSet<>();
		for (ManagedDevice device : this.registry.devices()) {
			names.add(device.name());
		}
		HostPortCountersSource source = this.host;
		if (source != null) {
			try {
				HostPortCountersSnapshot snapshot = source.snapshot();
				snapshot.devices().forEach((device) -> names.add(device.deviceName()));
				if (snapshot.stall() != null && snapshot.devices().isEmpty()) {
					names.add(PORT_COUNTERS);
				}
			}
			catch (RuntimeException ex) {
				// the managed devices are still reported
			}
		}
		return names;
	}

}
