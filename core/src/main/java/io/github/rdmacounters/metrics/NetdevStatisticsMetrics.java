package io.github.rdmacounters.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.ethtool.HostNetdevStatistics;
import io.github.rdmacounters.ethtool.NetdevStatistics;
import io.github.rdmacounters.ethtool.NetdevStatisticsSnapshot;
import io.github.rdmacounters.ethtool.NetdevStatisticsSource;
import io.github.rdmacounters.ethtool.RoceStatistics;
import io.github.rdmacounters.ethtool.StatisticNames;

/**
 * {@link MeterBinder} for the driver statistics ({@code ethtool -S}) of the netdevs of
 * RDMA devices. By default only the RoCE-relevant groups of mlx5 ({@link RoceStatistics})
 * get a meter, a {@link FunctionCounter} with the priority and direction as tags:
 * <ul>
 * <li>{@code rdma.ethtool.pause.frames} ({@code rx_prioN_pause}, {@code tx_prioN_pause}
 * of priority N), {@code rdma.ethtool.pause.duration} in seconds
 * ({@code rx_prioN_pause_duration}, microseconds in the driver),
 * {@code rdma.ethtool.pause.transitions} ({@code rx_prioN_pause_transition}); mlx5 shows
 * them for the priorities with PFC on;</li>
 * <li>{@code rdma.ethtool.pause.storm.warnings} and {@code .errors}
 * ({@code tx_pause_storm_*_events});</li>
 * <li>{@code rdma.ethtool.phy.discards} ({@code rx_discards_phy}),
 * {@code rdma.ethtool.buffer.discards} and {@code rdma.ethtool.congestion.discards}
 * ({@code rx_prioN_buf_discard}, {@code rx_prioN_cong_discard}, by default for the
 * priorities with PFC), {@code rdma.ethtool.out.of.buffer.drops}
 * ({@code rx_out_of_buffer});</li>
 * <li>{@code rdma.ethtool.link.down.events}, {@code rdma.ethtool.pcs.symbol.errors},
 * {@code rdma.ethtool.corrected.bit.errors} ({@code link_down_events_phy},
 * {@code rx_pcs_symbol_err_phy}, {@code rx_corrected_bits_phy});</li>
 * <li>{@code rdma.ethtool.vport.rdma.unicast} in bytes and {@code .packets}
 * ({@code rx/tx_vport_rdma_unicast_bytes/packets}): the RoCE traffic of this function,
 * for an SR-IOV virtual function the traffic of whoever it is given to.</li>
 * </ul>
 * That is 11 series per netdev plus 6 per priority with PFC: 17 with PFC on one priority,
 * the usual RoCE set-up. Every meter is tagged {@code device} and {@code port} (the RDMA
 * device and port, as the port counters' meters are, so the two join; {@code port} is
 * {@value #UNKNOWN_PORT} for a netdev no port names) and {@code netdev} (the interface,
 * node_exporter's {@code device}).
 * <p>
 * Names: the project's {@code rdma_ethtool_} scheme rather than node_exporter's
 * {@code node_ethtool_<statistic>}, because node_exporter puts the priority and the
 * direction into the name ({@code node_ethtool_received_prio3_pause}), which no query can
 * aggregate over, and its {@code device} label is the interface where ours is the RDMA
 * device. Statistics added by the include filter that have no curated meter are gauges
 * (ethtool does not say which statistics are counters; node_exporter exports them
 * untyped) named as node_exporter names them with {@code rdma_ethtool_} in place of
 * {@code node_ethtool_}: see {@link #genericName(String)}.
 * <p>
 * Meters are registered for the netdevs and statistics of the first snapshot, and for
 * those that appear later when {@code rdma.ethtool.statistics} is read (a scrape reads
 * it); bound to a {@link HostNetdevStatistics}, for the devices that appear later when
 * {@value #NETDEVS} is read. Each meter asks its source's memoised snapshot, so a scrape
 * reads each netdev once; a netdev or statistic that cannot be read has no value (NaN),
 * not a stale one. The binder holds the sources strongly and removes its meters on
 * {@link #close()}.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public class NetdevStatisticsMetrics implements MeterBinder, AutoCloseable {

	/**
	 * Name of the gauge of statistics a netdev's driver reports
	 * ({@code rdma_ethtool_statistics}); reading it registers the meters of new ones.
	 */
	public static final String STATISTICS = "rdma.ethtool.statistics";

	/** Name of the gauge of a device's netdevs that could not be read. */
	public static final String UNREADABLE = "rdma.ethtool.unreadable.netdevs";

	/**
	 * Name of the gauge of the netdevs of the host's RDMA devices
	 * ({@code rdma_ethtool_netdevs}); reading it registers the meters of new devices.
	 */
	public static final String NETDEVS = "rdma.ethtool.netdevs";

	/** The {@code port} tag of a netdev that no port of its device names. */
	public static final String UNKNOWN_PORT = "unknown";

	private final List<NetdevStatisticsSource> sources;

	private final @Nullable HostNetdevStatistics host;

	private final Predicate<String> include;

	private final Predicate<String> exclude;

	private final Iterable<Tag> tags;

	private final List<Registration> registrations = new ArrayList<>();

	/**
	 * Create a binder with the curated default.
	 * @param sources the statistics of each RDMA device
	 * @param tags tags added to every meter
	 */
	public NetdevStatisticsMetrics(List<NetdevStatisticsSource> sources, Iterable<Tag> tags) {
		this(sources, List.of(), List.of(), tags);
	}

	/**
	 * Create a binder with the curated default and a filter for the rest. Entries are
	 * statistic names as {@code ethtool -S} prints them, exact or globs ({@code *} any
	 * run of characters, {@code ?} one character; see {@link NameFilter}).
	 * @param sources the statistics of each RDMA device
	 * @param include statistics that get a meter beyond the default, e.g.
	 * {@code rx_prio*_bytes}; {@code *} for all
	 * @param exclude statistics that get no meter, default or not; exclude wins
	 * @param tags tags added to every meter
	 */
	public NetdevStatisticsMetrics(List<NetdevStatisticsSource> sources, List<String> include, List<String> exclude,
			Iterable<Tag> tags) {
		this(List.copyOf(sources), null, include, exclude, tags);
	}

	/**
	 * Create a binder for the netdevs of every RDMA device of a host, a device that
	 * appears later included.
	 * @param host the host's netdev statistics
	 * @param include statistics that get a meter beyond the default
	 * @param exclude statistics that get no meter, default or not; exclude wins
	 * @param tags tags added to every meter
	 */
	public NetdevStatisticsMetrics(HostNetdevStatistics host, List<String> include, List<String> exclude,
			Iterable<Tag> tags) {
		this(List.of(), Objects.requireNonNull(host, "host"), include, exclude, tags);
	}

	private NetdevStatisticsMetrics(List<NetdevStatisticsSource> sources, @Nullable HostNetdevStatistics host,
			List<String> include, List<String> exclude, Iterable<Tag> tags) {
		this.sources = sources;
		this.host = host;
		this.include = include.stream().allMatch((e) -> e == null || e.isBlank()) ? (name) -> false
				: NameFilter.of(include, List.of());
		this.exclude = exclude.stream().allMatch((e) -> e == null || e.isBlank()) ? (name) -> false
				: NameFilter.of(exclude, List.of());
		this.tags = Objects.requireNonNull(tags, "tags");
	}

	/**
	 * Return the meter name of a statistic that has no curated meter:
	 * {@code rdma.ethtool.} and the statistic as node_exporter's ethtool collector
	 * sanitises it (lower case, other characters as underscores, the words {@code rx} and
	 * {@code tx} as {@code received} and {@code transmitted}), underscores as dots;
	 * Prometheus shows {@code rx_queue_0_drops} as
	 * {@code rdma_ethtool_received_queue_0_drops} where node_exporter shows
	 * {@code node_ethtool_received_queue_0_drops}.
	 * @param statistic the statistic name
	 * @return the meter name
	 */
	public static String genericName(String statistic) {
		return EthtoolMeterNames.generic(statistic);
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Registration registration = new Registration(registry);
		synchronized (this.registrations) {
			this.registrations.add(registration);
		}
		for (NetdevStatisticsSource source : this.sources) {
			registration.bind(source);
		}
		HostNetdevStatistics host = this.host;
		if (host != null) {
			registration.refresh(host);
			registration.add(Gauge.builder(NETDEVS, host, registration::refresh)
				.description("Netdevs of the host's RDMA devices; reading it registers the meters of new devices")
				.tags(this.tags)
				.register(registry));
		}
	}

	/**
	 * Remove the meters this binder registered from every registry it was bound to.
	 */
	@Override
	public void close() {
		MeterRegistration.removeAll(this.registrations);
	}

	private static double unreadable(NetdevStatisticsSource source) {
		try {
			return source.snapshot().failures().size();
		}
		catch (RuntimeException ex) {
			return Double.NaN;
		}
	}

	private boolean selected(String name, Set<String> pfcPriorities) {
		return (RoceStatistics.isDefault(name, pfcPriorities) || this.include.test(name)) && !this.exclude.test(name);
	}

	/**
	 * One statistic of one netdev; keeps the index of the name for the names it was
	 * looked up in, so a read costs an identity comparison. Holds no reference to the
	 * source, which the meter holds weakly and the binder strongly.
	 */
	private static final class StatisticProbe {

		private final String netdev;

		private final String name;

		private @Nullable StatisticNames names;

		private int index = -1;

		StatisticProbe(String netdev, String name) {
			this.netdev = netdev;
			this.name = name;
		}

		synchronized double value(NetdevStatisticsSource source) {
			NetdevStatistics statistics;
			try {
				statistics = source.snapshot().netdev(this.netdev);
			}
			catch (RuntimeException ex) {
				// the read failed as a whole (e.g. the reader was closed): no value
				return Double.NaN;
			}
			if (statistics == null) {
				return Double.NaN;
			}
			if (statistics.names() != this.names) {
				this.names = statistics.names();
				this.index = this.names.indexOf(this.name);
			}
			return (this.index >= 0) ? statistics.value(this.index) : Double.NaN;
		}

	}

	/** The meters of one device in one registry, and the statistics that have one. */
	private static final class DeviceMeters {

		private final NetdevStatisticsSource source;

		private final Tags tags;

		private final Map<String, Set<String>> bound = new HashMap<>();

		private final Map<String, Set<String>> takenNames = new HashMap<>();

		private final Map<String, StatisticNames> namesSeen = new HashMap<>();

		DeviceMeters(NetdevStatisticsSource source, Tags tags) {
			this.source = source;
			this.tags = tags;
		}

	}

	private final class Registration extends MeterRegistration {

		private final Map<String, DeviceMeters> devices = new HashMap<>();

		Registration(MeterRegistry registry) {
			super(registry);
		}

		/** Register the meters of the host's devices not seen before. */
		synchronized double refresh(HostNetdevStatistics host) {
			List<String> names;
			try {
				names = host.deviceNames();
			}
			catch (RuntimeException ex) {
				return Double.NaN;
			}
			int netdevs = 0;
			for (String name : names) {
				DeviceMeters device = this.devices.get(name);
				if (device == null) {
					device = bind(host.device(name));
				}
				else {
					refresh(device);
				}
				try {
					netdevs += device.source.snapshot().netdevNames().size();
				}
				catch (RuntimeException ex) {
					// counted as unreadable by the device's gauge
				}
			}
			return netdevs;
		}

		synchronized DeviceMeters bind(NetdevStatisticsSource source) {
			Tags deviceTags = Tags.of(NetdevStatisticsMetrics.this.tags).and("device", source.deviceName());
			DeviceMeters device = new DeviceMeters(source, deviceTags);
			this.devices.put(source.deviceName(), device);
			refresh(device);
			add(Gauge.builder(UNREADABLE, source, NetdevStatisticsMetrics::unreadable)
				.description("Netdevs of the RDMA device whose driver statistics could not be read in the last "
						+ "snapshot")
				.tags(deviceTags)
				.register(registry()));
			return device;
		}

		/**
		 * Register the meters of netdevs and statistics not seen before; the names of a
		 * netdev are looked at again only when they changed.
		 */
		synchronized void refresh(DeviceMeters device) {
			NetdevStatisticsSnapshot snapshot;
			try {
				snapshot = device.source.snapshot();
			}
			catch (RuntimeException ex) {
				return;
			}
			for (NetdevStatistics statistics : snapshot.netdevs().values()) {
				String netdev = statistics.netdev();
				if (device.namesSeen.get(netdev) == statistics.names()) {
					continue;
				}
				device.namesSeen.put(netdev, statistics.names());
				Integer port = snapshot.port(netdev);
				Tags netdevTags = device.tags.and("port", (port != null) ? port.toString() : UNKNOWN_PORT)
					.and("netdev", netdev);
				Set<String> bound = device.bound.computeIfAbsent(netdev, (n) -> {
					add(Gauge.builder(STATISTICS, device.source, (s) -> countAndRefresh(device, n))
						.description("Driver statistics the netdev reports (ethtool -S); reading it registers the "
								+ "meters of new ones")
						.tags(netdevTags)
						.register(registry()));
					return new HashSet<>();
				});
				Set<String> taken = device.takenNames.computeIfAbsent(netdev, (n) -> new HashSet<>());
				Set<String> pfcPriorities = RoceStatistics.pfcPriorities(statistics.names());
				for (String name : statistics.names().asList()) {
					if (bound.contains(name) || !selected(name, pfcPriorities)) {
						continue;
					}
					bound.add(name);
					register(device.source, netdev, name, netdevTags, taken);
				}
			}
		}

		private double countAndRefresh(DeviceMeters device, String netdev) {
			refresh(device);
			try {
				NetdevStatistics statistics = device.source.snapshot().netdev(netdev);
				return (statistics != null) ? statistics.size() : Double.NaN;
			}
			catch (RuntimeException ex) {
				return Double.NaN;
			}
		}

		private void register(NetdevStatisticsSource source, String netdev, String name, Tags netdevTags,
				Set<String> taken) {
			StatisticProbe probe = new StatisticProbe(netdev, name);
			EthtoolMeterNames.Curated curated = EthtoolMeterNames.curated(name);
			if (curated != null) {
				Tags tags = netdevTags.and(curated.tags());
				if (taken.add(curated.meterName() + tags)) {
					double scale = curated.scale();
					add(FunctionCounter.builder(curated.meterName(), source, (s) -> probe.value(s) * scale)
						.description(curated.description())
						.baseUnit(curated.baseUnit())
						.tags(tags)
						.register(registry()));
				}
				return;
			}
			String meterName = genericName(name);
			if (taken.add(meterName)) {
				add(Gauge.builder(meterName, source, probe::value)
					.description("Driver statistic " + name + " of the netdev (ethtool -S)")
					.tags(netdevTags)
					.register(registry()));
			}
		}

	}

}
