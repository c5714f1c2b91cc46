package io.github.rdmacounters.autoconfigure.ethtool;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

import io.github.rdmacounters.autoconfigure.OnRdmaEnabledCondition;
import io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration;
import io.github.rdmacounters.autoconfigure.RdmaProperties;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException.Problem;
import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaException;
import io.github.rdmacounters.ethtool.EthtoolStatisticsReader;
import io.github.rdmacounters.ethtool.HostNetdevStatistics;
import io.github.rdmacounters.ethtool.NetdevStatistics;
import io.github.rdmacounters.ethtool.NetdevStatisticsSnapshot;
import io.github.rdmacounters.ethtool.PauseStormDetector;
import io.github.rdmacounters.ethtool.StatisticsReader;
import io.github.rdmacounters.metrics.NetdevStatisticsMetrics;
import io.github.rdmacounters.simulated.SimulatedBackend;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the driver statistics
 * ({@code ethtool -S}) of the netdevs of the RDMA devices whose port counters are read: a
 * {@link HostNetdevStatistics} that the rdma endpoint and health show per port, and its
 * meters. Netdevs of other interfaces are never read.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@AutoConfiguration(after = RdmaAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@Conditional(OnRdmaEnabledCondition.class)
@EnableConfigurationProperties(RdmaProperties.class)
public final class RdmaEthtoolAutoConfiguration {

	private static final Log logger = LogFactory.getLog(RdmaEthtoolAutoConfiguration.class);

	/** A setting with no effect is said once at startup. */
	@Bean
	SmartInitializingSingleton rdmaEthtoolSettingsCheck(RdmaProperties rdma,
			ObjectProvider<HostPortCountersSource> hostPortCounters, ObjectProvider<HostNetdevStatistics> statistics) {
		RdmaEthtoolProperties properties = rdma.ethtool();
		List<Problem> problems = new ArrayList<>();
		problems.addAll(NameFilter.statisticProblems(properties.include(), RdmaEthtoolProperties.PREFIX + ".include"));
		problems.addAll(NameFilter.statisticProblems(properties.exclude(), RdmaEthtoolProperties.PREFIX + ".exclude"));
		if (!problems.isEmpty()) {
			throw new InvalidRdmaConfigurationException(problems);
		}
		return () -> {
			// whether the other settings are set is asked only where they can have no
			// effect (a binding of the defaults at every start is a few ms of a first
			// one); with rdma.ethtool.enabled=false, DependentSettings names the settings
			if (properties.enabled() && hostPortCounters.getIfAvailable() == null && tuned(properties)) {
				logger.warn("rdma.ethtool settings have no effect without port counters: the netdevs are those of "
						+ "the devices whose port counters are read; set rdma.port-counters.enabled=true");
			}
			HostNetdevStatistics host = statistics.getIfAvailable();
			if (host != null && (!properties.include().isEmpty() || !properties.exclude().isEmpty())) {
				warnIfUnmatched(properties, statisticNames(host));
			}
		};
	}

	/**
	 * Whether any setting of {@code rdma.ethtool} other than {@code enabled} differs from
	 * its default.
	 */
	private static boolean tuned(RdmaEthtoolProperties properties) {
		// the defaults as Boot's binder creates them with nothing set
		RdmaEthtoolProperties.PauseStorm defaults = new Binder().bindOrCreate("pause-storm",
				RdmaEthtoolProperties.PauseStorm.class);
		return !properties.include().isEmpty() || !properties.exclude().isEmpty()
				|| !properties.pauseStorm().equals(defaults);
	}

	/**
	 * The names of the statistics of the host's netdevs at startup; none when none could
	 * be read.
	 */
	private static Set<String> statisticNames(HostNetdevStatistics host) {
		Set<String> names = new TreeSet<>();
		try {
			for (String device : host.deviceNames()) {
				NetdevStatisticsSnapshot snapshot = host.device(device).snapshot();
				for (String netdev : snapshot.netdevNames()) {
					NetdevStatistics netdevStatistics = snapshot.netdev(netdev);
					if (netdevStatistics != null) {
						names.addAll(netdevStatistics.names().asList());
					}
				}
			}
		}
		catch (RuntimeException ex) {
			// unreadable: the endpoint, health and rdma_ethtool_unreadable_netdevs say so
			logger.debug("Cannot read the netdevs' statistics to check rdma.ethtool.include and exclude", ex);
			return Set.of();
		}
		return names;
	}

	/**
	 * An entry that matches none of the host's statistics is a typo or a statistic of
	 * another driver; an exclude that matches all of them leaves no meter.
	 */
	private static void warnIfUnmatched(RdmaEthtoolProperties properties, Set<String> names) {
		if (names.isEmpty()) {
			return;
		}
		warnUnmatched(RdmaEthtoolProperties.PREFIX + ".include", properties.include(), names);
		if (names.stream().noneMatch(NameFilter.of(List.of(), properties.exclude()))) {
			logger.warn(RdmaEthtoolProperties.PREFIX + ".exclude=" + String.join(",", properties.exclude())
					+ " removes every driver statistic of this host's netdevs (" + names.size()
					+ "), so no ethtool meter is registered, the curated ones included; exclude only the statistics "
					+ "you do not want, or set rdma.ethtool.enabled=false");
			return;
		}
		warnUnmatched(RdmaEthtoolProperties.PREFIX + ".exclude", properties.exclude(), names);
	}

	private static void warnUnmatched(String property, List<String> entries, Set<String> names) {
		for (int i : NameFilter.unmatched(entries, names)) {
			logger.warn(property + "[" + i + "]=" + entries.get(i) + " matches none of the " + names.size()
					+ " driver statistics of this host's netdevs (closest: "
					+ String.join(", ", NameFilter.closest(entries.get(i), names, 3))
					+ "); correct the name or glob (ethtool -S <netdev> lists them), or remove it");
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(HostPortCountersSource.class)
	@Conditional(RdmaEthtoolAutoConfiguration.OnEthtoolEnabled.class)
	static class NetdevStatisticsConfiguration {

		/**
		 * The simulator's statistics, or a socket for SIOCETHTOOL, closed with the
		 * context.
		 */
		@Bean
		@ConditionalOnMissingBean
		StatisticsReader rdmaNetdevStatisticsReader(RdmaBackend backend) {
			if (backend instanceof SimulatedBackend simulated) {
				return simulated.netdevStatistics();
			}
			try {
				return EthtoolStatisticsReader.open();
			}
			catch (RdmaException | LinkageError ex) {
				String reason = String.valueOf(ex.getMessage());
				logger.warn("The netdevs' driver statistics cannot be read (" + reason
						+ "); they show as unreadable in rdma_ethtool_unreadable_netdevs and /actuator/rdma");
				return (netdev) -> {
					throw new RdmaException("Cannot read the driver statistics of " + netdev + ": " + reason, ex);
				};
			}
		}

		@Bean
		@ConditionalOnMissingBean
		HostNetdevStatistics rdmaNetdevStatistics(HostPortCountersSource hostPortCounters, StatisticsReader reader,
				RdmaProperties properties) {
			return new HostNetdevStatistics(hostPortCounters, reader, properties.readCacheTtl(), Clock.systemUTC(),
					pauseStormDetector(properties.ethtool().pauseStorm()), properties.readDeadline());
		}

		private static PauseStormDetector pauseStormDetector(RdmaEthtoolProperties.PauseStorm pauseStorm) {
			double share = pauseStorm.pauseShare();
			if (!(share > 0 && share <= 1)) {
				throw new InvalidConfigurationPropertyValueException(
						RdmaEthtoolProperties.PREFIX + ".pause-storm.pause-share", share,
						"must be above 0 and at most 1: the share of time a priority may be paused, e.g. 0.2");
			}
			Duration window = pauseStorm.window();
			if (window.isNegative() || window.isZero() || window.compareTo(Duration.ofHours(1)) > 0) {
				throw new InvalidConfigurationPropertyValueException(
						RdmaEthtoolProperties.PREFIX + ".pause-storm.window", window,
						"must be positive and at most 1h, e.g. 1m: a verdict is taken over at least this long and "
								+ "stands until the next, so a longer window shows a storm, or its end, hours late");
			}
			return new PauseStormDetector(share, window);
		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass(MeterRegistry.class)
		@ConditionalOnBean(MeterRegistry.class)
		static class MetricsConfiguration {

			@Bean
			@ConditionalOnMissingBean
			NetdevStatisticsMetrics rdmaNetdevStatisticsMetrics(HostNetdevStatistics statistics,
					RdmaProperties properties) {
				RdmaEthtoolProperties ethtool = properties.ethtool();
				return new NetdevStatisticsMetrics(statistics, ethtool.include(), ethtool.exclude(), Tags.empty());
			}

		}

	}

	/**
	 * Matches unless {@code rdma.ethtool.enabled} is false.
	 */
	static final class OnEthtoolEnabled extends OnRdmaEnabledCondition {

		OnEthtoolEnabled() {
			super(RdmaProperties.PREFIX + ".ethtool.enabled", true,
					"whether the driver statistics of the RDMA devices' netdevs are read");
		}

	}

}
