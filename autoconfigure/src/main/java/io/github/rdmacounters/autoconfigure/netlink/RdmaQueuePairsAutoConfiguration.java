package io.github.rdmacounters.autoconfigure.netlink;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.rdmacounters.actuate.health.RdmaQueuePairsHealthIndicator;
import io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration;
import io.github.rdmacounters.autoconfigure.RdmaProperties;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.metrics.QueuePairMetrics;
import io.github.rdmacounters.netlink.NetlinkBudget;
import io.github.rdmacounters.netlink.NldevClient;
import io.github.rdmacounters.netlink.ProcessQueuePairs;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the queue pairs of this process
 * over RDMA netlink ({@link ProcessQueuePairs}): gauges by type and state
 * ({@link QueuePairMetrics}), the {@code rdmaQueuePairs} health component and, per port,
 * the rdma endpoint.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@AutoConfiguration(after = RdmaAutoConfiguration.class,
		beforeName = { "io.github.rdmacounters.autoconfigure.RdmaEndpointAutoConfiguration",
				"io.github.rdmacounters.autoconfigure.RdmaHealthContributorAutoConfiguration" },
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnBean({ RdmaBackend.class, RdmaRegistry.class })
@ConditionalOnBooleanProperty(name = "rdma.queue-pairs.enabled", matchIfMissing = true)
@EnableConfigurationProperties(RdmaProperties.class)
public final class RdmaQueuePairsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ProcessQueuePairs rdmaProcessQueuePairs(RdmaProperties properties, RdmaBackend backend,
			ObjectProvider<NldevClient> client) {
		return new ProcessQueuePairs(RdmaOptionalCountersAutoConfiguration.nldev(backend, client),
				ProcessHandle.current().pid(), NetlinkBudget.DEFAULT, properties.getReadCacheTtl(), Clock.systemUTC());
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

}
