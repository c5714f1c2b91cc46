package io.github.rdmacounters.autoconfigure.netlink;

import java.time.Clock;
import java.util.Locale;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

import io.github.rdmacounters.actuate.health.RdmaQueuePairsHealthIndicator;
import io.github.rdmacounters.autoconfigure.OnRdmaEnabledCondition;
import io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration;
import io.github.rdmacounters.autoconfigure.RdmaEndpointAutoConfiguration;
import io.github.rdmacounters.autoconfigure.RdmaProperties;
import io.github.rdmacounters.autoconfigure.health.RdmaHealthContributorAutoConfiguration;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.metrics.QueuePairCounterMetrics;
import io.github.rdmacounters.metrics.QueuePairMetrics;
import io.github.rdmacounters.netlink.NetlinkBudget;
import io.github.rdmacounters.netlink.NldevClient;
import io.github.rdmacounters.netlink.OptionalCounters;
import io.github.rdmacounters.netlink.ProcessQueuePairs;
import io.github.rdmacounters.netlink.QueuePairCounters;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the queue pairs of this process
 * over RDMA netlink ({@link ProcessQueuePairs}): gauges by type and state
 * ({@link QueuePairMetrics}), their hardware counters through counter binding
 * ({@link QueuePairCounters}, {@link QueuePairCounterMetrics}), the
 * {@code rdmaQueuePairs} health component and, per port, the rdma endpoint. Off unless
 * {@code rdma.queue-pairs.enabled} is true: a process that creates no queue pairs of its
 * own would pay a netlink dump of the host's queue pairs at each read, and bind hardware
 * counters to the raw packet queue pairs of its counter sets alone.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@AutoConfiguration(after = RdmaAutoConfiguration.class,
		before = { RdmaEndpointAutoConfiguration.class, RdmaHealthContributorAutoConfiguration.class },
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnBean({ RdmaBackend.class, RdmaRegistry.class })
@Conditional(RdmaQueuePairsAutoConfiguration.OnQueuePairsEnabled.class)
@EnableConfigurationProperties(RdmaProperties.class)
public final class RdmaQueuePairsAutoConfiguration {

	private static final String COUNTERS_PREFIX = "rdma.queue-pairs.counters";

	private static final Log logger = LogFactory.getLog(RdmaQueuePairsAutoConfiguration.class);

	@Bean
	@ConditionalOnMissingBean
	ProcessQueuePairs rdmaProcessQueuePairs(RdmaProperties properties, RdmaBackend backend,
			ObjectProvider<NldevClient> client) {
		return new ProcessQueuePairs(RdmaOptionalCountersAutoConfiguration.nldev(backend, client),
				ProcessHandle.current().pid(), NetlinkBudget.DEFAULT, properties.readCacheTtl(), Clock.systemUTC(),
				properties.readDeadline());
	}

	/**
	 * The hardware counters of this process's queue pairs; closed (unbinding what it
	 * bound) before the queue pairs' reader and the backend, which it depends on. The
	 * optional counters are enabled first, as Linux 6.15 binds the enabled ones to each
	 * queue pair when it is bound.
	 */
	@Bean
	@ConditionalOnMissingBean
	QueuePairCounters rdmaQueuePairCounters(RdmaProperties properties, RdmaBackend backend, RdmaRegistry registry,
			ObjectProvider<NldevClient> client, ProcessQueuePairs queuePairs,
			ObjectProvider<OptionalCounters> optionalCounters) {
		optionalCounters.getIfAvailable();
		RdmaQueuePairsProperties.Counters counters = properties.queuePairs().counters();
		if (counters.perQueuePair() && counters.binding() != QueuePairCounters.Binding.MANUAL) {
			logger.warn(COUNTERS_PREFIX + ".per-queue-pair=true has no effect with " + COUNTERS_PREFIX + ".binding="
					+ counters.binding().name().toLowerCase(Locale.ROOT)
					+ ": only manual binding gives each queue pair a counter of its own; set binding=manual, or "
					+ "remove per-queue-pair");
		}
		Log log = LogFactory.getLog(QueuePairCounters.class);
		return new QueuePairCounters(RdmaOptionalCountersAutoConfiguration.nldev(backend, client), queuePairs,
				new QueuePairCounters.Settings(counters.binding(), counters.perQueuePair(), COUNTERS_PREFIX),
				NetlinkBudget.DEFAULT, properties.readCacheTtl(), Clock.systemUTC(), log::warn,
				properties.readDeadline());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	@ConditionalOnBean(MeterRegistry.class)
	static class QueuePairMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		QueuePairMetrics rdmaQueuePairMetrics(ProcessQueuePairs queuePairs) {
			return new QueuePairMetrics(queuePairs, Tags.empty());
		}

		@Bean
		@ConditionalOnMissingBean
		QueuePairCounterMetrics rdmaQueuePairCounterMetrics(QueuePairCounters counters) {
			return new QueuePairCounterMetrics(counters, Tags.empty());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ ConditionalOnEnabledHealthIndicator.class, HealthContributor.class })
	@ConditionalOnEnabledHealthIndicator("rdmaQueuePairs")
	static class QueuePairsHealthConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "rdmaQueuePairsHealthIndicator")
		RdmaQueuePairsHealthIndicator rdmaQueuePairsHealthIndicator(ProcessQueuePairs queuePairs) {
			return new RdmaQueuePairsHealthIndicator(queuePairs);
		}

	}

	/**
	 * Matches when {@code rdma.queue-pairs.enabled} is true.
	 */
	static final class OnQueuePairsEnabled extends OnRdmaEnabledCondition {

		OnQueuePairsEnabled() {
			super(RdmaProperties.PREFIX + ".queue-pairs.enabled", false,
					"whether the queue pairs of this process are counted");
		}

	}

}
